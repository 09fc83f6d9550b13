/**
 * The package as users get it (`npm run test:package`, run by .ci/run; not part of `npm test`):
 * `npm pack`, the tarball installed into a scratch project with none of the kit's dev
 * dependencies, then, from that one install: the command line through npx, the root entry from
 * ES modules and CommonJS, the vitest helper in a plain vitest run, a consumer's TypeScript under
 * nodenext and bundler resolution, publint and Are the Types Wrong on the tarball.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const execFileAsync = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const KIT = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };
const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const work = mkdtempSync(join(tmpdir(), 'store-listing-kit-pack-'));
const consumer = join(work, 'consumer');
let tarball = '';
let packed: string[] = [];

/** Runs a command; resolves with its output and exit code (never rejects on a non-zero exit). */
async function sh(command: string, args: string[], cwd: string, timeout = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, CI: 'true', PACT_DO_NOT_TRACK: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  return execFileAsync(command, args, { cwd, env, timeout, maxBuffer: 32 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number | string; stdout?: string; stderr?: string; message: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? error.message,
    }),
  );
}

function write(file: string, text: string): void {
  writeFileSync(join(consumer, file), text.replace(/^\n/, ''));
}

beforeAll(async () => {
  // `npm pack` runs `prepare`: a clean build from the sources.
  const pack = await sh('npm', ['pack', '--json', '--pack-destination', work], ROOT, 180_000);
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info!.filename);
  packed = info!.files.map((f) => f.path);
  mkdirSync(consumer);
  write('package.json', JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  // One install for every check. The consumer's own tools at the kit's versions, so the npm cache has them.
  const tools = ['vitest', 'typescript', '@types/node'].map((name) => `${name}@${KIT.devDependencies[name]}`);
  const install = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball, ...tools], consumer, 300_000);
  expect(install.code, install.stderr).toBe(0);
}, 480_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds the build, the command, the docs and nothing else: no tests, bench, soak, CI, configs or test doubles', () => {
    const outside = packed.filter((path) => !/^(dist\/.+\.(js|d\.ts|json)|bin\/store-listing-kit\.js|docs\/[^/]+\.md|README\.md|LICENSE|package\.json)$/.test(path));
    expect(outside).toEqual([]);
    expect(packed.filter((path) => /(^|\/)(test|tests|examples|bench|soak|\.ci|scripts|\.scratch|notes|support)\//.test(path) || /\.test\.|\.check\.|tsconfig|vitest\.config|reference-server|misbehaving|tsbuildinfo/.test(path))).toEqual([]);
    expect(packed).toContain('dist/index.d.ts');
    expect(packed).toContain('dist/contracts/pacts/storefront-wishlist.json');
  });

  it('installs none of the kit\'s dev dependencies (tsx among them), unless a runtime dependency needs it too', () => {
    type Entry = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const tree = (JSON.parse(readFileSync(join(consumer, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, Entry> }).packages;
    const neededByOthers = new Set(
      Object.entries(tree)
        .filter(([path]) => !path.endsWith('node_modules/store-listing-kit'))
        .flatMap(([, entry]) => Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })),
    );
    const consumersOwn = ['vitest', 'typescript', '@types/node'];
    const strays = Object.keys(KIT.devDependencies).filter((name) => !consumersOwn.includes(name) && `node_modules/${name}` in tree && !neededByOthers.has(name));
    expect(strays).toEqual([]);
    expect(`node_modules/tsx` in tree).toBe(false);
  });

  it('publint finds no problem', async () => {
    const lint = await sh(BIN('publint'), ['run', '--strict', tarball], ROOT);
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout).toContain('All good');
  });

  it('Are the Types Wrong finds no problem for Node 16+ and bundlers', async () => {
    // The package is ES modules only. CommonJS loads it with require(esm) (Node 20.19+, 22.12+),
    // and TypeScript 5.8+ allows that under `module: nodenext` (the .cts consumer below); attw's
    // 'cjs-resolves-to-esm' predates both, so it is the one rule left out. node10 resolution
    // (no `exports`) is not supported.
    const attw = await sh(BIN('attw'), [tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped'], ROOT);
    expect(attw.code, attw.stdout + attw.stderr).toBe(0);
  });
});

