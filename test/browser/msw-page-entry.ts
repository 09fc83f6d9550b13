// The browser side of msw.browser.test.ts, bundled by esbuild: the kit's MSW handlers in a service
// worker, over the dataset and dialect the page's query names; `window.listings` fetches URLs through it.
import { setupWorker } from 'msw/browser';
import { createListingHandlers } from '../../msw/index.ts';

declare global {
  interface Window {
    listingsReady: Promise<void>;
    listings: (requests: Array<{ target: string; headers: Record<string, string> }>) => Promise<Array<{ status: number; contentType: string | null; body: string }>>;
  }
}

const params = new URLSearchParams(location.search);
const options = JSON.parse(params.get('options') ?? '{}') as Parameters<typeof createListingHandlers>[0];
const worker = setupWorker(...createListingHandlers({ ...options, baseUrl: location.origin }));
window.listingsReady = worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true }).then(() => undefined);
window.listings = (requests) =>
  Promise.all(
    requests.map(async ({ target, headers }) => {
      const res = await fetch(target, { headers });
      return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
    }),
  );
