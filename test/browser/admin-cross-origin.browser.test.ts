/**
 * `npm run test:browser`, issue 19: a web page the developer opens in a browser on the same
 * machine (a loopback client, then) cannot steer the mock through its admin API. Headless
 * Chromium (Debian's `chromium`) opens a page (test/browser/attack-page.ts) that tries every way a
 * page can send a request to /__admin; afterwards, from Node: faults still off, the same dataset,
 * the journal not cleared, listings 200. The server's log shows the attempts that reached it
 * and how it refused them. Three pages: one of an origin the mock does not name, one it names
 * (--cors-origin: it reads the listings, and nothing more), and one through DNS rebinding.
 */
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/server.ts';
import { serveAttackPage, serveRebindingPage, type AttackPage, type Outcome } from './attack-page.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As in storefront.browser.test.ts, and the page names resolve to this machine (no DNS needed).
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP evil.test 127.0.0.1, MAP shop.test 127.0.0.1, MAP rebind.test 127.0.0.1',
];

interface LogLine {
  method: string;
  url: string;
  status: number;
}

let browser: Browser;
let evil: AttackPage;
let shop: AttackPage;
let rebind: AttackPage;
/** The mock the pages attack: each test starts its own, so that a late request of one page cannot count for another. */
let mock: MockServer | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  evil = await serveAttackPage('evil.test', () => mock!.url);
  shop = await serveAttackPage('shop.test', () => mock!.url);
  rebind = await serveRebindingPage('rebind.test', () => mock!.port);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([mock?.close(), evil?.close(), shop?.close(), rebind?.close()]);
});

/** A mock that names the shop page's origin (--cors-origin) and logs every request it answers into `log`. */
async function startLoggedMock(log: LogLine[]): Promise<MockServer> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as Partial<LogLine> & { msg?: string };
        if (entry.msg === 'request') log.push({ method: entry.method!, url: entry.url!, status: entry.status! });
      }
      done();
    },
  });
  return startMockServer({ seed: 1, reviews: 60, products: 4, wishlists: 6, maxItems: 5, corsOrigin: [shop.origin], logger: pino({ level: 'info' }, sink) });
}

