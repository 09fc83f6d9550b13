/**
 * The dependency direction of the kit, as data, and a checker that reads the real imports
 * (TypeScript's own pre-processor, so comments and strings are not mistaken for imports).
 *
 *   lib  <-  fixtures  <-  mock-server
 *   lib  <-  contracts
 *   lib  <-  properties
 *   lib  <-  fixtures (not its barrel)  <-  msw  (and the answer core, mock-server/listings/page-bodies.ts,
 *                                                and the write routes' core, mock-server/writes/)
 *   lib  <-  medusa  (the provider-state route of a Medusa app)
 *   lib  <-  client  <-  fixtures, contracts, properties, mock-server  (the kit's one HTTP client to a server under test: undici;
 *                                                   mock-server/backend/ loads it only to read a backend's catalogue)
 *   files  <-  fixtures (not from msw), contracts, mock-server  (how a file a user names is read and written: Node's fs only)
 *
 * `lib/` is the protocol layer: pure, zod (and qs, the alphabite dialect's query reader: plain
 * JavaScript, as Medusa calls it), no Node built-ins (it must run in a browser).
 * The contracts and the property suite check *any* implementation, so they never load the
 * mock server, Express or the data generator.
 *
 * Inside mock-server/, floors (MOCK_SERVER_FLOORS, checkFloors): each folder, and each file at its
 * top, may import only units on a floor below its own, so that every arrow points down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface LayerRule {
  /** Folders of the kit this layer may import from (itself included). */
  folders: readonly string[];
  /** npm packages it may import (a package's subpaths included). */
  packages: readonly string[];
  /** Whether Node's built-in modules (`node:fs`, ...) are allowed. */
  builtins: boolean;
  /** Single files outside `folders` it may import (a platform-neutral module of another layer). */
  files?: readonly string[];
  /** Files inside `folders` it must not import (a barrel that drags in Node built-ins). */
  notFiles?: readonly string[];
}

/** The platform-neutral core of the write routes (mock-server/writes/), which the MSW handlers answer with too. */
const WRITES_CORE = ['medusa-body', 'routes', 'seed', 'share-token', 'store', 'types'].map((name) => `mock-server/writes/${name}.ts`);

export const LAYERS: Record<string, LayerRule> = {
  lib: { folders: ['lib'], packages: ['zod', 'qs'], builtins: false },
  client: { folders: ['lib', 'client'], packages: ['undici'], builtins: true },
  // How a file a user names is written (atomically, devices written through, the rest refused) and read (regular files only, never blocking).
  files: { folders: ['files'], packages: [], builtins: true },
  fixtures: { folders: ['lib', 'client', 'fixtures', 'files'], packages: ['zod', '@faker-js/faker'], builtins: true },
  // client/: the catalogue of a backend (mock-server/backend/catalogue.ts) is read through the kit's bounded HTTP client, loaded on first use.
  'mock-server': { folders: ['lib', 'client', 'fixtures', 'mock-server', 'files'], packages: ['zod', 'express', 'cors', 'pino', 'etag', 'lru-cache', 'fresh', 'http-proxy-middleware'], builtins: true },
  contracts: { folders: ['lib', 'client', 'contracts', 'files'], packages: ['zod', '@pact-foundation/pact'], builtins: true },
  properties: { folders: ['lib', 'client', 'properties'], packages: ['zod', 'fast-check', 'vitest'], builtins: true },
  // The MSW handlers run in browsers: no Node built-ins, and not the fixtures barrel (fixtures/file.ts uses node:fs).
  msw: { folders: ['lib', 'fixtures', 'msw'], packages: ['msw'], builtins: false, files: ['mock-server/listings/page-bodies.ts', ...WRITES_CORE], notFiles: ['fixtures/index.ts', 'fixtures/file.ts'] },
  // The provider-state route runs inside a Medusa app: the protocol layer only, no @medusajs package (the container is duck-typed).
  medusa: { folders: ['lib', 'medusa'], packages: ['zod'], builtins: false },
  // A team's copy of an example imports the package (`store-listing-kit/mock-server`): here, only the source of that entry.
  examples: { folders: ['examples'], packages: ['vitest', '@alphabite/medusa-sdk'], builtins: true, files: ['mock-server/index.ts'] },
};

export interface ImportViolation {
  file: string;
  specifier: string;
  reason: string;
}

