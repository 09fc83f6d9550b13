import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import * as api from '../index.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

it('index.js, for plain Node, exports every name index.ts exports, and they work', async () => {
  const script = `
    const api = await import(${JSON.stringify(join(root, 'index.js'))});
    const mock = await api.startMockServer({ seed: 1 });
    const body = await (await fetch(mock.url + '/store/wishlists?take=2')).json();
    await mock.close();
    console.log(JSON.stringify({ names: Object.keys(api).sort(), count: body.count, meta: api.wishlistPageMeta(45, 0, 2) }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  const out = JSON.parse(stdout);
  const runtimeNames = Object.keys(api).filter((name) => (api as Record<string, unknown>)[name] !== undefined).sort();
  expect(out.names).toEqual(runtimeNames);
  expect(out.count).toBe(45);
  expect(out.meta).toEqual(api.wishlistPageMeta(45, 0, 2));
});