const admin = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${mock!.url}/__admin${path}`, init);
  return (await res.json()) as any;
};

/** What a page could have changed: faults, the dataset (seed and version), the journal. */
async function mockState() {
  const config = await admin('/config');
  const journal = await admin('/journal');
  return { faultsActive: config.faults.active, errorRate: config.faults.errorRate, seed: config.dataset.current.seed, version: config.dataset.version, journalRecorded: journal.recorded };
}

/**
 * Starts a mock and gives it a state every attack would change (another seed than it started
 * with, so a reset shows; a journal entry, so clearing shows), opens `page`, and answers what
 * the page saw and the page's admin requests that reached the mock, once the state is shown
 * unchanged and the listings still answer.
 */
async function attack(page: AttackPage): Promise<{ outcomes: Map<string, Outcome>; reached: LogLine[] }> {
  await mock?.close();
  const log: LogLine[] = [];
  mock = await startLoggedMock(log);
  await admin('/dataset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seed":7}' });
  expect((await fetch(`${mock.url}/store/wishlists?take=2`)).status).toBe(200);
  const before = await mockState();
  expect(before).toMatchObject({ faultsActive: false, errorRate: 0, seed: 7, journalRecorded: 1 });
  const from = log.length;

  const tab = await browser.newPage();
  let outcomes: Outcome[];
  try {
    await tab.goto(page.url);
    await tab.waitForSelector('body[data-done="true"]', { timeout: 45_000 });
    outcomes = await tab.evaluate(() => (window as unknown as { outcomes: Outcome[] }).outcomes);
  } finally {
    await tab.close();
  }

  const after = await mockState();
  // The page's own listing read may be journaled; nothing else may differ.
  expect({ ...after, journalRecorded: undefined }).toEqual({ ...before, journalRecorded: undefined });
  expect(after.journalRecorded).toBeGreaterThanOrEqual(before.journalRecorded);
  expect((await fetch(`${mock.url}/store/products/reviews?limit=5`)).status).toBe(200);
  // This test's own reads (config, journal) are GETs, left out with the page's.
  const reached = log.slice(from).filter((line) => line.url.toLowerCase().startsWith('/__admin') && line.method !== 'GET');
  return { outcomes: new Map(outcomes.map((o) => [o.name, o])), reached };
}

/** Every admin request that reached the mock was refused, and the simple ones did reach it (the server, not the browser, refused them). */
function expectRefused(reached: LogLine[], status: number) {
  const changes = reached.filter((line) => line.method !== 'OPTIONS');
  expect(changes.length).toBeGreaterThan(0);
  for (const line of changes) expect(line.status, `${line.method} ${line.url}`).toBe(status);
  const urls = new Set(changes.map((line) => `${line.method} ${line.url}`));
  for (const simple of ['POST /__admin/reset', 'POST /__admin/dataset', 'POST /__admin/provider-states']) expect(urls, simple).toContain(simple);
}

const failedToFetch = (outcome: Outcome | undefined) => expect(outcome?.error, JSON.stringify(outcome)).toMatch(/TypeError: Failed to fetch/);

describe('a page of another origin in Chromium', () => {
  it('that the mock does not name (--cors-origin) reads nothing and changes nothing', async () => {
    const { outcomes, reached } = await attack(evil);
    // Listings are for the named origins only; the admin API for no page at all.
    failedToFetch(outcomes.get('read a listing'));
    failedToFetch(outcomes.get('read config'));
    for (const name of ['PUT faults as JSON', 'PUT faults with X-Requested-By', 'POST reset, no body', 'POST dataset, JSON as text/plain', 'DELETE journal']) failedToFetch(outcomes.get(name));
    expect(outcomes.get('POST dataset, no-cors')).toEqual({ name: 'POST dataset, no-cors', opaque: true });
    expect(outcomes.get('PUT faults, no-cors')?.error).toMatch(/TypeError/);
    for (const name of ['form reset', 'form dataset', 'form provider state', 'form faults']) expect(outcomes.get(name)?.sent, name).toBe(true);
    expectRefused(reached, 415);
    // The preflights reached the mock and were refused: the browser never sent the PUT or the DELETE.
    expect(reached).toEqual(expect.arrayContaining([{ method: 'OPTIONS', url: '/__admin/faults', status: 403 }, { method: 'OPTIONS', url: '/__admin/journal', status: 403 }]));
    expect(reached.filter((line) => line.method === 'PUT' || line.method === 'DELETE')).toEqual([]);
  }, 90_000);

  it('that the mock names (--cors-origin) reads the listings, and nothing of the admin API, and changes nothing', async () => {
    const { outcomes, reached } = await attack(shop);
    const listing = outcomes.get('read a listing')!;
    expect(listing.status, JSON.stringify(listing)).toBe(200);
    expect(JSON.parse(listing.body!).data).toHaveLength(3);
    failedToFetch(outcomes.get('read config'));
    for (const name of ['PUT faults as JSON', 'POST reset, no body', 'DELETE journal']) failedToFetch(outcomes.get(name));
    expectRefused(reached, 415);
    expect(reached.filter((line) => line.method === 'PUT' || line.method === 'DELETE')).toEqual([]);
  }, 90_000);

  it('through DNS rebinding (same origin, its own Host) is refused by the Host check', async () => {
    const { outcomes, reached } = await attack(rebind);
    // Same origin: the page reads what it is answered; the listings answer, the admin API says no.
    expect(outcomes.get('read a listing')?.status).toBe(200);
    for (const name of ['read config', 'PUT faults as JSON', 'PUT faults with X-Requested-By', 'POST reset, no body', 'DELETE journal']) {
      const outcome = outcomes.get(name)!;
      expect(outcome.status, name).toBe(403);
      expect(JSON.parse(outcome.body!), name).toMatchObject({ type: 'not_allowed', message: expect.stringMatching(/Host header .* got 'rebind\.test:\d+'/) });
    }
    expectRefused(reached, 403);
    expect(reached).toEqual(expect.arrayContaining([{ method: 'PUT', url: '/__admin/faults', status: 403 }, { method: 'DELETE', url: '/__admin/journal', status: 403 }]));
  }, 90_000);
});
