/**
 * The tools a user would pick instead of this kit, installed on demand into bench/peers/
 * (ignored by git, never part of the package), with pinned versions so runs compare like for like.
 */
import { execFileSync } from 'node:child_process';
import { runChild } from './children.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PeerConfigFiles } from './peer-configs.ts';
import { REVIEWS_PATH } from './peer-configs.ts';

export const PEER_PACKAGES: Record<string, string> = {
  'json-server': '0.17.4',
  '@stoplight/prism-cli': '5.14.2',
  '@mockoon/cli': '9.9.0',
  wiremock: '3.13.2',
  '@pact-foundation/pact-cli': '18.1.2',
};

export function installedVersion(peersDir: string, name: string): string | undefined {
  const file = join(peersDir, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Install the pinned peers into `peersDir` unless they are there already (needs the npm registry once). */
export async function ensurePeersInstalled(peersDir: string, log: (line: string) => void): Promise<void> {
  const missing = Object.entries(PEER_PACKAGES).filter(([name, version]) => installedVersion(peersDir, name) !== version);
  if (missing.length === 0) return;
  mkdirSync(peersDir, { recursive: true });
  writeFileSync(
    join(peersDir, 'package.json'),
    `${JSON.stringify({ name: 'store-listing-kit-bench-peers', private: true, description: 'Installed by npm run bench; not part of the package', dependencies: PEER_PACKAGES }, null, 2)}\n`,
  );
  log(`installing peers into ${peersDir}: ${missing.map(([n, v]) => `${n}@${v}`).join(', ')} (npm install, once)`);
  const install = await runChild('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', peersDir, ...Object.entries(PEER_PACKAGES).map(([n, v]) => `${n}@${v}`)], { output: 'inherit' });
  if (install.code !== 0) throw new Error(`npm install of the peers failed (${install.error?.message ?? install.signal ?? `exit ${install.code}`})`);
}

function javaVersionLine(): string | undefined {
  try {
    // `java -version` writes to stderr
    const out = execFileSync('sh', ['-c', 'java -version 2>&1'], { encoding: 'utf8' });
    return out.split('\n')[0]?.trim();
  } catch {
    return undefined;
  }
}

export interface PeerDefinition {
  /** Short id used on the command line (`--only`). */
  id: string;
  label: string;
  /** Package whose version the results name. */
  packageName: string;
  /** Why this peer could not run here, or undefined when it can. */
  unavailable(peersDir: string): string | undefined;
  command(peersDir: string, port: number, files: PeerConfigFiles): { command: string; args: string[] };
  /** The request path (with query) that answers the equivalent page. */
  path(query: string, pageSize: number): string;
  /** A one-line note on how it is configured, for the results. */
  setup: string;
}

const bin = (peersDir: string, ...parts: string[]) => join(peersDir, 'node_modules', ...parts);

function wiremockJar(peersDir: string): string | undefined {
  const dir = bin(peersDir, 'wiremock', 'build');
  if (!existsSync(dir)) return undefined;
  const jar = readdirSync(dir).find((f) => /^wiremock-standalone-.*\.jar$/.test(f));
  return jar ? join(dir, jar) : undefined;
}

function pactBinary(peersDir: string): string | undefined {
  const path = bin(peersDir, '@pact-foundation', `pact-cli-${process.platform}-${process.arch}`, 'standalone', 'pact');
  return existsSync(path) ? path : undefined;
}

const prism = (dynamic: boolean): PeerDefinition => ({
  id: dynamic ? 'prism-dynamic' : 'prism-static',
  label: dynamic ? 'Prism (dynamic)' : 'Prism (static)',
  packageName: '@stoplight/prism-cli',
  unavailable: () => undefined,
  command: (peersDir, port, files) => ({
    command: process.execPath,
    args: [
      bin(peersDir, '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'mock',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--verboseLevel',
      'error',
      ...(dynamic ? ['--dynamic', '--seed', '42'] : []),
      dynamic ? files.openapiSchema : files.openapiExample,
    ],
  }),
  path: (query) => `${REVIEWS_PATH}?${query}`,
  setup: dynamic
    ? 'OpenAPI 3.0 document with a JSON Schema of the envelope (10 reviews), `prism mock --dynamic --seed 42 --verboseLevel error`'
    : 'OpenAPI 3.0 document whose example is the page, `prism mock --verboseLevel error`',
});

export const PEERS: PeerDefinition[] = [
  {
    id: 'json-server',
    label: 'json-server',
    packageName: 'json-server',
    unavailable: () => undefined,
    command: (peersDir, port, files) => ({
      command: process.execPath,
      args: [bin(peersDir, 'json-server', 'lib', 'cli', 'bin.js'), '--quiet', '--host', '127.0.0.1', '--port', String(port), files.jsonServerDb],
    }),
    path: (query, pageSize) => {
      const offset = Number(new URLSearchParams(query).get('offset') ?? 0);
      return `/reviews?_start=${offset}&_limit=${pageSize}`;
    },
    setup: 'db.json holding the same reviews as our dataset, `/reviews?_start=…&_limit=10`, `--quiet`',
  },
  prism(false),
  prism(true),
  {
    id: 'mockoon',
    label: 'Mockoon CLI',
    packageName: '@mockoon/cli',
    unavailable: () => undefined,
    command: (peersDir, port, files) => ({
      command: process.execPath,
      args: [
        bin(peersDir, '@mockoon', 'cli', 'bin', 'run.js'),
        'start',
        '--data',
        files.mockoonEnvironment,
        '--port',
        String(port),
        '--hostname',
        '127.0.0.1',
        '--repair',
        '--disable-log-to-file',
        '--disable-admin-api',
      ],
    }),
    path: (query) => `${REVIEWS_PATH}?${query}`,
    setup: 'environment with one route whose inline body is the page (templating off), `--disable-log-to-file --disable-admin-api`',
  },
  {
    id: 'wiremock',
    label: 'WireMock',
    packageName: 'wiremock',
    unavailable: (peersDir) => {
      if (!javaVersionLine()) return 'no java on PATH (WireMock needs Java 11+)';
      if (!wiremockJar(peersDir)) return 'wiremock jar not found in bench/peers';
      return undefined;
    },
    command: (peersDir, port, files) => ({
      command: 'java',
      args: ['-jar', wiremockJar(peersDir) as string, '--bind-address', '127.0.0.1', '--port', String(port), '--root-dir', files.wiremockRoot, '--disable-banner', '--no-request-journal'],
    }),
    path: (query) => `${REVIEWS_PATH}?${query}`,
    setup: 'standalone jar on the installed Java, one stub mapping whose body is the page, `--no-request-journal`',
  },
  {
    id: 'pact-stub',
    label: 'Pact stub server',
    packageName: '@pact-foundation/pact-cli',
    unavailable: (peersDir) => (pactBinary(peersDir) ? undefined : `no pact-cli binary for ${process.platform}-${process.arch}`),
    command: (peersDir, port, files) => ({
      command: pactBinary(peersDir) as string,
      args: ['stub', '--file', files.pactFile, '--port', String(port), '--loglevel', 'error'],
    }),
    path: (query) => `${REVIEWS_PATH}?${query}`,
    setup: 'a V3 pact file with one interaction whose response body is the page, `pact stub --loglevel error`',
  },
];

export { javaVersionLine };
