// The browser side of msw.browser.test.ts, bundled by esbuild: the kit's MSW handlers (createStoreHandlers:
// the listings and the write routes) in a service worker, over the dataset, dialect and settings the page's
// query names (`options`, for the page's own origin unless it names a baseUrl); with `catalogueFrom`
// ({ baseUrl, publishableKey }), over the catalogue fetchCatalogue reads from that backend first, as an app
// does before worker.start(). `window.listings` fetches URLs through it, `window.send` one request of any
// method; `listingsReady` rejects with the error's name and message when the catalogue cannot be read.
import { setupWorker } from 'msw/browser';
import { createStoreHandlers, fetchCatalogue } from '../../msw/index.ts';

declare global {
  interface Window {
    listingsReady: Promise<void>;
    listings: (requests: Array<{ target: string; headers: Record<string, string> }>) => Promise<Array<{ status: number; contentType: string | null; body: string }>>;
    send: (request: { method: string; target: string; headers: Record<string, string>; body?: string }) => Promise<{ status: number; contentType: string | null; body: string }>;
  }
}

// The query, or the fragment for options too long for a request line (a catalogue).
const params = new URLSearchParams(location.search || location.hash.slice(1));
const options = JSON.parse(params.get('options') ?? '{}') as NonNullable<Parameters<typeof createStoreHandlers>[0]>;
const catalogueFrom = JSON.parse(params.get('catalogueFrom') ?? 'null') as { baseUrl: string; publishableKey: string } | null;

async function start(): Promise<void> {
  const catalogue = catalogueFrom ? await fetchCatalogue(catalogueFrom) : options.catalogue;
  const worker = setupWorker(...createStoreHandlers({ ...options, ...(catalogue ? { catalogue } : {}), baseUrl: catalogueFrom?.baseUrl ?? options.baseUrl ?? location.origin }));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
}
window.listingsReady = start().catch((error: unknown) => {
  throw new Error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
});
window.listings = (requests) =>
  Promise.all(
    requests.map(async ({ target, headers }) => {
      const res = await fetch(target, { headers });
      return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
    }),
  );
window.send = async ({ method, target, headers, body }) => {
  const res = await fetch(target, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
};
