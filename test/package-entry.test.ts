/**
 * The package's entry points as users load them: every `exports` entry, compiled into dist/
 * (the global set-up builds it), run in plain Node with no TypeScript loader, exports the names
 * of its TypeScript source; CommonJS can require() each of them; and each loads only what its
 * part needs (the packages it resolves are logged by a module hook in the child process).
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  dependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const entries = Object.entries(pkg.exports).filter((e): e is [string, { types: string; default: string }] => typeof e[1] === 'object');
/** `./dist/lib/protocol.js` -> `../lib/protocol.ts`, the source vitest runs. */
const sourceOf = (built: string) => `../${built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')}`;
const specifier = (subpath: string) => (subpath === '.' ? 'store-listing-kit' : `store-listing-kit/${subpath.slice(2)}`);

/**
 * Node, with a module hook that writes every package the process resolves (by name, from
 * node_modules) to stderr; `script` runs as an ES module in the repository, where
 * the package resolves itself by name, as it does for its users.
 */
async function packagesLoadedBy(script: string): Promise<{ packages: string[]; output: string }> {
  // The hooks run on a thread of their own: process.stderr there is relayed through the main
  // thread, and a script that ends at once could exit before the relay (lost lines, seen on
  // Node 24). writeSync to fd 2 is written before resolve returns.
  const hooks = `
    import { writeSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      const match = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url);
      if (match) writeSync(2, '@@loaded ' + match[1] + '\\n');
      return result;
    }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const { stdout, stderr } = await run(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], { cwd: root });
  const packages = [...new Set(stderr.split('\n').filter((l) => l.startsWith('@@loaded ')).map((l) => l.slice(9)))].sort();
  return { packages, output: stdout };
}

describe('every exports entry, built, in plain Node', () => {
  it.each(entries)('%s: exports the names of its TypeScript source, and CommonJS can require() it', async (subpath, target) => {
    const source = (await import(sourceOf(target.default))) as Record<string, unknown>;
    const names = Object.keys(source).filter((name) => source[name] !== undefined).sort();
    const esm = await run(process.execPath, ['--input-type=module', '-e', `console.log(JSON.stringify(Object.keys(await import('${specifier(subpath)}')).sort()))`], { cwd: root });
    expect(JSON.parse(esm.stdout)).toEqual(names);
    // No top-level await anywhere in its module graph, or require() throws ERR_REQUIRE_ASYNC_MODULE.
    const cjs = await run(process.execPath, ['--input-type=commonjs', '-e', `console.log(JSON.stringify(Object.keys(require('${specifier(subpath)}')).sort()))`], { cwd: root });
    expect(JSON.parse(cjs.stdout)).toEqual(names.filter((n) => n !== 'default'));
  });

  it('the root entry starts a mock server that answers', async () => {
    const script = `
      const { startMockServer, wishlistPageMeta } = await import('store-listing-kit');
      if (typeof (await import('store-listing-kit/mock-server')).createApp !== 'function') throw new Error('no createApp');
      const mock = await startMockServer({ seed: 1 });
      const body = await (await fetch(mock.url + '/store/wishlists?take=2')).json();
      await mock.close();
      console.log(JSON.stringify({ count: body.count, meta: wishlistPageMeta(45, 0, 2) }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ count: 45, meta: { count: 45, skip: 0, take: 2, totalPages: 23, currentPage: 1, nextPage: 2 } });
  });
});