describe('in a project that installed it', () => {
  it('`npx store-listing-kit --help` and every command\'s --help work', async () => {
    const top = await sh('npx', ['--no-install', 'store-listing-kit', '--help'], consumer);
    expect(top.code, top.stderr).toBe(0);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+) \[options\]/gm)].map((m) => m[1]!);
    expect(commands).toEqual(expect.arrayContaining(['serve', 'fixtures', 'check', 'verify']));
    for (const command of commands) {
      const help = await sh('npx', ['--no-install', 'store-listing-kit', command, '--help'], consumer);
      expect(help.code, `${command}: ${help.stderr}`).toBe(0);
      expect(help.stdout).toContain(`Usage: store-listing-kit ${command}`);
    }
  }, 120_000);

  it('`npx store-listing-kit serve` answers, and `npx store-listing-kit verify` passes against it (Pact runs)', async () => {
    const child = spawn('npx', ['--no-install', 'store-listing-kit', 'serve', '--port', '0'], { cwd: consumer, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
        child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
      });
      const response = await fetch(`${url}/store/products/reviews?limit=2`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { reviews: unknown[] }).reviews).toHaveLength(2);
      // The dashboard comes with the build (a compiled module, no file beside it), and its journal shows that request.
      const dashboard = await fetch(`${url}/__admin/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('<title>store-listing-kit mock: dashboard</title>');
      const journal = (await (await fetch(`${url}/__admin/journal`)).json()) as { entries: Array<{ url: string; response: { body: { bytes: number } } }> };
      expect(journal.entries[0]).toMatchObject({ url: '/store/products/reviews?limit=2', response: { body: { bytes: expect.any(Number) } } });
      const verify = await sh('npx', ['--no-install', 'store-listing-kit', 'verify', '--provider-base-url', url], consumer);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  }, 120_000);

  const useRoot = (load: string) => `
${load}
startMockServer({ seed: 1 }).then(async (mock) => {
  const body = await (await fetch(mock.url + '/store/wishlists?take=2')).json();
  await mock.close();
  console.log(JSON.stringify({ count: body.count, pages: wishlistPageMeta(body.count, 0, 2).totalPages }));
});
`;

  it('ES modules: `import { startMockServer } from \'store-listing-kit\'` in plain Node', async () => {
    write('esm.mjs', useRoot("import { startMockServer, wishlistPageMeta } from 'store-listing-kit';"));
    const run = await sh(process.execPath, ['esm.mjs'], consumer);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ count: 45, pages: 23 });
  });

  it('CommonJS: `require(\'store-listing-kit\')` in plain Node', async () => {
    write('cjs.cjs', useRoot("const { startMockServer, wishlistPageMeta } = require('store-listing-kit');"));
    const run = await sh(process.execPath, ['cjs.cjs'], consumer);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ count: 45, pages: 23 });
  });

  it('a vitest file using the vitest helper passes, with no vitest config', async () => {
    write('listing.test.ts', `
import { afterAll, beforeAll } from 'vitest';
import { startMockServer, type MockServer } from 'store-listing-kit';
import { describeListingProperties } from 'store-listing-kit/properties/vitest';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 3 });
});
afterAll(() => mock.close());

describeListingProperties('the kit mock', {
  baseUrl: () => mock.url,
  seed: 5,
  runs: 5,
  endpoints: ['reviews', 'wishlists'],
  properties: ['envelope-shape', 'next-and-prev-page', 'page-length'],
});
`);
    const run = await sh(join(consumer, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=json'], consumer);
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { numPassedTests: number; numFailedTests: number; numTotalTests: number };
    expect(run.code, run.stderr).toBe(0);
    expect(report).toMatchObject({ numFailedTests: 0, numPassedTests: 6, numTotalTests: 6 });
  }, 120_000);

  it('a consumer\'s TypeScript type-checks with strict flags, under nodenext (ESM and CommonJS) and bundler', async () => {
    const use = `
const mock: MockServer = await startMockServer({ seed: 1, reviews: 10 });
const meta: ReviewsPageMeta = reviewsPageMeta(10, 0, 3);
const pages: number = totalPages(45, 10);
const client = new StorefrontClient(mock.url);
const report: CheckReport = await runListingProperties({ baseUrl: mock.url, runs: 1 });
const results: ProviderResult[] = await verifyProviders({ providerBaseUrl: mock.url });
const selectors: ConsumerVersionSelector[] = DEFAULT_CONSUMER_VERSION_SELECTORS;
const review: Review | undefined = EXAMPLE_RECORDS.review;
describeListingProperties('target', { baseUrl: () => mock.url, strict: true });
export { meta, pages, client, report, results, selectors, review };
`;
    const imports = (from: (part: string) => string) => `
import { startMockServer, reviewsPageMeta, runListingProperties, StorefrontClient, type MockServer, type CheckReport } from '${from('')}';
import { totalPages, type ReviewsPageMeta } from '${from('/protocol')}';
import { EXAMPLE_RECORDS, type Review } from '${from('/schemas')}';
import { verifyProviders, DEFAULT_CONSUMER_VERSION_SELECTORS, type ProviderResult, type ConsumerVersionSelector } from '${from('/contracts')}';
import { describeListingProperties } from '${from('/properties/vitest')}';
`;
    const pkgPath = (part: string) => `store-listing-kit${part}`;
    write('consumer.mts', imports(pkgPath) + use);
    write('consumer.ts', imports(pkgPath) + use);
    // CommonJS has no top-level await: the same lines inside an async function.
    write('consumer.cts', `${imports(pkgPath)}\nexport async function main() {\n${use.replace(/^export .*$/m, 'return { meta, pages, client, report, results, selectors, review };')}}\n`);
    const strict = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true, skipLibCheck: false, types: ['node'], target: 'es2022' };
    write('tsconfig.nodenext.json', JSON.stringify({ compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' }, files: ['consumer.mts', 'consumer.cts'] }));
    write('tsconfig.bundler.json', JSON.stringify({ compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler' }, files: ['consumer.ts'] }));
    const tsc = join(consumer, 'node_modules', '.bin', 'tsc');
    const configs = ['tsconfig.nodenext.json', 'tsconfig.bundler.json'];
    const checks = await Promise.all(configs.map((config) => sh(tsc, ['-p', config], consumer)));
    checks.forEach((check, i) => expect(check.code, `${configs[i]}:\n${check.stdout}${check.stderr}`).toBe(0));
  }, 120_000);

  it('installs as a git dependency (`npm i -D git+file://<clone>`): prepare builds it there', async () => {
    // npm clones the repository's committed HEAD, installs its dev dependencies, runs `prepare`
    // (the build) and installs the packed result: the form a service uses before the kit is published.
    const service = join(work, 'service');
    mkdirSync(service);
    writeFileSync(join(service, 'package.json'), JSON.stringify({ name: 'service', version: '1.0.0', private: true }));
    const install = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', `git+file://${ROOT}`], service, 300_000);
    expect(install.code, install.stderr).toBe(0);
    const help = await sh('npx', ['--no-install', 'store-listing-kit', 'verify', '--help'], service);
    expect(help.code, help.stderr).toBe(0);
    const load = await sh(process.execPath, ['--input-type=module', '-e', "const kit = await import('store-listing-kit'); console.log(typeof kit.startMockServer)"], service);
    expect(load.stdout.trim(), load.stderr).toBe('function');
  }, 360_000);
});
