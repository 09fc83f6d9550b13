/**
 * `npm run test:browser`: store-listing-kit/msw in a real browser. The handlers, bundled for the
 * browser by esbuild (so no Node built-in may be reachable from them), run in headless Chromium
 * behind MSW's service worker (mockServiceWorker.js from the msw package); the page fetches
 * generated listing URLs through it, and each answer has the status, Content-Type and bytes the
 * HTTP mock gives for the same URL and seed, in both dialects.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../fixtures/dataset.ts';
import { startMockServer } from '../../mock-server/server.ts';
import { listingRequests } from '../support/listing-requests.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const DATA = { seed: 4, reviews: 90, products: 4, wishlists: 15, maxItems: 12 };
const require = createRequire(import.meta.url);

let browser: Browser;
let site: Server;
let origin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./msw-page-entry.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, [string, string]> = {
    '/': ['text/html; charset=utf-8', '<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/bundle.js"></script>'],
    '/bundle.js': ['text/javascript; charset=utf-8', bundle.outputFiles[0]!.text],
    '/mockServiceWorker.js': ['text/javascript; charset=utf-8', readFileSync(require.resolve('msw/mockServiceWorker.js'), 'utf8')],
  };
  // Anything else is a 418: a request the service worker let through would stand out.
  site = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(file ? 200 : 418, { 'Content-Type': file?.[0] ?? 'text/plain' });
    res.end(file?.[1] ?? 'not served');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((resolve) => site.close(resolve));
});

describe('the MSW handlers in Chromium, behind the service worker', () => {
  for (const dialect of ['spec', 'alphabite'] as const) {
    it(`answer generated ${dialect} requests with the HTTP mock's status, Content-Type and bytes`, async () => {
      // A page cannot set a Cookie header (the browser sends its own cookies): those requests are compared in test/msw-equivalence.test.ts.
      const requests = fc.sample(listingRequests(dialect, generateDataset(DATA), 40), { seed: 8, numRuns: 80 }).filter((r) => !('cookie' in r.headers));
      const mock = await startMockServer({ ...DATA, dialect });
      const tab = await browser.newPage();
      try {
        await tab.goto(`${origin}/?options=${encodeURIComponent(JSON.stringify({ ...DATA, dialect }))}`);
        await tab.waitForFunction(() => 'listingsReady' in window);
        await tab.evaluate(() => window.listingsReady);
        const inBrowser = await tab.evaluate((list) => window.listings(list), requests.map(({ target, headers }) => ({ target, headers })));
        const overHttp = await Promise.all(
          requests.map(async ({ target, headers }) => {
            const res = await fetch(`${mock.url}${target}`, { headers });
            return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
          }),
        );
        expect(inBrowser.map((a) => a.status)).not.toContain(418);
        inBrowser.forEach((answer, i) => expect(answer, requests[i]!.target).toEqual(overHttp[i]));
        expect(new Set(inBrowser.map((a) => a.status)).size).toBeGreaterThan(1);
      } finally {
        await tab.close();
        await mock.close();
      }
    }, 60_000);
  }
});
