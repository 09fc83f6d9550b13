/**
 * `npm run test:browser`, issue 23: the dashboard at /__admin/ in headless Chromium (Debian's
 * `chromium`). It loads under its Content-Security-Policy without an error; a listing request made
 * from outside appears within a second, with its page arithmetic beside it; faults switched on from
 * the page fail the next listing; a reseed from the page changes the data, and reset brings it
 * back; markup in a request or answer is shown as text, never run; every control is reached with
 * Tab; with --admin-token the page asks for the token and sends it as a bearer header only.
 * Issue 28: each request says who answered it (the mock, or the backend with its time or error) and
 * what the validating proxy's check found, and the page filters by them. Saves the screenshot
 * docs/operations.md shows (docs/images/dashboard.png: the whole page at 1280 px wide, of a mock in
 * front of a small storefront backend).
 * Names that are JavaScript's own (`__proto__`, `constructor`) are shown as sent and keep the history per customer
 * working (issue 27); an answer's `x-store-listing-kit-reason` shows beside its status (a write's, and a
 * listing's own empty 500 as the server sent it); the history column is
 * readable at 1280 px.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHABITE_LISTING_REASONS } from '../../lib/dialects/alphabite.ts';
import { startMockServer, type MockServer } from '../../mock-server/server.ts';
import type { RecordedRequest } from '../../mock-server/journal/journal-entry.ts';
import type { BackendAnswerHook } from '../../mock-server/backend/hooks.ts';
import { exactRequest } from '../support/http.ts';
import { requestBytes, sendRaw } from '../support/raw-http.ts';
import { startFakeBackend } from '../support/fake-backend.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT = fileURLToPath(new URL('../../docs/images/dashboard.png', import.meta.url));
const TOKEN = 'dashboard-browser-test-token';

let browser: Browser;
let mock: MockServer;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mock = await startMockServer({ seed: 1, reviews: 60, products: 4, wishlists: 6, maxItems: 4 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});


/** A laptop's screen: the page must be readable at this width (the screenshot is taken at it too). */
const LAPTOP = { width: 1280, height: 800 };

/** Opens the dashboard of `base` in a new tab (laptop-sized), collecting the page's errors. */
async function open(base: string, viewport = LAPTOP): Promise<{ tab: Page; errors: string[] }> {
  const tab = await browser.newPage({ viewport });
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  tab.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await tab.goto(`${base}/__admin/`);
  return { tab, errors };
}

const rowFor = (url: string) => `#requests button[data-url="${url}"]`;

