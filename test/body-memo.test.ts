/** properties/transport.ts's BodyMemo: a repeated answer is not parsed again, a changed one is seen as it is. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyMemo } from '../properties/transport.ts';

const big = (marker: string) => Buffer.from(JSON.stringify({ marker, records: Array.from({ length: 400 }, (_, i) => ({ id: `r${i}`, text: 'x'.repeat(20) })) }));

describe('BodyMemo', () => {
  it('gives the same bytes of the same URL the JSON it parsed before', () => {
    const memo = new BodyMemo();
    const first = memo.read('http://t/a', big('one'), undefined);
    const again = memo.read('http://t/a', Buffer.from(big('one')), undefined);
    expect(again.json).toBe(first.json);
    expect(again.text).toBe(first.text);
  });

  it('parses an answer that changed, however little, and a URL it has not seen', () => {
    const memo = new BodyMemo();
    const first = memo.read('http://t/a', big('one'), undefined);
    const changed = memo.read('http://t/a', big('two'), undefined);
    expect(changed.json).not.toBe(first.json);
    expect((changed.json as { marker: string }).marker).toBe('two');
    const elsewhere = memo.read('http://t/b', big('two'), undefined);
    expect(elsewhere.json).not.toBe(changed.json);
    expect(elsewhere.json).toEqual(changed.json);
  });

  it('does not take the same bytes under another content-encoding for the same body', () => {
    const memo = new BodyMemo();
    const plain = big('one');
    memo.read('http://t/a', plain, undefined);
    const zipped = gzipSync(plain);
    expect(memo.read('http://t/a', zipped, 'gzip').json).toEqual(JSON.parse(plain.toString()));
  });

  it('keeps no small body, and reads text that is no JSON as undefined', () => {
    const memo = new BodyMemo();
    const small = Buffer.from('{"a":1}');
    expect(memo.read('http://t/s', small, undefined).json).not.toBe(memo.read('http://t/s', small, undefined).json);
    const html = Buffer.from(`<html>${'x'.repeat(8000)}</html>`);
    const read = memo.read('http://t/h', html, undefined);
    expect(read.text).toBe(html.toString());
    expect(read.json).toBeUndefined();
    expect(memo.read('http://t/h', html, undefined).json).toBeUndefined();
  });
});
