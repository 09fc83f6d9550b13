import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runWriteCases, type WriteAnswer } from './support/write-cases.ts';
import { mockWriteWorld, WRITE_WORLD_DATA, WRITE_WORLD_KEY } from './support/mock-write-world.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ dialect: 'alphabite', allowMultipleWishlists: true, publishableKeys: [WRITE_WORLD_KEY], ...WRITE_WORLD_DATA });
});
afterAll(async () => mock?.close());

it('draft', async () => {
  const answers = await runWriteCases(mockWriteWorld(mock.url));
  const golden = JSON.parse(readFileSync(new URL('./medusa/write-answers.json', import.meta.url), 'utf8')) as WriteAnswer[];
  const out: string[] = [];
  answers.forEach((a, i) => {
    const g = golden[i]!;
    if (JSON.stringify(a) !== JSON.stringify(g)) out.push(`#${i} ${a.name}\n  real: ${g.status} ${JSON.stringify(g.body).slice(0, 400)}\n  mock: ${a.status} ${JSON.stringify(a.body).slice(0, 400)}`);
  });
  console.log(out.join('\n'));
}, 60_000);