describe('the dashboard', () => {
  it('loads, shows a listing request made from outside within a second, with its page arithmetic beside it', async () => {
    const { tab, errors } = await open(mock.url);
    try {
      await tab.waitForFunction(() => document.querySelector('#server-facts')?.textContent?.includes('dialect spec'), undefined, { timeout: 15_000 });
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      for (const path of ['/store/wishlists?take=2&skip=2', '/store/products/reviews?limit=oops']) await exactRequest(mock.url, path);
      await tab.waitForSelector(rowFor('/store/products/reviews?limit=oops'), { timeout: 10_000 });

      const path = '/store/products/reviews?limit=5&offset=10&order=-rating';
      const sent = await exactRequest(mock.url, path, { authorization: 'Bearer shopper-1' });
      expect(sent.status).toBe(200);
      const asked = Date.now();
      await tab.waitForSelector(rowFor(path), { timeout: 1000 });
      const seenAfterMs = Date.now() - asked;
      expect(seenAfterMs).toBeLessThanOrEqual(1000);

      // A write and a provider state (set up, then torn down), for the history per customer.
      const json = { 'content-type': 'application/json' };
      await exactRequest(mock.url, '/store/wishlists', { ...json, authorization: 'Bearer shopper-1' }, 'POST', '{"sales_channel_id":"sc_1"}');
      for (const action of ['setup', 'teardown']) {
        expect((await exactRequest(mock.url, '/__admin/provider-states', json, 'POST', JSON.stringify({ state: 'reviews exist', params: { count: 60 }, action }))).status).toBe(200);
      }
      await tab.waitForFunction(() => document.querySelector('#states')?.textContent?.includes('teardown reviews exist {"count":60}'), undefined, { timeout: 10_000 });
      const writes = await tab.textContent('#writes');
      expect(writes).toContain('POST /store/wishlists');
      expect(writes).toMatch(/cus_mock_[0-9a-f]{16}/);

      await tab.click(rowFor(path));
      const detail = await tab.textContent('#detail');
      expect(detail).toContain(`GET ${path}`);
      expect(detail).toContain('[redacted]');
      expect(detail).not.toContain('shopper-1');
      expect(detail).toContain('"reviews": [');
      const page = await tab.$$eval('#detail aside.page dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
      expect(page).toMatchObject({ rule: 'reviewsPageMeta', matching: '60', 'page size': '5', start: '10', count: '60', totalPages: '12', currentPage: '3', nextPage: '4', prevPage: '2' });
      expect(await tab.textContent('#detail aside.page')).toContain('floor(offset / limit)');
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('switches faults on from the page, so that the next listing fails, and off again', async () => {
    const { tab } = await open(mock.url);
    try {
      await tab.waitForFunction(() => document.querySelector('#faults-facts')?.textContent === 'off', undefined, { timeout: 15_000 });
      await tab.fill('#fault-rate', '1');
      await tab.fill('#fault-status', '503');
      await tab.click('#faults-apply');
      await tab.waitForFunction(() => document.querySelector('#faults-facts')?.textContent?.startsWith('on'), undefined, { timeout: 10_000 });
      expect((await exactRequest(mock.url, '/store/products/reviews?limit=2')).status).toBe(503);
      await tab.click('#faults-off');
      await tab.waitForFunction(() => document.querySelector('#faults-facts')?.textContent === 'off', undefined, { timeout: 10_000 });
      expect((await exactRequest(mock.url, '/store/products/reviews?limit=2')).status).toBe(200);
    } finally {
      await tab.close();
    }
  });

  it('reseeds from the page, which changes the data, and resets it back', async () => {
    const before = await exactRequest(mock.url, '/store/products/reviews?limit=3');
    const { tab } = await open(mock.url);
    try {
      await tab.waitForSelector('#dataset-facts dt', { timeout: 15_000 });
      await tab.fill('#reseed-seed', '77');
      await tab.fill('#reseed-reviews', '25');
      await tab.click('#reseed');
      await tab.waitForFunction(() => document.querySelector('#message')?.textContent?.includes('(seed 77)'), undefined, { timeout: 20_000 });
      const after = await exactRequest(mock.url, '/store/products/reviews?limit=3');
      expect(after.text).not.toBe(before.text);
      expect(JSON.parse(after.text).count).toBe(25);
      await tab.waitForFunction(() => [...document.querySelectorAll('#dataset-facts dd')].some((dd) => dd.textContent === '77'), undefined, { timeout: 10_000 });
      await tab.click('#reset');
      await tab.waitForFunction(() => document.querySelector('#message')?.textContent?.startsWith('Back to the initial dataset'), undefined, { timeout: 20_000 });
      expect((await exactRequest(mock.url, '/store/products/reviews?limit=3')).text).toBe(before.text);
    } finally {
      await tab.close();
    }
  });

  it('shows markup in a request or an answer as text, and never runs it', async () => {
    const { tab, errors } = await open(mock.url);
    try {
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      const path = '/store/<script>window.__pwned=1</script><img/src=x/onerror=window.__pwned=2>';
      const answer = await exactRequest(mock.url, path, { 'x-note': '<img src=x onerror="window.__pwned=3">' }, 'POST', '<script>window.__pwned=4</script>');
      expect(answer.text).toContain('<script>window.__pwned=1</script>');
      await tab.waitForSelector(`#requests button[data-url^="/store/<script>"]`, { timeout: 10_000 });
      await tab.click(`#requests button[data-url^="/store/<script>"]`);
      const detail = (await tab.textContent('#detail')) ?? '';
      expect(detail).toContain(path);
      expect(detail).toContain('<img src=x onerror="window.__pwned=3">');
      expect(await tab.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await tab.$$('#detail script, #detail img, #requests script, #requests img')).toEqual([]);
      expect(errors.filter((e) => e.startsWith('dialog'))).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('is used with the keyboard: Tab reaches every control, and focus shows', async () => {
    await exactRequest(mock.url, '/store/wishlists?take=1');
    const { tab } = await open(mock.url);
    try {
      await tab.waitForSelector('#requests button', { timeout: 15_000 });
      const reached = new Set<string>();
      let outline = '';
      for (let i = 0; i < 80; i++) {
        await tab.keyboard.press('Tab');
        const focused = await tab.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return { id: el?.id ?? '', row: el?.hasAttribute('data-url') ?? false, outline: el ? getComputedStyle(el).outlineStyle : '' };
        });
        reached.add(focused.row ? 'a request' : focused.id);
        if (focused.id === 'reseed') outline = focused.outline;
      }
      for (const control of ['filter-path', 'filter-status', 'filter-customer', 'filter-by', 'filter-violations', 'pause', 'clear-journal', 'a request', 'fault-latency', 'fault-rate', 'fault-status', 'fault-headers', 'faults-apply', 'faults-off', 'reseed-seed', 'reseed', 'reset']) {
        expect(reached, control).toContain(control);
      }
      expect(outline).toBe('solid');
      // Enter on a focused request shows it.
      await tab.focus('#requests button');
      await tab.keyboard.press('Enter');
      expect(await tab.textContent('#detail')).toContain('Answer body');
    } finally {
      await tab.close();
    }
  });
});

describe('the dashboard of a mock with --admin-token', () => {
  it('asks for the token and sends it as a bearer header, never in a URL', async () => {
    const locked = await startMockServer({ seed: 1, reviews: 10, wishlists: 2, adminToken: TOKEN });
    const { tab } = await open(locked.url);
    const urls: string[] = [];
    const bearers: string[] = [];
    tab.on('request', (req) => {
      urls.push(req.url());
      const auth = req.headers().authorization;
      if (auth) bearers.push(auth);
    });
    try {
      await tab.waitForSelector('#token-form:not([hidden])', { timeout: 15_000 });
      await tab.fill('#token', TOKEN);
      await tab.click('#token-form button[type=submit]');
      await tab.waitForFunction(() => document.querySelector('#server-facts')?.textContent?.includes('admin: token'), undefined, { timeout: 15_000 });
      await exactRequest(locked.url, '/store/products/reviews?limit=1');
      await tab.waitForSelector(rowFor('/store/products/reviews?limit=1'), { timeout: 10_000 });
      expect(bearers.length).toBeGreaterThan(0);
      expect(new Set(bearers)).toEqual(new Set([`Bearer ${TOKEN}`]));
      expect(urls.filter((url) => url.includes(TOKEN))).toEqual([]);
    } finally {
      await tab.close();
      await locked.close();
    }
  });
});

/** A Medusa-like customer token naming `actor_id` (lib/customers.ts reads it unverified). */
const customerJwt = (actorId: string) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ actor_id: actorId, actor_type: 'customer' })).toString('base64url')}.c2lnbmF0dXJl`;

/** The name and value pairs of the entry shown in detail, per heading (Query, Request headers, ...). */
const detailPairs = (tab: Page) =>
  tab.$$eval('#detail h3', (headings) =>
    headings.map((h3) => {
      const list = h3.nextElementSibling;
      const dts = list && list.tagName === 'DL' ? [...list.querySelectorAll('dt')] : [];
      return [h3.textContent ?? '', dts.map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? ''])] as [string, string[][]];
    }),
  );

describe("the dashboard, with names that are JavaScript's own and the plugins' reasons (alphabite dialect)", () => {
  let alphabite: MockServer;
  beforeAll(async () => {
    alphabite = await startMockServer({ seed: 1, reviews: 10, products: 3, wishlists: 2, maxItems: 3, dialect: 'alphabite', allowMultipleWishlists: true });
  }, 60_000);
  afterAll(() => alphabite?.close());

  const as = (actor: string) => ({ 'content-type': 'application/json', 'x-publishable-api-key': 'pk_test', authorization: `Bearer ${customerJwt(actor)}` });

  it("shows header names, query keys and customers such as __proto__ and constructor as sent, and their history", async () => {
    const { tab, errors } = await open(alphabite.url);
    try {
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      for (const actor of ['constructor', '__proto__', 'toString']) {
        const created = await exactRequest(alphabite.url, '/store/wishlists', as(actor), 'POST', JSON.stringify({ name: `of ${actor}`, sales_channel_id: 'sc_1' }));
        expect(created.status, created.text).toBe(201);
      }
      const target = '/store/products/reviews?__proto__=x&constructor=y&toString=z';
      const headers: [string, string][] = [['__proto__', 'sent-proto'], ['constructor', 'sent-constructor'], ['toString', 'sent-tostring'], ['hasOwnProperty', 'sent-has']];
      await sendRaw(Number(new URL(alphabite.url).port), requestBytes({ method: 'GET', target, headers }));

      await tab.waitForSelector(rowFor(target), { timeout: 10_000 });
      await tab
        .waitForFunction(() => document.querySelector('#writes')?.textContent?.includes('toString'), undefined, { timeout: 10_000 })
        .catch(async (error: Error) => {
          throw new Error(`the history shows no writes of toString (${error.message}); the page says '${await tab.textContent('#live')}', errors: ${errors.join('; ')}`);
        });
      const history = await tab.$$eval('#writes [data-customer]', (groups) => groups.map((group) => [group.getAttribute('data-customer'), group.querySelector('h3')?.textContent, group.querySelector('td.target')?.textContent]));
      expect(history).toEqual([
        ['constructor', 'constructor', 'POST /store/wishlists'],
        ['__proto__', '__proto__', 'POST /store/wishlists'],
        ['toString', 'toString', 'POST /store/wishlists'],
      ]);

      await tab.click(rowFor(target));
      const shown = new Map(await detailPairs(tab));
      expect(shown.get('Query')).toEqual([
        ['__proto__', 'x'],
        ['constructor', 'y'],
        ['toString', 'z'],
      ]);
      expect(shown.get('Request headers')).toEqual(
        expect.arrayContaining([
          ['__proto__', 'sent-proto'],
          ['constructor', 'sent-constructor'],
          ['tostring', 'sent-tostring'],
          ['hasownproperty', 'sent-has'],
        ]),
      );
      expect(await tab.textContent('#detail')).not.toContain('native code');
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("shows an answer's x-store-listing-kit-reason beside its status, in the detail and the history", async () => {
    const { tab, errors } = await open(alphabite.url);
    const reason = 'the variant is already in this wishlist';
    const marked = '/store/wishlists/wl_reason_marker/items';
    // The journal as the server answers it, with the reason added to one answer's headers: the page's own data path.
    await tab.route('**/__admin/journal*', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      const journal = await response.json();
      for (const entry of journal.entries) if (entry.path === marked) entry.response.headers['x-store-listing-kit-reason'] = reason;
      await route.fulfill({ response, json: journal });
    });
    try {
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      await exactRequest(alphabite.url, marked, as('cus_reason'), 'POST', JSON.stringify({ product_variant_id: 'variant_1' }));
      await tab.waitForSelector(rowFor(marked), { timeout: 10_000 });
      await tab.click(rowFor(marked));
      const status = await tab.$eval('#detail dd.status-fact', (dd) => ({ text: dd.textContent, reason: dd.querySelector('.reason')?.textContent }));
      expect(status.reason).toBe(reason);
      expect(status.text).toMatch(new RegExp(`^\\d{3}${reason}$`));
      await tab.waitForSelector('#writes [data-customer="cus_reason"] .reason', { timeout: 10_000 });
      expect(await tab.textContent('#writes [data-customer="cus_reason"] td.target')).toBe(`POST ${marked}${reason}`);
      expect(errors).toEqual([]);
    } finally {
      // The page polls the journal four times a second: a handler still fetching when the tab closes must not fail the run
      // ("apiResponse.json: Response has been disposed", an unhandled error seen once).
      await tab.unrouteAll({ behavior: 'ignoreErrors' });
      await tab.close();
    }
  });

  it("shows a listing's own empty 500 reason beside its status, as the server sent it", async () => {
    const { tab, errors } = await open(alphabite.url);
    try {
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      const target = '/store/wishlists?limit=-1';
      const answer = await exactRequest(alphabite.url, target, as('cus_listing_reason'));
      expect(answer).toEqual({ status: 500, text: '' });
      await tab.waitForSelector(rowFor(target), { timeout: 10_000 });
      await tab.click(rowFor(target));
      const status = await tab.$eval('#detail dd.status-fact', (dd) => ({ text: dd.textContent, reason: dd.querySelector('.reason')?.textContent }));
      expect(status).toEqual({ text: `500${ALPHABITE_LISTING_REASONS.negativeWindow}`, reason: ALPHABITE_LISTING_REASONS.negativeWindow });
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('keeps the history column readable at 1280 px: times and statuses on one line, request paths whole', async () => {
    const { tab } = await open(alphabite.url, LAPTOP);
    try {
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      const created = await exactRequest(alphabite.url, '/store/wishlists', as('cus_long_paths'), 'POST', JSON.stringify({ name: 'long', sales_channel_id: 'sc_1' }));
      const wishlist = JSON.parse(created.text).id as string;
      const long = `/store/wishlists/${wishlist}/items/wli_01JZZZZZZZZZZZZZZZZZZZZZZZ`;
      await exactRequest(alphabite.url, long, as('cus_long_paths'), 'DELETE');
      await tab.waitForSelector(`#writes [data-customer="cus_long_paths"] tr:nth-child(2)`, { timeout: 10_000 });
      const rows = await tab.$$eval('#writes table.history tr, #states table.history tr', (trs) => {
        const lines = (node: Element) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        };
        return trs.map((tr) => {
          const when = tr.querySelector('.when') as HTMLElement;
          const status = tr.querySelector('.status') as HTMLElement;
          const request = (tr.querySelector('.request') ?? tr.querySelector('.target')) as HTMLElement;
          return {
            text: request.textContent,
            whenLines: lines(when),
            statusLines: lines(status),
            sameTop: Math.abs(when.getBoundingClientRect().top - status.getBoundingClientRect().top) < 1,
            whole: request.scrollWidth <= request.clientWidth && request.scrollHeight <= request.clientHeight,
          };
        });
      });
      expect(rows.map((row) => row.text)).toContain(`DELETE ${long}`);
      for (const row of rows) expect(row, row.text ?? '').toMatchObject({ whenLines: 1, statusLines: 1, sameTop: true, whole: true });
      // The requests list shows the same path whole (wrapped, not cut).
      const listed = await tab.$eval(`${rowFor(long)} .target`, (target) => ({ whole: target.scrollHeight <= target.clientHeight && target.scrollWidth <= target.clientWidth, text: target.textContent }));
      expect(listed).toEqual({ whole: true, text: long });
    } finally {
      await tab.close();
    }
  });
});

