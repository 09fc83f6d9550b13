/**
 * `npm run test:browser`: a storefront page in headless Chromium on another origin reads the mock's
 * `x-store-listing-kit-reason` on the plugins' empty 500 (docs/writes.md): the CORS policy exposes it
 * (Access-Control-Expose-Headers), so `response.headers.get()` sees it, with any origin (*) and with
 * the origin named by --cors-origin. A header not exposed reads as null in a browser.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON_HEADER } from '../../lib/write-reason.ts';
import { startMockServer } from '../../mock-server/server.ts';
import { REASONS } from '../../mock-server/writes/reasons.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const DATA = { seed: 2, reviews: 40, products: 4, wishlists: 5, maxItems: 4 };

let browser: Browser;
let page: Server;
let origin: string;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>storefront</title>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
});

describe('a browser storefront on another origin', () => {
  for (const named of [false, true]) {
    it(`reads why an empty 500 happened (${named ? 'its origin named by corsOrigin' : 'any origin'})`, async () => {
      const mock = await startMockServer({ ...DATA, dialect: 'alphabite', ...(named ? { corsOrigin: [origin] } : {}) });
      const tab = await browser.newPage();
      try {
        await tab.goto(origin);
        const seen = await tab.evaluate(
          async ([url, header]) => {
            const res = await fetch(url, { headers: { authorization: 'Bearer browser-customer', 'x-publishable-api-key': 'pk_browser' } });
            return { status: res.status, body: await res.text(), reason: res.headers.get(header), retryAfter: res.headers.get('retry-after') };
          },
          [`${mock.url}/store/wishlists/wl_unknown`, REASON_HEADER] as const,
        );
        expect(seen).toEqual({ status: 500, body: '', reason: REASONS.wishlistUnknown, retryAfter: null });
      } finally {
        await tab.close();
        await mock.close();
      }
    }, 60_000);
  }
});
