/**
 * verify reads Pact's report from its worker line by line (cli/verify-run.ts): a line that never ends
 * (a hostile provider's huge body quoted in a mismatch) must not be held whole in memory.
 */
import { describe, expect, it } from 'vitest';
import { LINE_BYTES_KEPT, lines } from '../cli/verify-run.ts';

describe("verify's reader of Pact's output", () => {
  it('passes whole lines on, keeps an unfinished one for the next chunk', () => {
    const seen: string[] = [];
    const splitter = lines((text) => seen.push(text));
    splitter.push('one\ntw');
    splitter.push('o\nthree');
    expect(seen).toEqual(['one\n', 'two\n']);
    splitter.end();
    expect(seen).toEqual(['one\n', 'two\n', 'three']);
  });

  it('an unfinished line longer than its bound goes on as it is, so what is held stays bounded', () => {
    const seen: string[] = [];
    const splitter = lines((text) => seen.push(text));
    const chunk = 'x'.repeat(64 * 1024);
    let held = 0;
    for (let i = 0; i < 64; i++) {
      splitter.push(chunk);
      held = (i + 1) * chunk.length - seen.reduce((n, s) => n + s.length, 0);
      expect(held).toBeLessThanOrEqual(LINE_BYTES_KEPT + chunk.length);
    }
    expect(seen.length).toBeGreaterThan(1);
    splitter.end();
    expect(seen.join('')).toBe(chunk.repeat(64));
  });
});
