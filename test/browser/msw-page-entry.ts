// The browser side of msw.browser.test.ts, bundled by esbuild: the kit's MSW handlers (createStoreHandlers:
// the listings and the write routes) in a service worker, over the dataset, dialect and settings the page's
// query names; `window.listings` fetches URLs through it, `window.send` one request of any method.
import { setupWorker } from 'msw/browser';
import { createStoreHandlers } from '../../msw/index.ts';

declare global {
  interface Window {
    listingsReady: Promise<void>;
    listings: (requests: Array<{ target: string; headers: Record<string, string> }>) => Promise<Array<{ status: number; contentType: string | null; body: string }>>;
    send: (request: { method: string; target: string; headers: Record<string, string>; body?: string }) => Promise<{ status: number; contentType: string | null; body: string }>;
  }
}

const params = new URLSearchParams(location.search);
const options = JSON.parse(params.get('options') ?? '{}') as Parameters<typeof createStoreHandlers>[0];
const worker = setupWorker(...createStoreHandlers({ ...options, baseUrl: location.origin }));
window.listingsReady = worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true }).then(() => undefined);
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
