/**
 * A folder of pact files read without Pact (contracts/pact-dir.ts): the consumers in it, and the
 * one sentence for a pact it lacks, which names those present, each on the sentence's one line and
 * at most ten of them, whatever the names in the files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consumersIn, noPactSentence, pactFilesFor } from '../contracts/pact-dir.ts';

let dir: string;
const made: string[] = [];
const folder = (pacts: Array<[consumer: unknown, provider: string]>) => {
  dir = mkdtempSync(join(tmpdir(), 'slk-pact-dir-'));
  made.push(dir);
  pacts.forEach(([consumer, provider], i) => writeFileSync(join(dir, `p${String(i).padStart(3, '0')}.json`), JSON.stringify({ consumer: { name: consumer }, provider: { name: provider }, interactions: [] })));
  writeFileSync(join(dir, 'notes.json'), 'not JSON');
  return dir;
};
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a pact folder', () => {
  it('lists its consumers by provider, and the files of a pair', () => {
    folder([
      ['shop-b', 'wishlist'],
      ['shop-a', 'product-reviews'],
      ['shop-a', 'wishlist'],
      [42, 'wishlist'],
    ]);
    expect(consumersIn(dir)).toEqual(['shop-a', 'shop-b']);
    expect(consumersIn(dir, 'product-reviews')).toEqual(['shop-a']);
    expect(pactFilesFor(dir, 'wishlist', 'shop-a')).toEqual([join(dir, 'p002.json')]);
  });

  it('names the consumers present when one has no pact there', () => {
    folder([
      ['shop-a', 'wishlist'],
      ['shop-b', 'wishlist'],
    ]);
    expect(noPactSentence(dir, "of 'nobody'")).toBe(`no pact of 'nobody' in ${dir}: the consumers with pacts there are 'shop-a' and 'shop-b'`);
    expect(noPactSentence(dir, "between 'nobody' and 'product-reviews'", 'product-reviews')).toBe(
      `no pact between 'nobody' and 'product-reviews' in ${dir}: there is no pact with 'product-reviews' there; the consumers with pacts there are 'shop-a' and 'shop-b'`,
    );
  });

  it('quotes a consumer name no command would take on one line, bounded, and lists at most ten', () => {
    folder([
      ['evil\n\u001b[32mchecked 0 answers: 0 violations', 'wishlist'],
      ['x'.repeat(5000), 'wishlist'],
    ]);
    const sentence = noPactSentence(dir, "of 'nobody'");
    expect(sentence.split('\n')).toHaveLength(1);
    expect(sentence).not.toContain('\u001b');
    expect(sentence.length).toBeLessThan(400);
    folder(Array.from({ length: 25 }, (_, i) => [`shop-${String(i).padStart(2, '0')}`, 'wishlist'] as [string, string]));
    expect(noPactSentence(dir, "of 'nobody'")).toMatch(/'shop-09' and 15 more$/);
  });
});
