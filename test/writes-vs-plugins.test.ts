/**
 * The mock's write routes against the real plugins' recorded answers, in plain `npm test`: the table of
 * test/support/write-cases.ts, run in order against `serve --dialect alphabite --allow-multiple-wishlists`
 * (a world on the mock's own generated data, test/support/mock-write-world.ts), normalised, must equal
 * test/medusa/write-answers.json (what Medusa 2.21.2 with @alphabite/medusa-wishlist 0.7.4 and
 * @alphabite/medusa-reviews 0.7.2 answered, recorded by test/medusa/write-answers.medusa.test.ts) answer
 * by answer, statuses and bodies and key order, but for
 * - the catalogue's text (variant titles, product handles and thumbnails: the mock's catalogue is not the
 *   real one), masked on both sides, each variant showing one title throughout (test/support/write-comparison.ts);
 * - the answers ACCEPTED names: each differs for a reason docs/dialects.md lists under "Not emulated", and
 *   exactly as test/write-differences.json recorded the mock's answer (a change of the mock shows here; to
 *   re-record it on purpose: WRITE_DIFFERENCES=1 npx vitest run test/writes-vs-plugins.test.ts). Their ids
 *   do not shift the numbering of the others (`renumber`).
 * The storefront flow through @alphabite/medusa-sdk likewise against test/medusa/storefront-write-flow.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { MOCK_CUSTOMER_NAME } from '../mock-server/writes/store.ts';
import { runStorefrontWriteFlow, type FlowStep } from './support/storefront-write-flow.ts';
import { runWriteCases, WRITE_CASES, type Json, type WriteAnswer } from './support/write-cases.ts';
import { maskCatalogue, renumber } from './support/write-comparison.ts';
import { mockWriteWorld, WRITE_WORLD_DATA, WRITE_WORLD_KEY } from './support/mock-write-world.ts';

const readJson = <T>(path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;
const DIFFERENCES = new URL('./write-differences.json', import.meta.url);

/** The reasons, each a heading of docs/dialects.md's "Not emulated" writes section. */
const REASONS = {
  bogus: '- **Any bearer token is a customer.**',
  isolation: '- **Another customer\'s wishlists and reviews are unknown ids.**',
  consequence: '- **What a refused cross-customer write would have changed stays as it was.**',
  author: '- **A review\'s author is `Mock Customer`.**',
} as const;
type Reason = keyof typeof REASONS;

/**
 * The answers that differ from the real plugins', by case name, and why. Each must differ (a stale entry
 * fails), and the mock must answer it exactly as recorded in test/write-differences.json.
 */
const ACCEPTED: Record<string, Reason> = {
  // not-a-jwt is a guest to the real backend (401 on strict routes, the guest message on optional ones)
  'a bogus token lists wishlists': 'bogus',
  'a bogus token creates a wishlist': 'bogus',
  'a bogus token renames it': 'bogus',
  'a bogus token writes a review': 'bogus',
  'a bogus token deletes a review': 'bogus',
  // alice's wishlist, to bob, is an unknown id to rename (the real plugin renames others' lists)
  "bob renames alice's other wishlist (no ownership check)": 'isolation',
  // alice could not remove bob's item, bob could not take alice's other wishlist: later answers show them still there
  "bob's wishlist has lost its item": 'consequence',
  "alice imports bob's empty wishlist with the token she made": 'consequence',
  'bob imports an HS512 token signed with the secret': 'consequence',
  'alice deletes that copy': 'consequence',
  'bob imports the token of the deleted copy': 'consequence',
  'bob deletes the HS512 copy': 'consequence',
  'bob has his wishlist back alone': 'consequence',
  'alice has one wishlist left': 'consequence',
  'bob has two': 'consequence',
  'bob deletes his own': 'consequence',
  'alice still has it': 'consequence',
  'alice still counts two items': 'consequence',
  'alice has no wishlist': 'consequence',
  'alice counts no items': 'consequence',
  // the mock knows no customer's name
  'alice writes a review': 'author',
  'alice writes a second review of it, rated "2.6"': 'author',
  'alice writes a 200 kB review (the route takes 10 MB)': 'author',
  'alice lists her reviews': 'author',
  'alice lists her reviews of the product': 'author',
};

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ ...WRITE_WORLD_DATA, dialect: 'alphabite', allowMultipleWishlists: true, publishableKeys: [WRITE_WORLD_KEY] });
});
afterAll(async () => mock?.close());

describe('docs/dialects.md', () => {
  const text = readFileSync(new URL('../docs/dialects.md', import.meta.url), 'utf8');
  const notEmulated = text.slice(text.indexOf('### Not emulated'), text.indexOf('## What it means for a storefront'));
  it.each(Object.entries(REASONS))('lists %s under "Not emulated"', (_, doc) => expect(notEmulated).toContain(doc));
});

