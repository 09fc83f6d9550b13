import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { startServe } from './support/cli-process.ts';
import { fakeProducts, startFakeCatalogueBackend } from './support/fake-medusa-catalogue.ts';
import { get } from './support/http.ts';

/**
 * The documented example answers are real: each "$ curl -s 'http://localhost:9000<path>'   # HTTP <status>"
 * followed by a json block, in docs/examples.md (every endpoint and the errors) and in the README
 * (one of them), must be what the default server (`npm start`) answers.
 * (`UPDATE_README=1 npx vitest run test/readme-examples.test.ts` rewrites them.)
 */
const EXAMPLES = join(import.meta.dirname, '..', 'docs', 'examples.md');
const README = join(import.meta.dirname, '..', 'README.md');
const EXAMPLE = /\$ curl -s 'http:\/\/localhost:9000([^']+)'\s+# HTTP (\d+)\n```\n```json\n([\s\S]*?)\n```/g;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

describe.each([
  { file: EXAMPLES, every: true },
  { file: README, every: false },
])('the examples of $file', ({ file, every }) => {
  const text = readFileSync(file, 'utf8');
  const examples = [...text.matchAll(EXAMPLE)];

  it.runIf(every)('has the examples of every endpoint and an error', () => {
    const paths = examples.map((m) => m[1]!);
    expect(paths.some((p) => p.startsWith('/store/products/reviews'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/store/reviews/product/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/store/wishlists?'))).toBe(true);
    expect(paths.some((p) => /^\/store\/wishlists\/[^/]+\/items/.test(p))).toBe(true);
    expect(examples.some((m) => m[2] !== '200')).toBe(true);
  });

  it('shows what the default server answers, byte for byte once pretty-printed', async () => {
    let updated = text;
    for (const [whole, path, status, body] of examples) {
      const res = await get(mock.url, path!);
      const actual = JSON.stringify(res.json, null, 2);
      if (process.env.UPDATE_README) {
        updated = updated.replace(whole, whole.replace(`# HTTP ${status}`, `# HTTP ${res.status}`).replace(body!, actual));
        continue;
      }
      expect({ path, status: res.status, body: actual }).toEqual({ path, status: Number(status), body });
    }
    expect(examples.length).toBeGreaterThan(0);
    if (process.env.UPDATE_README) (await import('node:fs')).writeFileSync(file, updated);
  });
});

/**
 * The README's overlay snippet ("One base URL: the mock in front of your Medusa") runs in Node as
 * pasted, against `serve --dialect alphabite --backend` in front of a backend that logs a customer
 * in and lists products as Medusa does: the login's token must be kept for the wishlists (in Node,
 * @medusajs/js-sdk keeps it only with `jwtTokenStorageMethod: 'memory'`).
 */
describe("the README's overlay snippet", () => {
  it('runs in Node as pasted: the login passed through, the products from the backend, the reviews and the customer\'s wishlists from the mock', async () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('### One base URL'));
    const code = /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(code).toBeDefined();
    // What it imports is what this test gives it.
    expect(code).toContain("import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';");
    const backend = await startFakeCatalogueBackend(fakeProducts(3), 'pk_readme');
    const kit = await startServe(['--dialect', 'alphabite', '--backend', backend.url, '--publishable-key', 'pk_readme'], 60_000);
    try {
      const body = code!.replace(/^import .*$/gm, '').replaceAll('http://localhost:9100', kit.url).replaceAll("'pk_...'", "'pk_readme'");
      const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
      const snippet = new AsyncFunction('AlphabiteMedusaSdk', 'reviewsPlugin', 'wishlistPlugin', 'email', 'password', `${body}\nreturn { products, reviews, wishlists };`);
      const out = (await snippet(AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin, 'ada@shop.test', 'secret')) as {
        products: Array<{ id: string }>;
        reviews: { data: unknown[] };
        wishlists: { data: unknown[]; count: number };
      };
      expect(out.products.map((p) => p.id)).toEqual(fakeProducts(3).map((p) => p.id));
      expect(Array.isArray(out.reviews.data)).toBe(true);
      expect(Array.isArray(out.wishlists.data)).toBe(true);
    } finally {
      kit.child.kill('SIGTERM');
      await kit.exited;
      await backend.close();
    }
  }, 120_000);
});
