/**
 * `npm run test:browser`: a storefront page in headless Chromium (Debian's `chromium`) on another
 * origin lists the four endpoints the way @medusajs/js-sdk does in the browser, with
 * `credentials: 'include'`. Credentialed CORS works with explicit --cors-origin origins and fails
 * with `*`, as browsers require.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/server.ts';
import { PAGE_KEY, PAGE_TOKEN, serveStorefront, type StorefrontPage } from './storefront-page.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// What this machine needs: no sandbox as root, and none of Chromium's background connections.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Opens the storefront page against `mock`; answers each listing's row as the page shows it. */
async function visit(page: StorefrontPage, screenshot?: string): Promise<Record<string, Record<string, string>>> {
  const tab = await browser.newPage();
  try {
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-done="true"]', { timeout: 20_000 });
    if (screenshot) await tab.screenshot({ path: screenshot });
    return await tab.$$eval('tbody tr', (rows) =>
      Object.fromEntries(rows.map((tr) => [(tr as HTMLElement).dataset.listing!, Object.fromEntries([...tr.querySelectorAll('td[class]')].map((td) => [td.className, td.textContent ?? '']))])),
    );
  } finally {
    await tab.close();
  }
}

describe('a browser storefront on another origin', () => {
  let mock: MockServer | undefined;
  let page: StorefrontPage;
  beforeAll(async () => {
    page = await serveStorefront(() => mock!.url);
  });
  afterAll(async () => {
    await page.close();
  });

  it('lists the four endpoints with credentials when the mock names its origin (--cors-origin)', async () => {
    mock = await startMockServer({ seed: 1, dialect: 'alphabite', corsOrigin: [page.origin] });
    try {
      const rows = await visit(page, join(tmpdir(), 'store-listing-kit-storefront.png'));
      expect(rows.reviews).toMatchObject({ records: '300', count: '0' });
      expect(rows.productReviews?.records).toBe('5');
      // The page's customer sees their own wishlists only: one seeded wishlist (allow_multiple_wishlists off).
      expect(rows.wishlists).toMatchObject({ records: '1', count: '1' });
      expect(rows.wishlistItems?.records).toBe('10');
      for (const row of Object.values(rows)) expect(row.error).toBeUndefined();
    } finally {
      await mock.close();
    }
  }, 60_000);

  it("writes through the plugins' routes from another origin (POST, PUT, DELETE with JSON, credentials): the preflights allow them", async () => {
    // With allow_multiple_wishlists on, the create makes a new, empty wishlist, which a DELETE then removes
    // (with it off, the create answers the customer's seeded wishlist, whose items a DELETE fails on).
    mock = await startMockServer({ seed: 1, dialect: 'alphabite', corsOrigin: [page.origin], allowMultipleWishlists: true });
    const tab = await browser.newPage();
    try {
      await tab.goto(page.url);
      await tab.waitForSelector('body[data-done="true"]', { timeout: 20_000 });
      const steps = await tab.evaluate(
        async ({ base, key, token }) => {
          const call = async (method: string, path: string, body?: unknown) => {
            const res = await fetch(base + path, {
              method,
              credentials: 'include',
              headers: { authorization: token, 'x-publishable-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            return { status: res.status, json: (await res.json()) as { id?: string; wishlist?: { id: string }; name?: string } };
          };
          const created = await call('POST', '/store/wishlists', { sales_channel_id: 'sc_browser' });
          const id = created.json.id ?? created.json.wishlist?.id ?? '';
          const renamed = await call('PUT', `/store/wishlists/${id}`, { name: 'from the browser' });
          const deleted = await call('DELETE', `/store/wishlists/${id}`);
          return [created.status, renamed.status, renamed.json.name, deleted.status, deleted.json.id === id];
        },
        { base: mock.url, key: PAGE_KEY, token: PAGE_TOKEN },
      );
      expect(steps).toEqual([201, 200, 'from the browser', 200, true]);
    } finally {
      await tab.close();
      await mock.close();
    }
  }, 60_000);

  it('cannot send credentials to a mock that allows any origin (*): the browser refuses, as the banner says', async () => {
    mock = await startMockServer({ seed: 1, dialect: 'alphabite' });
    try {
      const rows = await visit(page);
      expect(Object.keys(rows).sort()).toEqual(['productReviews', 'reviews', 'wishlistItems', 'wishlists']);
      for (const row of Object.values(rows)) expect(row.error).toMatch(/Failed to fetch/);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
