/**
 * The modules a running mock loads on first use (mock-server/helpers/lazy.ts) are loaded again after a
 * failed load: a mock started from dist/ whose files go missing for a while (dist/ deleted and
 * rebuilt) answers 500 meanwhile, and as usual once they are back.
 */
import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazily } from '../mock-server/helpers/lazy.ts';
import { startServe, type ServeProcess } from './support/cli-process.ts';
import { get } from './support/http.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('lazily', () => {
  it('loads once for every caller, forgets a failed load, and loads again on the next call', async () => {
    let calls = 0;
    let fail = true;
    const load = lazily(async () => {
      calls += 1;
      if (fail) throw new Error(`load ${calls} failed`);
      return { n: calls };
    });
    const [a, b] = await Promise.allSettled([load(), load()]);
    expect(a).toMatchObject({ status: 'rejected', reason: { message: 'load 1 failed' } });
    expect(b).toMatchObject({ status: 'rejected', reason: { message: 'load 1 failed' } });
    fail = false;
    const first = await load();
    expect(first).toEqual({ n: 2 });
    expect(await load()).toBe(first);
    expect(calls).toBe(2);
  });
});

describe('a mock started from a compiled copy, whose lazily loaded modules go missing and come back', () => {
  const copy = mkdtempSync(join(tmpdir(), 'slk-rebuilt-'));
  let serve: ServeProcess;
  beforeAll(async () => {
    // The build as the package ships it (the suite's set-up has just compiled dist/), in a folder of its own.
    cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    serve = await startServe([], 30_000, join(copy, 'bin', 'store-listing-kit.js'));
  }, 60_000);
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    rmSync(copy, { recursive: true, force: true });
  });

  const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const cases: Array<{ module: string; path: string; init?: RequestInit }> = [
    { module: 'listings/openapi.js', path: '/openapi.json' },
    // The provider-state door first, by a GET that needs only the door; then the states, which its first change loads.
    { module: 'admin/provider-states.js', path: '/__admin/provider-states' },
    { module: 'state/provider-states.js', path: '/__admin/provider-states', init: json('POST', { state: 'no reviews exist', action: 'teardown' }) },
    { module: 'admin/schemas.js', path: '/__admin/dataset', init: json('POST', { seed: 2 }) },
  ];

  it.each(cases)('$module: a 500 while it is missing, then 200 once it is back', async ({ module, path, init }) => {
    const file = join(copy, 'dist', 'mock-server', module);
    renameSync(file, `${file}.away`);
    try {
      for (let i = 0; i < 2; i++) {
        const missing = await get(serve.url, path, init);
        expect(missing.status, missing.text).toBe(500);
        expect(missing.json).toEqual({ type: 'unknown_error', message: expect.any(String) });
      }
    } finally {
      renameSync(`${file}.away`, file);
    }
    const back = await get(serve.url, path, init);
    expect(back.status, back.text).toBe(200);
    expect((await get(serve.url, path, init)).status).toBe(200);
  });
});
