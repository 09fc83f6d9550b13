import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
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