const BUILTINS = new Set(builtinModules);

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The import specifiers of a TypeScript source: static, re-exports, dynamic `import()`. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** The violations of one file (`file` relative to `root`, with `/` separators) given its source. */
export function checkFile(root: string, file: string, source: string, layers: Record<string, LayerRule> = LAYERS): ImportViolation[] {
  const layer = file.split('/')[0]!;
  const rule = layers[layer];
  if (!rule) return [];
  const out: ImportViolation[] = [];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith('.')) {
      const target = relative(root, resolve(root, dirname(file), specifier)).split(sep).join('/');
      const folder = target.includes('/') ? target.split('/')[0]! : '(package root)';
      if (rule.notFiles?.includes(target)) out.push({ file, specifier, reason: `${layer}/ must not import ${target}` });
      else if (!rule.folders.includes(folder) && !rule.files?.includes(target)) out.push({ file, specifier, reason: `${layer}/ may import only from ${rule.folders.join(', ')}${rule.files ? ` and ${rule.files.join(', ')}` : ''}; this is ${folder}/` });
    } else if (specifier.startsWith('node:') || BUILTINS.has(specifier)) {
      if (!rule.builtins) out.push({ file, specifier, reason: `${layer}/ must not use Node built-ins (it runs in browsers too)` });
    } else if (!rule.packages.includes(packageName(specifier))) {
      out.push({ file, specifier, reason: `${layer}/ may import only the packages ${rule.packages.join(', ')}` });
    }
  }
  return out;
}

function sourcesUnder(root: string, folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourcesUnder(root, path));
    else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every violation in the kit's layered folders. */
export function checkTree(root: string, layers: Record<string, LayerRule> = LAYERS): ImportViolation[] {
  return Object.keys(layers).flatMap((layer) => sourcesUnder(root, layer).flatMap((file) => checkFile(root, file, readFileSync(join(root, file), 'utf8'), layers)));
}

/** The kit's own imports between its source files: file -> files it imports (type-only imports too). */
export function importGraph(root: string, folders: readonly string[] = Object.keys(LAYERS)): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourcesUnder(root, folder))) {
    const targets = importsOf(readFileSync(join(root, file), 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(root, resolve(root, dirname(file), specifier)).split(sep).join('/'));
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The import circles of a graph: its strongly connected components of more than one file (or a
 * file that imports itself), each sorted, found with Tarjan's algorithm.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * The floors of mock-server/ (docs/architecture.md): a unit (a folder, or a file at the top) may import
 * only units on a lower floor; two units on one floor never import each other. Type-only imports count.
 */
export const MOCK_SERVER_FLOORS: Readonly<Record<string, number>> = {
  helpers: 0, // small HTTP helpers with no knowledge of the rest: errors, json-body, logging, lazy, cors-policy
  writes: 1, // the plugins' write routes (platform-neutral core) and the per-customer store
  dataset: 2, // the dataset holder and its builder
  journal: 2, // the bounded journal, its entries, and the observer that records requests
  listings: 3, // the four listings' answers
  state: 3, // what changes at run time: faults, dataset changes, provider states, lease, coordination, Ops
  backend: 4, // (issue 28) the overlay and the validating proxy
  pacts: 4, // (issue 30) the consumer's pacts from its requests under provider states, and their admin door
  admin: 5, // the admin HTTP API and the dashboard: reads and changes state/, reads journal/
  front: 6, // assembles one process's HTTP front: app, guards, write routes, fast path, shutdown
  'server-options.ts': 7,
  'process.ts': 8, // one server in this process
  cluster: 9, // several processes on one port
  'server.ts': 10, // startMockServer: checks the options, picks process.ts or the cluster
  'index.ts': 11, // the package entry
};

/** The unit of a file of mock-server/ (`mock-server/x/y.ts` -> `x`, `mock-server/y.ts` -> `y.ts`), or undefined outside it. */
function unitOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'mock-server' && parts.length >= 2 ? parts[1] : undefined;
}

/** The floor violations of one file of mock-server/ (`file` relative to `root`) given its source. */
export function checkFloorsOfFile(root: string, file: string, source: string, floors: Readonly<Record<string, number>> = MOCK_SERVER_FLOORS): ImportViolation[] {
  const unit = unitOf(file);
  if (unit === undefined) return [];
  const floor = floors[unit];
  if (floor === undefined) return [{ file, specifier: '', reason: `mock-server/${unit} has no floor: place it in MOCK_SERVER_FLOORS (test/support/import-rules.ts) and docs/architecture.md` }];
  const out: ImportViolation[] = [];
  for (const specifier of importsOf(source)) {
    if (!specifier.startsWith('.')) continue;
    const target = relative(root, resolve(root, dirname(file), specifier)).split(sep).join('/');
    const other = unitOf(target);
    if (other === undefined || other === unit) continue;
    const below = floors[other];
    if (below === undefined) out.push({ file, specifier, reason: `mock-server/${other} has no floor` });
    else if (below >= floor) out.push({ file, specifier, reason: `${unit} (floor ${floor}) may import only units below it; ${other} is on floor ${below}` });
  }
  return out;
}

/** Every floor violation in mock-server/. */
export function checkFloors(root: string, floors: Readonly<Record<string, number>> = MOCK_SERVER_FLOORS): ImportViolation[] {
  return sourcesUnder(root, 'mock-server').flatMap((file) => checkFloorsOfFile(root, file, readFileSync(join(root, file), 'utf8'), floors));
}
