/**
 * A storefront page on its own origin (a second loopback server) that lists the four endpoints
 * of a mock the way @medusajs/js-sdk fetches in a browser: JSON headers, the publishable key, a
 * bearer token, and `credentials: 'include'` (session auth). It shows what it got in a table.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const PAGE_KEY = 'pk_browser_storefront';
export const PAGE_TOKEN = 'Bearer browser-customer';

const script = (mockUrl: string) => `
const base = ${JSON.stringify(mockUrl)};
const init = {
  credentials: 'include',
  headers: { accept: 'application/json', 'content-type': 'application/json', 'x-publishable-api-key': ${JSON.stringify(PAGE_KEY)}, authorization: ${JSON.stringify(PAGE_TOKEN)} },
};
async function list(path) {
  const response = await fetch(base + path, init);
  const body = await response.json();
  if (!response.ok) throw new Error(response.status + ' ' + body.message);
  return body;
}
async function row(name, path) {
  const tr = document.createElement('tr');
  tr.dataset.listing = name;
  try {
    const body = await list(path);
    tr.innerHTML = '<td>' + name + '</td><td class="records">' + body.data.length + '</td><td class="count">' + body.count + '</td><td class="first">' + (body.data[0] ? body.data[0].id : '') + '</td>';
    document.querySelector('tbody').append(tr);
    return body;
  } catch (error) {
    tr.innerHTML = '<td>' + name + '</td><td class="error" colspan="3">' + error + '</td>';
    document.querySelector('tbody').append(tr);
    return undefined;
  }
}
(async () => {
  const reviews = await row('reviews', '/store/products/reviews');
  await row('productReviews', '/store/reviews/product/' + (reviews ? reviews.data[0].product_id : 'prod_unknown') + '?limit=5');
  const wishlists = await row('wishlists', '/store/wishlists?limit=10&offset=0');
  await row('wishlistItems', '/store/wishlists/' + (wishlists ? wishlists.data[0].id : 'wl_unknown') + '/items?limit=10&offset=0');
  document.body.dataset.done = 'true';
})();
`;

function html(mockUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>storefront</title>
<style>body{font-family:sans-serif;margin:2em}td,th{border:1px solid #999;padding:4px 8px}</style></head>
<body><h1>Storefront against the mock</h1><p>${mockUrl}</p>
<table><thead><tr><th>listing</th><th>records</th><th>count</th><th>first id</th></tr></thead><tbody></tbody></table>
<script type="module">${script(mockUrl)}</script></body></html>`;
}

export interface StorefrontPage {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** Serves the page for `mockUrl` on a free loopback port (`localhost`, so its origin differs from the mock's 127.0.0.1). */
export async function serveStorefront(mockUrl: () => string): Promise<StorefrontPage> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html(mockUrl()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://localhost:${port}`;
  return { url: `${origin}/`, origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