/** The comparable form of a transcript: catalogue masked, then renumbered without the accepted answers. */
const comparable = (answers: WriteAnswer[]) => renumber(maskCatalogue(answers as unknown as Json) as unknown as WriteAnswer[], (i) => !(answers[i]!.name in ACCEPTED));

describe('the mock\'s write routes and the real plugins\' recorded answers (test/medusa/write-answers.json)', () => {
  it('are the same for every case but those ACCEPTED names, which differ exactly as recorded and for a documented reason', async () => {
    const golden = readJson<WriteAnswer[]>('./medusa/write-answers.json');
    expect(golden.map((a) => a.name)).toEqual(WRITE_CASES.map((c) => c.name));
    expect(Object.keys(ACCEPTED).filter((name) => !WRITE_CASES.some((c) => c.name === name))).toEqual([]);
    const real = comparable(golden);
    const mocked = comparable(await runWriteCases(mockWriteWorld(mock.url)));
    const recorded: Record<string, WriteAnswer> = Object.fromEntries(mocked.filter((a) => a.name in ACCEPTED).map((a) => [a.name, a]));
    if (process.env.WRITE_DIFFERENCES === '1') writeFileSync(DIFFERENCES, `${JSON.stringify(recorded, null, 2)}\n`);
    const expectedDifferences = JSON.parse(readFileSync(DIFFERENCES, 'utf8')) as Record<string, WriteAnswer>;
    const undocumented: string[] = [];
    const stale: string[] = [];
    mocked.forEach((answer, i) => {
      const same = JSON.stringify(answer) === JSON.stringify(real[i]);
      const reason = ACCEPTED[answer.name];
      if (!reason && !same) undocumented.push(`${answer.request}\n  real: ${shown(real[i]!)}\n  mock: ${shown(answer)}`);
      if (reason && same) stale.push(answer.name);
    });
    expect(undocumented, `answers that differ from the real plugins' with no documented reason:\n${undocumented.join('\n')}`).toEqual([]);
    expect(stale, 'ACCEPTED names answers that no longer differ').toEqual([]);
    // each accepted difference is exactly the recorded one (and key order too)
    expect(JSON.stringify(recorded, null, 2)).toBe(JSON.stringify(expectedDifferences, null, 2));
    // and of the kind its reason says
    for (const answer of mocked.filter((a) => a.name in ACCEPTED)) {
      const realAnswer = real.find((a) => a.name === answer.name)!;
      if (ACCEPTED[answer.name] === 'bogus') expect(realAnswer.status, answer.name).toBe(401);
      if (ACCEPTED[answer.name] === 'author') {
        expect(JSON.stringify(answer.body)).toContain(JSON.stringify(MOCK_CUSTOMER_NAME));
        expect(withRealAuthor(answer.body), answer.name).toEqual(realAnswer.body);
      }
    }
  }, 60_000);
});

describe('the storefront write flow through @alphabite/medusa-sdk against the mock and the real plugins\' transcript', () => {
  it('gives the recorded transcript (test/medusa/storefront-write-flow.json), but for the review author\'s name', async () => {
    const golden = readJson<FlowStep[]>('./medusa/storefront-write-flow.json');
    const { transcript } = await runStorefrontWriteFlow(mockWriteWorld(mock.url, { alice: 'FA', bob: 'FB' }));
    const masked = maskCatalogue(transcript as unknown as Json) as unknown as FlowStep[];
    const real = maskCatalogue(golden as unknown as Json) as unknown as FlowStep[];
    expect(masked.map((s) => s.step)).toEqual(real.map((s) => s.step));
    const differing = masked.filter((step, i) => JSON.stringify(step) !== JSON.stringify(real[i])).map((s) => s.step);
    expect(differing).toEqual(['alice writes a review', 'alice lists her reviews']);
    masked.forEach((step, i) => expect(JSON.stringify({ ...step, result: withRealAuthor(step.result ?? null) }), step.step).toBe(JSON.stringify({ ...real[i]!, result: real[i]!.result ?? null })));
  }, 60_000);
});

/** The mock's review author (`Mock Customer`) as the real answers show alice: her normalised names. */
function withRealAuthor(body: Json): Json {
  return JSON.parse(JSON.stringify(body).replaceAll(JSON.stringify(MOCK_CUSTOMER_NAME), JSON.stringify({ first_name: '<alice.first_name>', last_name: '<alice.last_name>' }))) as Json;
}

function shown(answer: WriteAnswer): string {
  const text = JSON.stringify(answer.body);
  return `${answer.status} ${text.length > 500 ? `${text.slice(0, 500)}...` : text}`;
}