describe('each part loads only what it needs', () => {
  it('the page arithmetic loads no package at all', async () => {
    const { packages } = await packagesLoadedBy(`await import('store-listing-kit/protocol');`);
    expect(packages).toEqual([]);
  });

  it('the root entry loads neither Express, fast-check, Pact nor vitest; each loads with the function that needs it', async () => {
    const { packages } = await packagesLoadedBy(`await import('store-listing-kit');`);
    expect(packages).toContain('zod');
    for (const heavy of ['express', 'fast-check', '@pact-foundation/pact', 'vitest']) expect(packages).not.toContain(heavy);
    const called = await packagesLoadedBy(`
      const kit = await import('store-listing-kit');
      const mock = await kit.startMockServer({ seed: 1 });
      await kit.runListingProperties({ baseUrl: mock.url, runs: 1, properties: ['envelope-shape'], endpoints: ['wishlists'] });
      await kit.verifyProviders({ providerBaseUrl: 'http://127.0.0.1:9', pactDir: '/nonexistent' }).catch(() => {});
      await mock.close();`);
    for (const heavy of ['express', 'fast-check', '@pact-foundation/pact']) expect(called.packages).toContain(heavy);
  });

  it("serve, and every other command's --help, never load Pact; serve loads no HTTP client (undici is check's, verify's and fixtures --from's)", async () => {
    const bin = join(root, 'bin', 'store-listing-kit.js');
    const serve = await packagesLoadedBy(`process.argv = [process.argv[0], ${JSON.stringify(bin)}, 'serve', '--help']; await import(${JSON.stringify(bin)});`);
    expect(serve.output).toContain('Usage: store-listing-kit serve');
    expect(serve.packages).toContain('express');
    expect(serve.packages).not.toContain('@pact-foundation/pact');
    expect(serve.packages).not.toContain('undici');
    // The proxy library loads with a backend only (serve --backend, proxy).
    expect(serve.packages).not.toContain('http-proxy-middleware');
    for (const command of ['verify', 'check', 'fixtures', 'proxy']) {
      const help = await packagesLoadedBy(`process.argv = [process.argv[0], ${JSON.stringify(bin)}, '${command}', '--help']; await import(${JSON.stringify(bin)});`);
      expect(help.output).toContain(`Usage: store-listing-kit ${command}`);
      expect(help.packages, command).not.toContain('@pact-foundation/pact');
      // The proxy library loads when a proxy starts, not with a command's module.
      expect(help.packages, command).not.toContain('http-proxy-middleware');
    }
  });

  it('a mock server starts and answers without zod; zod loads with the first admin body, provider state or OpenAPI document', async () => {
    const server = JSON.stringify(join(root, 'dist', 'mock-server', 'server.js'));
    const listing = await packagesLoadedBy(`
      const { startMockServer } = await import(${server});
      const mock = await startMockServer({ port: 0 });
      const res = await fetch(mock.url + '/store/products/reviews?limit=2');
      await mock.close();
      console.log(res.status);`);
    expect(listing.output.trim()).toBe('200');
    expect(listing.packages).toContain('express');
    expect(listing.packages).not.toContain('zod');
    expect(listing.packages).not.toContain('http-proxy-middleware');
    const checked = await packagesLoadedBy(`
      const { startMockServer } = await import(${server});
      const mock = await startMockServer({ port: 0 });
      const put = (path, body) => fetch(mock.url + path, { method: path.endsWith('faults') ? 'PUT' : 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const faults = await put('/__admin/faults', { errorRate: 2 });
      const dataset = await put('/__admin/dataset', { reviews: -1 });
      const state = await put('/__admin/provider-states', { state: 'reviews exist', params: { count: 3 } });
      const openapi = await fetch(mock.url + '/openapi.json');
      console.log(JSON.stringify([faults.status, (await faults.json()).type, dataset.status, state.status, openapi.status]));
      await mock.close();`);
    expect(JSON.parse(checked.output.trim())).toEqual([400, 'invalid_data', 400, 200, 200]);
    // (issue 30) Recording a consumer's pacts writes them without Pact: its native core stays out of serve.
    const pactDir = JSON.stringify(join(tmpdir(), `slk-entry-pacts-${process.pid}`));
    const recorded = await packagesLoadedBy(`
      const { startMockServer } = await import(${server});
      const mock = await startMockServer({ port: 0, pactConsumer: 'entry-shop', pactDir: ${pactDir} });
      await fetch(mock.url + '/__admin/provider-states', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'reviews exist', params: { count: 3 } }) });
      const res = await fetch(mock.url + '/store/products/reviews?limit=2');
      await mock.close();
      console.log(JSON.stringify([res.status, mock.pacts.lastWritten.length]));`);
    rmSync(JSON.parse(pactDir), { recursive: true, force: true });
    expect(JSON.parse(recorded.output.trim())).toEqual([200, 1]);
    expect(recorded.packages).not.toContain('@pact-foundation/pact');
    expect(checked.packages).toContain('zod');
  });

  it('a mock in front of a backend (alphabite) loads the HTTP client (undici) and zod only to read its catalogue', async () => {
    const server = JSON.stringify(join(root, 'dist', 'mock-server', 'server.js'));
    const start = `const { startMockServer } = await import(${server}); const mock = await startMockServer({ port: 0, dialect: 'alphabite', backend: 'http://127.0.0.1:9' });`;
    const waiting = await packagesLoadedBy(`${start}
      const res = await fetch(mock.url + '/store/products/reviews');
      await mock.close();
      console.log(res.status);`);
    expect(waiting.output.trim()).toBe('400');
    for (const heavy of ['undici', 'zod']) expect(waiting.packages).not.toContain(heavy);
    const read = await packagesLoadedBy(`${start}
      const res = await fetch(mock.url + '/store/products/reviews', { headers: { 'x-publishable-api-key': 'pk_test' } });
      await mock.close();
      console.log(res.status);`);
    expect(read.output.trim()).toBe('502');
    expect(read.packages).toContain('undici');
  });

  it('the Medusa route loads zod and nothing else: no @medusajs package, no Express, no Pact', async () => {
    const { packages, output } = await packagesLoadedBy(`const m = await import('store-listing-kit/medusa'); console.log(typeof m.POST);`);
    expect(output.trim()).toBe('function');
    expect(packages).toEqual(['zod']);
  });

  it('the contracts entry loads Pact; the vitest helper loads vitest, an optional peer dependency', async () => {
    expect((await packagesLoadedBy(`await import('store-listing-kit/contracts');`)).packages).toContain('@pact-foundation/pact');
    expect(pkg.peerDependenciesMeta?.vitest?.optional).toBe(true);
    expect(pkg.dependencies).not.toHaveProperty('vitest');
    expect(pkg.dependencies).not.toHaveProperty('tsx');
  });
});