/** A request as the overlay (`serve --backend`) or the validating proxy records it, made by hand. */
const passedThrough = (url: string, more: Partial<RecordedRequest> = {}): RecordedRequest => ({
  arrivedMs: Date.now(),
  method: 'GET',
  url,
  status: 200,
  durationMs: 14.6,
  requestHeaders: ['Host', 'shop.example', 'x-publishable-api-key', 'pk_test'],
  responseHeaders: ['Content-Type', 'application/json; charset=utf-8'],
  answeredBy: 'backend',
  backend: { ms: 12.3 },
  ...more,
});

describe('the dashboard of a mock in front of a backend (issue 28): who answered, and what the check found', () => {
  let fronted: MockServer;
  beforeAll(async () => {
    fronted = await startMockServer({ seed: 1, reviews: 30, products: 3, wishlists: 2, maxItems: 3, dialect: 'alphabite' });
  }, 60_000);
  afterAll(() => fronted?.close());

  /** The badges of each listed request, by URL. */
  const rowBadges = (tab: Page) =>
    tab.$$eval('#requests button[data-url]', (buttons) => buttons.map((button) => [button.getAttribute('data-url'), [...button.querySelectorAll('.badge')].map((badge) => badge.textContent)] as [string, string[]]));

  it('marks each row as the mock\'s or the backend\'s (with its time, or its error), checked or not, and lists a violation\'s rule, expected and actual', async () => {
    const { tab, errors } = await open(fronted.url);
    try {
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      expect((await exactRequest(fronted.url, '/store/products/reviews?limit=5', { 'x-publishable-api-key': 'pk_test' })).status).toBe(200);
      const { journal } = fronted.ops;
      journal.record(passedThrough('/store/products?limit=4', { backend: { ms: 12.3 } }));
      journal.record(passedThrough('/store/carts/cart_1', { status: 502, backend: { ms: 0.8, error: 'connect ECONNREFUSED 127.0.0.1:9' } }));
      journal.record(passedThrough('/store/reviews?limit=10', { backend: { ms: 31.4 }, check: { violations: [] } }));
      const markup = '<img src=x onerror="window.__pwned=5">';
      journal.record(
        passedThrough('/store/wishlists?limit=2&offset=2', {
          backend: { ms: 9.7 },
          check: {
            violations: [
              { rule: 'clamped-page-numbers', message: 'nextPage as the plugins compute it (lib/paging.ts clampedPageNumbers)', field: 'nextPage', expected: 3, actual: 4, note: 'count 9, skip 2, take 2' },
              { rule: 'data-envelope', message: "the plugins' envelope always has 'prevPage', a number", field: 'prevPage', expected: 'a number', actual: undefined },
              { rule: 'record-shape', message: `record wl_1: ${markup}`, field: 'data[0].name', expected: 'a string', actual: markup },
            ],
          },
        }),
      );
      await tab.waitForSelector(rowFor('/store/wishlists?limit=2&offset=2'), { timeout: 10_000 });

      const badges = new Map(await rowBadges(tab));
      expect(badges.get('/store/products/reviews?limit=5')).toEqual(['mock']);
      expect(badges.get('/store/products?limit=4')).toEqual(['backend 12.3 ms']);
      expect(badges.get('/store/carts/cart_1')).toEqual(['backend failed: connect ECONNREFUSED 127.0.0.1:9']);
      expect(badges.get('/store/reviews?limit=10')).toEqual(['backend 31.4 ms', '\u2713 checked']);
      expect(badges.get('/store/wishlists?limit=2&offset=2')).toEqual(['backend 9.7 ms', '\u2717 3 violations']);
      expect(await tab.getAttribute(rowFor('/store/carts/cart_1'), 'aria-label')).toContain('the backend failed after 0.8 ms: connect ECONNREFUSED 127.0.0.1:9');

      await tab.click(rowFor('/store/wishlists?limit=2&offset=2'));
      const facts = await tab.$$eval('#detail dl.detail-facts dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
      expect(facts).toMatchObject({ 'answered by': 'the backend, in 9.7 ms', check: 'checked: 3 rules broken' });
      const violations = await tab.$$eval('#detail aside.violations .violation', (items) =>
        items.map((item) => ({ rule: item.querySelector('.rule')?.textContent, ...Object.fromEntries([...item.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])) })),
      );
      expect(violations).toEqual([
        { rule: 'clamped-page-numbers', field: 'nextPage', expected: '3', actual: '4', note: 'count 9, skip 2, take 2' },
        { rule: 'data-envelope', field: 'prevPage', expected: '"a number"', actual: '(absent)' },
        { rule: 'record-shape', field: 'data[0].name', expected: '"a string"', actual: JSON.stringify(markup) },
      ]);
      expect(await tab.textContent('#detail aside.violations h3')).toBe('3 rules broken');
      // Markup in a violation is text: nothing ran, no element was made of it.
      expect(await tab.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await tab.$$('#detail img, #requests img')).toEqual([]);
      // A backend's answer has no page arithmetic of the mock's: no box for it.
      expect(await tab.$$('#detail aside.page')).toEqual([]);
      // At 1280 px the box is whole, right under the request's facts (above its headers and bodies).
      const layout = await tab.evaluate(() => {
        const box = document.querySelector('#detail aside.violations') as HTMLElement;
        const facts = document.querySelector('#detail dl.detail-facts') as HTMLElement;
        const headers = [...document.querySelectorAll('#detail h3')].find((h3) => h3.textContent === 'Query') as HTMLElement;
        return { within: box.scrollWidth <= box.clientWidth, belowFacts: box.getBoundingClientRect().top >= facts.getBoundingClientRect().bottom, aboveQuery: box.getBoundingClientRect().bottom <= headers.getBoundingClientRect().top };
      });
      expect(layout).toEqual({ within: true, belowFacts: true, aboveQuery: true });

      await tab.click(rowFor('/store/carts/cart_1'));
      expect(await tab.textContent('#detail dd.origin-fact')).toBe('the backend, which failed after 0.8 ms: connect ECONNREFUSED 127.0.0.1:9');
      await tab.click(rowFor('/store/products/reviews?limit=5'));
      expect(await tab.textContent('#detail dd.origin-fact')).toBe('the mock');
      expect(await tab.$$('#detail aside.violations')).toEqual([]);
      expect(await tab.textContent('#detail aside.page')).toContain('getPagination');
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('filters the requests: the mock\'s, the backend\'s, and those with rule violations', async () => {
    const { tab, errors } = await open(fronted.url);
    const shown = () => tab.$$eval('#requests button[data-url]', (buttons) => buttons.map((button) => button.getAttribute('data-url')));
    try {
      await tab.waitForSelector(rowFor('/store/wishlists?limit=2&offset=2'), { timeout: 15_000 });
      await tab.selectOption('#filter-by', 'backend');
      await tab.waitForFunction(() => document.querySelectorAll('#requests button[data-url]').length === 4, undefined, { timeout: 10_000 });
      expect(await shown()).toEqual(['/store/wishlists?limit=2&offset=2', '/store/reviews?limit=10', '/store/carts/cart_1', '/store/products?limit=4']);
      await tab.selectOption('#filter-by', 'mock');
      await tab.waitForFunction(() => document.querySelectorAll('#requests button[data-url]').length === 1, undefined, { timeout: 10_000 });
      expect(await shown()).toEqual(['/store/products/reviews?limit=5']);
      await tab.selectOption('#filter-by', '');
      await tab.check('#filter-violations');
      await tab.waitForFunction(() => document.querySelectorAll('#requests button[data-url]').length === 1 && document.querySelector('#requests button')?.getAttribute('data-url')?.startsWith('/store/wishlists'), undefined, { timeout: 10_000 });
      expect(await shown()).toEqual(['/store/wishlists?limit=2&offset=2']);
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('says how many rules a very broken answer broke, and that the first ones are shown', async () => {
    const broken = '/store/products/reviews?limit=1000';
    const violations = Array.from({ length: 1000 }, (_, i) => ({ rule: 'record-shape' as const, message: `record rev_${i}: Required`, field: `data[${i}].rating`, expected: 'Required', actual: 'x'.repeat(200) }));
    fronted.ops.journal.record(passedThrough(broken, { check: { violations } }));
    const { tab, errors } = await open(fronted.url);
    try {
      await tab.waitForSelector(rowFor(broken), { timeout: 15_000 });
      expect(await tab.textContent(`${rowFor(broken)} .badge.checked`)).toBe('\u2717 1000 violations');
      await tab.click(rowFor(broken));
      expect(await tab.textContent('#detail aside.violations h3')).toBe('1000 rules broken');
      const shown = (await tab.$$('#detail aside.violations .violation')).length;
      expect(shown).toBeGreaterThan(10);
      expect(shown).toBeLessThan(1000);
      expect(await tab.textContent('#detail aside.violations .kept')).toBe(`The first ${shown} shown: the journal keeps them within its body cap (--journal-body-bytes).`);
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

/**
 * A small storefront backend (node:http on port 0) with a few of Medusa's store routes: login, the
 * customer, regions, products, carts; `/store/carts/cart_gone` cuts the connection (the overlay's 502).
 */
async function startStorefrontBackend(customerId: string): Promise<{ url: string; close(): Promise<void> }> {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'x-powered-by': 'tiny-medusa' });
    res.end(text);
  };
  const products = Array.from({ length: 4 }, (_, i) => ({ id: `prod_01JTEE${i}`, title: ['Linen shirt', 'Wool scarf', 'Canvas tote', 'Rain jacket'][i], handle: ['linen-shirt', 'wool-scarf', 'canvas-tote', 'rain-jacket'][i], thumbnail: `https://cdn.example/${i}.jpg`, variants: ['S', 'M'].map((size) => ({ id: `variant_01JTEE${i}${size}`, title: size, sku: null })) }));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'POST' && path === '/auth/customer/emailpass') return json(res, 200, { token: customerJwt(customerId) });
      if (req.method === 'GET' && path === '/store/customers/me') return json(res, 200, { customer: { id: customerId, email: 'ada@example.com', first_name: 'Ada' } });
      if (req.method === 'GET' && path === '/store/regions') return json(res, 200, { regions: [{ id: 'reg_01JEU', name: 'Europe', currency_code: 'eur' }], count: 1, offset: 0, limit: 50 });
      if (req.method === 'GET' && path === '/store/products') {
        // Medusa's page of products; the mock's catalogue read asks from offset 0 with a limit of 200.
        const query = new URL(req.url ?? '/', 'http://backend').searchParams;
        const offset = Number(query.get('offset') ?? 0);
        const limit = Number(query.get('limit') ?? 50);
        return json(res, 200, { products: products.slice(offset, offset + limit), count: products.length, offset, limit });
      }
      if (req.method === 'POST' && path === '/store/carts') return json(res, 200, { cart: { id: 'cart_01JCART', region_id: 'reg_01JEU', items: [] } });
      if (req.method === 'GET' && path === '/store/wishlists') return json(res, 200, { data: [], count: 0, take: 5, skip: 0, totalPages: 1, currentPage: 1, nextPage: 1 });
      if (path === '/store/carts/cart_gone') return req.socket.destroy();
      return json(res, 404, { type: 'not_found', message: `Cannot ${req.method} ${path}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the dashboard of serve --backend (issue 28): a storefront through the mock, in front of its backend', () => {
  it("lists the backend's answers with their time and the mock's beside them; the screenshot", async () => {
    const customer = 'cus_01JSHOPPERADA';
    const backend = await startStorefrontBackend(customer);
    // The products are the backend's: the mock reads its catalogue with the first request's publishable key.
    const mock = await startMockServer({ seed: 1, reviews: 60, wishlists: 3, maxItems: 3, dialect: 'alphabite', allowMultipleWishlists: true, backend: backend.url });
    const { tab, errors } = await open(mock.url);
    try {
      await tab.waitForFunction((url) => document.querySelector('#server-facts')?.textContent?.includes(`backend ${url}`), backend.url, { timeout: 15_000 });
      await tab.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('live'), undefined, { timeout: 15_000 });
      const key = { 'x-publishable-api-key': 'pk_storefront' };
      const json = { ...key, 'content-type': 'application/json' };
      // A storefront's first steps: log in (the backend's), then browse, with the token the backend gave.
      const login = await exactRequest(mock.url, '/auth/customer/emailpass', json, 'POST', JSON.stringify({ email: 'ada@example.com', password: 'secret-password' }));
      expect(login.status).toBe(200);
      const signedIn = { ...json, authorization: `Bearer ${JSON.parse(login.text).token as string}` };
      for (const path of ['/store/customers/me', '/store/regions', '/store/products?limit=4']) expect((await exactRequest(mock.url, path, signedIn)).status, path).toBe(200);
      // A product of the backend's catalogue (the first in id order has reviews), read by this first keyed request.
      const product = 'prod_01JTEE0';
      const listing = `/store/reviews/product/${product}?limit=3&offset=3`;
      expect((await exactRequest(mock.url, listing, key)).status).toBe(200);
      const created = await exactRequest(mock.url, '/store/wishlists', signedIn, 'POST', JSON.stringify({ name: 'Autumn', sales_channel_id: 'sc_01JWEB' }));
      expect(created.status, created.text).toBe(201);
      const variant = 'variant_01JTEE1M'; // a variant of the backend's catalogue
      const added = await exactRequest(mock.url, `/store/wishlists/${JSON.parse(created.text).id as string}/add-item`, signedIn, 'POST', JSON.stringify({ product_variant_id: variant }));
      expect(added.status, added.text).toBeLessThan(300);
      expect((await exactRequest(mock.url, '/store/wishlists?limit=2', signedIn)).status).toBe(200);
      expect((await exactRequest(mock.url, '/store/carts', signedIn, 'POST', JSON.stringify({ region_id: 'reg_01JEU' }))).status).toBe(200);
      expect((await exactRequest(mock.url, '/store/carts/cart_gone', signedIn)).status).toBe(502);
      await tab.waitForSelector(rowFor('/store/carts/cart_gone'), { timeout: 10_000 });

      const origins = new Map(await tab.$$eval('#requests button[data-url]', (buttons) => buttons.map((button) => [button.getAttribute('data-url'), button.querySelector('.badge.origin')?.textContent ?? ''] as [string, string])));
      for (const path of ['/auth/customer/emailpass', '/store/customers/me', '/store/regions', '/store/products?limit=4', '/store/carts']) expect(origins.get(path), path).toMatch(/^backend \d+(\.\d)? ms$/);
      for (const path of [listing, '/store/wishlists', '/store/wishlists?limit=2']) expect(origins.get(path), path).toBe('mock');
      expect(origins.get('/store/carts/cart_gone')).toMatch(/^backend failed: /);
      // The customer is the backend's: the mock's wishlist is written for its actor_id.
      await tab.waitForSelector(`#writes [data-customer="${customer}"]`, { timeout: 10_000 });

      await tab.click(rowFor('/store/products?limit=4'));
      expect(await tab.textContent('#detail dd.origin-fact')).toMatch(/^the backend, in \d+(\.\d)? ms$/);
      expect(await tab.textContent('#detail')).toContain('Linen shirt');
      await tab.click(rowFor(listing));
      expect(await tab.textContent('#detail dd.origin-fact')).toBe('the mock');
      expect(await tab.textContent('#detail aside.page')).toContain('clampedPageNumbers');
      mkdirSync(fileURLToPath(new URL('.', `file://${SCREENSHOT}`)), { recursive: true });
      // The dataset panel (refreshed every 5 s) shows the data over the backend's catalogue, read by the first keyed request.
      await tab.waitForFunction((url) => document.querySelector('#dataset-facts')?.textContent?.includes(`4 products, 8 variants from ${url}`), backend.url, { timeout: 15_000 });
      // ...and whose data it is: this backend has no plugin routes (404), so generated over its catalogue (issue 36).
      const facts = await tab.$$eval('#dataset-facts dt', (terms) => terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ''] as [string | null, string]));
      expect(facts.find(([term]) => term === 'customers\u2019 data')?.[1]).toMatch(/^generated \(the backend has no plugin routes\): each customer sees their own wishlists/);
      await tab.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
      await mock.close();
      await backend.close();
    }
  });
});

describe('the dashboard of the validating proxy (issue 28): a checked answer of the backend with its violation', () => {
  it("names the proxy's backend, marks the checked answers, and shows the verdict the answer hook gave", async () => {
    const backend = await startStorefrontBackend('cus_01JPROXY');
    // A checker made for the test (the proxy's own is backend/check.ts): GET /store/wishlists lacks its prevPage.
    const onBackendAnswer: BackendAnswerHook = (exchange) =>
      exchange.method === 'GET' && exchange.url.startsWith('/store/wishlists')
        ? { write: () => undefined, end: async () => ({ violations: [{ rule: 'data-envelope', message: "the plugins' envelope always has 'prevPage', a number", field: 'prevPage', expected: 'a number', actual: undefined }] }), abort: () => undefined }
        : undefined;
    const proxy = await startMockServer({ mode: 'proxy', dialect: 'alphabite', backend: backend.url, onBackendAnswer });
    const { tab, errors } = await open(proxy.url);
    try {
      await tab.waitForFunction((url) => document.querySelector('#server-facts')?.textContent?.includes(`validating proxy of ${url}`), backend.url, { timeout: 15_000 });
      expect((await exactRequest(proxy.url, '/store/regions')).status).toBe(200);
      expect((await exactRequest(proxy.url, '/store/wishlists?limit=5')).status).toBe(200);
      await tab.waitForSelector(rowFor('/store/wishlists?limit=5'), { timeout: 10_000 });
      expect(await tab.$$eval(`${rowFor('/store/wishlists?limit=5')} .badge`, (b) => b.map((badge) => badge.textContent))).toEqual([expect.stringMatching(/^backend \d+(\.\d)? ms$/), '\u2717 1 violation']);
      await tab.click(rowFor('/store/wishlists?limit=5'));
      const violation = await tab.$$eval('#detail aside.violations dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
      expect(violation).toEqual({ field: 'prevPage', expected: '"a number"', actual: '(absent)' });
      expect(await tab.textContent('#detail aside.violations .rule')).toBe('data-envelope');
      expect(errors).toEqual([]);
    } finally {
      await tab.close();
      await proxy.close();
      await backend.close();
    }
  });
});

describe('the dashboard of the validating proxy (issue 35): faults act on what passes through, dataset controls are not shown', () => {
  it('shows faults, not reseed, reset or provider states; faults set from the page fail passed-through requests unforwarded, readable by a page of another origin', async () => {
    const backend = await startFakeBackend();
    const proxy = await startMockServer({ mode: 'proxy', dialect: 'alphabite', backend: backend.url });
    // A storefront's page, on an origin of its own (another port), that reads through the proxy with credentials.
    const storefront = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>storefront</title>');
    });
    await new Promise<void>((resolve) => storefront.listen(0, '127.0.0.1', resolve));
    const { tab, errors } = await open(proxy.url);
    const page = await browser.newPage();
    try {
      await tab.waitForFunction((url) => document.querySelector('#server-facts')?.textContent?.includes(`validating proxy of ${url}`), backend.url, { timeout: 15_000 });
      expect(await tab.textContent('#title')).toBe('store-listing-kit validating proxy');
      for (const shown of ['#faults-form', '#faults-apply', '#faults-off', '#requests-title', '#writes']) expect(await tab.isVisible(shown), shown).toBe(true);
      for (const hidden of ['#dataset-section', '#reseed-form', '#reseed', '#reset', '#dataset-facts', '#states-part', '#state-hold']) expect(await tab.isVisible(hidden), hidden).toBe(false);
      expect(await tab.textContent('#faults-scope')).toContain('every request passed to the backend');

      await tab.waitForFunction(() => document.querySelector('#faults-facts')?.textContent === 'off', undefined, { timeout: 15_000 });
      await tab.fill('#fault-rate', '1');
      await tab.fill('#fault-status', '503');
      await tab.click('#faults-apply');
      await tab.waitForFunction(() => document.querySelector('#faults-facts')?.textContent?.startsWith('on'), undefined, { timeout: 10_000 });
      const hits = backend.hits.length;
      expect((await exactRequest(proxy.url, '/store/regions')).status).toBe(503);
      expect((await exactRequest(proxy.url, '/store/carts', { 'content-type': 'application/json' }, 'POST', '{}')).status).toBe(503);
      await page.goto(`http://127.0.0.1:${(storefront.address() as AddressInfo).port}/`);
      const read = await page.evaluate(async (url) => {
        const res = await fetch(`${url}/store/products?limit=2`, { credentials: 'include' });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
      }, proxy.url);
      expect(read).toEqual({ status: 503, retryAfter: '1', body: { type: 'unknown_error', message: 'An unknown error occurred.' } });
      expect(backend.hits.length).toBe(hits);
      // The journal shows them as the mock's answers (the backend never saw them).
      await tab.waitForSelector(rowFor('/store/carts'), { timeout: 10_000 });
      expect(await tab.textContent(`${rowFor('/store/carts')} .badge.origin`)).toBe('mock');
      expect(await tab.textContent(`${rowFor('/store/carts')} .status`)).toBe('503');

      // An injected answer in the detail: the mock's, with no page arithmetic (the proxy serves no listing).
      await tab.click(rowFor('/store/carts'));
      expect(await tab.textContent('#detail dd.origin-fact')).toBe('the mock');
      expect(await tab.$('#detail aside.page')).toBeNull();
      await tab.click('#faults-off');
      await tab.waitForFunction(() => document.querySelector('#faults-facts')?.textContent === 'off', undefined, { timeout: 10_000 });
      expect((await exactRequest(proxy.url, '/store/regions?after=off')).status).toBe(200);
      expect(backend.hits.slice(hits)).toEqual([{ method: 'GET', url: '/store/regions?after=off' }]);
      await tab.waitForSelector(rowFor('/store/regions?after=off'), { timeout: 10_000 });
      expect(await tab.textContent(`${rowFor('/store/regions?after=off')} .badge.origin`)).toMatch(/^backend \d+(\.\d)? ms$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await tab.close();
      await proxy.close();
      await backend.close();
      await new Promise<void>((resolve) => storefront.close(() => resolve()));
    }
  });
});
