/** The dependency direction of the kit (test/support/import-rules.ts) holds in the real tree. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFile, checkTree, importCycles, importGraph, importsOf } from './support/import-rules.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('dependency direction', () => {
  it('no import points the wrong way', () => {
    const violations = checkTree(ROOT).map((v) => `${v.file}: '${v.specifier}': ${v.reason}`);
    expect(violations).toEqual([]);
  });

  it('catches an arrow that points the wrong way', () => {
    const source = [
      "import { startMockServer } from '../mock-server/server.ts';",
      "import express from 'express';",
      "const faker = await import('@faker-js/faker');",
      '// import { nothing } from "../mock-server/front/app.ts";  (a comment, not an import)',
      "import { totalPages } from '../lib/paging.ts';",
    ].join('\n');
    expect(checkFile(ROOT, 'properties/bad.ts', source).map((v) => v.specifier)).toEqual(['../mock-server/server.ts', 'express', '@faker-js/faker']);
    expect(checkFile(ROOT, 'lib/bad.ts', "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';").map((v) => v.specifier)).toEqual(['node:fs']);
    expect(checkFile(ROOT, 'contracts/bad.ts', "export { generateDataset } from '../fixtures/index.ts';").map((v) => v.reason)).toEqual([
      'contracts/ may import only from lib, client, contracts; this is fixtures/',
    ]);
  });

  it('lets msw/ use the platform-neutral answer core but not the fixtures barrel, the server or Node', () => {
    const source = [
      "import { PageBodies } from '../mock-server/listings/page-bodies.ts';",
      "import { generateDataset } from '../fixtures/dataset.ts';",
      "import { generateDataset as g } from '../fixtures/index.ts';",
      "import { startMockServer } from '../mock-server/server.ts';",
      "import { createHash } from 'node:crypto';",
    ].join('\n');
    expect(checkFile(ROOT, 'msw/bad.ts', source).map((v) => v.specifier)).toEqual(['../fixtures/index.ts', '../mock-server/server.ts', 'node:crypto']);
  });

  it('reads multi-line, type-only and re-export imports', () => {
    expect(importsOf("import {\n  a,\n  b,\n} from './x.ts';\nimport type { T } from 'y';\nexport * from './z.ts';")).toEqual(['./x.ts', 'y', './z.ts']);
  });

  it('no import circle: no file reaches itself through its imports, type-only ones included', () => {
    expect(importCycles(importGraph(ROOT))).toEqual([]);
  });

  it('finds circles, and only circles', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['e.ts', 'outside.ts']],
      ['e.ts', []],
      ['f.ts', ['f.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['f.ts']]);
  });
});
