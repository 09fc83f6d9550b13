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
 *   lib  <-  client  <-  fixtures, contracts, properties  (the kit's one HTTP client to a server under test: undici)
 *
 * `lib/` is the protocol layer: pure, zod only, no Node built-ins (it must run in a browser).
 * The contracts and the property suite check *any* implementation, so they never load the
 * mock server, Express or the data generator.
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
  lib: { folders: ['lib'], packages: ['zod'], builtins: false },
  client: { folders: ['lib', 'client'], packages: ['undici'], builtins: true },
  fixtures: { folders: ['lib', 'client', 'fixtures'], packages: ['zod', '@faker-js/faker'], builtins: true },
  'mock-server': { folders: ['lib', 'fixtures', 'mock-server'], packages: ['zod', 'express', 'cors', 'pino', 'etag', 'lru-cache', 'fresh'], builtins: true },
  contracts: { folders: ['lib', 'client', 'contracts'], packages: ['zod', '@pact-foundation/pact'], builtins: true },
  properties: { folders: ['lib', 'client', 'properties'], packages: ['zod', 'fast-check', 'vitest'], builtins: true },
  // The MSW handlers run in browsers: no Node built-ins, and not the fixtures barrel (fixtures/file.ts uses node:fs).
  msw: { folders: ['lib', 'fixtures', 'msw'], packages: ['msw'], builtins: false, files: ['mock-server/listings/page-bodies.ts', ...WRITES_CORE], notFiles: ['fixtures/index.ts', 'fixtures/file.ts'] },
  // The provider-state route runs inside a Medusa app: the protocol layer only, no @medusajs package (the container is duck-typed).
  medusa: { folders: ['lib', 'medusa'], packages: ['zod'], builtins: false },
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
