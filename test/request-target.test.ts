/**
 * lib/request-target.ts (issue 35 item 2): the one spelling of a request target that the proxy
 * library, Express and a WHATWG reader all read alike, made before anything judges the target; or
 * the reason it is refused. What the backend then receives is checked end to end in
 * test/backend-overlay.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedPath, normaliseFully, normaliseTarget } from '../lib/request-target.ts';

const HOST = 'shop.test:9100';
const target = (raw: string) => {
  const reading = normaliseTarget(raw, HOST);
  return reading.ok ? reading.target : `refused: ${reading.reason}`;
};

describe('normaliseTarget', () => {
  it('turns backslashes into slashes, drops the fragment, merges slashes, resolves dot segments; keeps the query and a trailing slash', () => {
    const cases: Array<[string, string]> = [
      ['/store/wishlists', '/store/wishlists'],
      ['/store\\wishlists', '/store/wishlists'],
      ['\\store\\wishlists\\wl_1\\add-item', '/store/wishlists/wl_1/add-item'],
      ['/store/products/reviews\\', '/store/products/reviews/'],
      ['/store/wishlists#x', '/store/wishlists'],
      ['/store/wishlists?take=2#x?y', '/store/wishlists?take=2'],
      ['//store/wishlists', '/store/wishlists'],
      ['/store//wishlists///', '/store/wishlists/'],
      ['/./auth/customer/emailpass', '/auth/customer/emailpass'],
      ['/x/../auth/customer/emailpass', '/auth/customer/emailpass'],
      ['/../../auth', '/auth'],
      ['/store/wishlists/..', '/store/'],
      ['/store/wishlists/.', '/store/wishlists/'],
      ['/a/b/../../..', '/'],
      ['/', '/'],
      ['//', '/'],
      ['/?a=1', '/?a=1'],
      ['/store/carts?next=/x//y\\z&u=http://a', '/store/carts?next=/x//y\\z&u=http://a'],
      ['/store/%77ishlists/...', '/store/%77ishlists/...'],
      ['/store/wishlists/.x/..y', '/store/wishlists/.x/..y'],
      ['/store/wishlists%23x', '/store/wishlists%23x'],
      [`http://${HOST}/store/wishlists?x=1`, '/store/wishlists?x=1'],
      [`HTTP://SHOP.test:9100`, '/'],
      [`http://${HOST}?q`, '/?q'],
      [`http://${HOST}\\store\\reviews`, '/store/reviews'],
    ];
    for (const [raw, expected] of cases) expect(target(raw), raw).toBe(expected);
  });

  it('refuses, in a sentence, what readers read differently: encoded slash, backslash, NUL and dot segments, http:/ in the path, another host, no path', () => {
    const cases: Array<[string, RegExp]> = [
      ['/store%2Fwishlists', /encoded slash or backslash \(%2F, %5C\)/],
      ['/store%5cwishlists', /encoded slash or backslash/],
      ['/store/wishlists%00', /encoded NUL/],
      ['/x/%2E%2E/store/wishlists', /holds "%2E%2E", a dot segment once decoded/],
      ['/store/wishlists/%2e', /a dot segment once decoded/],
      ['/store/wishlists/.%2e/x', /a dot segment once decoded/],
      ['/store/http:/x', /holds "http:\/" or "https:\/"/],
      ['/x/https://store', /"http:\/" or "https:\/"/],
      ['http://elsewhere.test/store/wishlists', /names the host "elsewhere.test", not this server \("shop.test:9100"\)/],
      ['http://user@shop.test:9100/store/wishlists', /names the host/],
      ['*', /is not a path: it must start with \//],
      ['store/wishlists', /is not a path/],
      ['ftp://shop.test:9100/x', /is not a path/],
    ];
    for (const [raw, reason] of cases) {
      const reading = normaliseTarget(raw, HOST);
      expect(reading.ok, raw).toBe(false);
      if (!reading.ok) expect(reading.reason, raw).toMatch(reason);
    }
    expect(normaliseTarget('http://shop.test/x', undefined).ok).toBe(false);
    expect(normaliseTarget('http://shop.test:80/x', 'shop.test')).toEqual({ ok: true, target: '/x', path: '/x' });
    // A client's text is quoted within bounds.
    const long = normaliseTarget(`/${'a'.repeat(5000)}%2F`, HOST);
    expect(!long.ok && long.reason.length).toBeLessThan(300);
  });

  const char = fc.constantFrom('a', 'S', '/', '\\', '.', '..', '%', '%2e', '%2E', '%41', '%5C', '%2F', '%23', '%3F', '#', '?', '=', '&', ':', 'http:', ';', '~', '"', '{', '|');
  const raw = fc.array(char, { maxLength: 14 }).map((parts) => `/${parts.join('')}`);

  it('its output is a fixed point, and what a WHATWG reader and the proxy library\'s join make of it is the same path (no slash run, no dot segment, no backslash)', () => {
    fc.assert(
      fc.property(raw, (r) => {
        const reading = normaliseTarget(r, HOST);
        if (!reading.ok) return;
        expect(normaliseTarget(reading.target, HOST)).toEqual(reading);
        const { path } = reading;
        expect(path.startsWith('/')).toBe(true);
        expect(path).not.toMatch(/\/\/|\\|#|(^|\/)\.\.?(\/|$)/);
        // WHATWG: the same path, but for the characters it percent-encodes in a path.
        const whatwg = new URL(reading.target, 'http://backend.test').pathname;
        expect(whatwg, r).toBe(path.replace(/["<>`{}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
        // http-proxy's urlJoin on the path: slash runs merged, the first http:/ made http://: nothing to do.
        expect(path.replace(/\/+/g, '/').replace('http:/', 'http://').replace('https:/', 'https://')).toBe(path);
      }),
      { numRuns: 3000, seed: 35 },
    );
  });

  it('gives a target already normal back as the very string, and every target the same reading as the full normalisation (issue 36)', () => {
    for (const plain of ['/store/carts/cart_01BENCH', '/store/products/reviews?limit=10&offset=0', '/', '/?a=1', '/a/', '/a/?x=//y\\z:%2F', '/a.b/c..d']) {
      const reading = normaliseTarget(plain, HOST);
      expect(reading.ok && reading.target, plain).toBe(plain);
      expect(reading, plain).toEqual(normaliseFully(plain, HOST));
    }
    const part = fc.constantFrom('a', 'S', 'wishlists', '/', '/', '\\', '.', '..', '%', '%2e', '%41', '%2F', '#', '?', '=', '&', ':', 'http:', '~', '{');
    const any = fc.tuple(fc.constantFrom('/', '/', '\\', 'http://shop.test:9100', '*'), fc.array(part, { maxLength: 14 })).map(([first, parts]) => `${first}${parts.join('')}`);
    fc.assert(
      fc.property(any, (r) => {
        expect(normaliseTarget(r, HOST), r).toEqual(normaliseFully(r, HOST));
      }),
      { numRuns: 5000, seed: 36 },
    );
  });
});

describe('decodedPath', () => {
  it('decodes each segment once, keeps a malformed escape, ends at a decoded ? or #', () => {
    expect(decodedPath('/store/%77ishlists')).toBe('/store/wishlists');
    expect(decodedPath('/store/%ZZ/%41')).toBe('/store/%ZZ/A');
    expect(decodedPath('/store/wishlists%23x/y')).toBe('/store/wishlists');
    expect(decodedPath('/%61uth%3Fx')).toBe('/auth');
    expect(decodedPath('/plain')).toBe('/plain');
  });
});
