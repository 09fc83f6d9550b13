/** The dependency direction of the kit (test/support/import-rules.ts) holds in the real tree. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFile, checkFloors, checkFloorsOfFile, checkTree, importCycles, importGraph, importsOf, MOCK_SERVER_FLOORS } from './support/import-rules.ts';

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
      'contracts/ may import only from lib, client, contracts, files; this is fixtures/',
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

  it('lets examples/ use the kit only through a package entry, as a copy of it in a team\'s repository does', () => {
    const source = ["import { startMockServer } from '../../mock-server/index.ts';", "import { startMockServer as s } from '../../mock-server/server.ts';", "import { z } from 'zod';"].join('\n');
    expect(checkFile(ROOT, 'examples/shop/bad.ts', source).map((v) => v.specifier)).toEqual(['../../mock-server/server.ts', 'zod']);
  });

  it('mock-server/: every arrow points down a floor (each folder imports only folders below it)', () => {
    const violations = checkFloors(ROOT).map((v) => `${v.file}: '${v.specifier}': ${v.reason}`);
    expect(violations).toEqual([]);
  });

  it('every folder and top file of mock-server/ has a floor', () => {
    const units = readdirSync(join(ROOT, 'mock-server'), { withFileTypes: true })
      // A folder emptied by a move (git keeps no folders) is no unit.
      .filter((entry) => (entry.isDirectory() ? readdirSync(join(ROOT, 'mock-server', entry.name)).length > 0 : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')))
      .map((entry) => entry.name);
    expect(units.filter((unit) => MOCK_SERVER_FLOORS[unit] === undefined)).toEqual([]);
  });

  it('catches an arrow that points up or sideways in mock-server/, type-only ones too, and a unit with no floor', () => {
    const up = [
      "import type { PageBodies } from '../listings/page-bodies.ts';",
      "import { Journal } from './journal.ts';",
      "import { sendError } from '../helpers/errors.ts';",
      "import { createDialect } from '../../lib/dialects/index.ts';",
      "const app = await import('../front/app.ts');",
      "import { startMockServer } from '../server.ts';",
    ].join('\n');
    expect(checkFloorsOfFile(ROOT, 'mock-server/journal/bad.ts', up).map((v) => v.specifier)).toEqual(['../listings/page-bodies.ts', '../front/app.ts', '../server.ts']);
    // dataset/ and journal/ share a floor: neither imports the other.
    expect(checkFloorsOfFile(ROOT, 'mock-server/dataset/bad.ts', "import type { Journal } from '../journal/journal.ts';").map((v) => v.reason)).toEqual(['dataset (floor 2) may import only units below it; journal is on floor 2']);
    // The cluster starts one server in each worker through process.ts, not through server.ts above it.
    expect(checkFloorsOfFile(ROOT, 'mock-server/cluster/worker.ts', "import { startInProcess } from '../process.ts';")).toEqual([]);
    expect(checkFloorsOfFile(ROOT, 'mock-server/newthing/x.ts', "import { sendError } from '../helpers/errors.ts';").map((v) => v.reason)).toEqual([
      'mock-server/newthing has no floor: place it in MOCK_SERVER_FLOORS (test/support/import-rules.ts) and docs/architecture.md',
    ]);
    expect(checkFloorsOfFile(ROOT, 'mock-server/admin/x.ts', "import { helper } from '../newthing/y.ts';").map((v) => v.reason)).toEqual(['mock-server/newthing has no floor']);
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
