/**
 * Comparing two normalised write transcripts (test/support/write-cases.ts's answers, or the storefront
 * flow's steps) from different worlds: the mock's catalogue is not the real one, and an answer that
 * differs on purpose (a documented difference) may bring ids the other side never makes, which would
 * shift the `<prefix:n>` numbering of every later answer.
 */
import type { Json } from './write-cases.ts';

type Obj = { [key: string]: Json };
const isObject = (value: Json | undefined): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Catalogue text masked: each `product_variant` whose id is a world variant (`<v0>`..`<v2>`) gets
 * `title: <v0.title>`, and its product `handle: <v0.handle>`, `thumbnail: <v0.thumbnail>`. Throws when
 * one variant shows two titles (or handles) in one transcript: the mask must not hide a real difference.
 */
export function maskCatalogue<T extends Json>(value: T, seen = new Map<string, string>()): T {
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: Obj = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child);
    const variant = out.product_variant;
    if (isObject(variant) && typeof variant.id === 'string' && /^<v\d>$/.test(variant.id)) {
      const name = variant.id.slice(1, -1);
      const product = isObject(variant.product) ? variant.product : undefined;
      const check = (what: string, text: Json | undefined) => {
        const shown = JSON.stringify(text);
        const before = seen.get(`${name}.${what}`);
        if (before !== undefined && before !== shown) throw new Error(`variant ${name} shows two ${what}s: ${before} and ${shown}`);
        seen.set(`${name}.${what}`, shown);
        return `<${name}.${what}>`;
      };
      out.product_variant = { ...variant, title: check('title', variant.title), ...(product ? { product: { ...product, handle: check('handle', product.handle), thumbnail: check('thumbnail', product.thumbnail) } } : {}) };
    }
    return out;
  };
  return walk(value) as T;
}

const PLACEHOLDER = /<([a-z]+):(\d+)>/g;

/**
 * The `<prefix:n>` placeholders renumbered by first appearance in the answers `counted` says count;
 * one first met in another answer becomes `<prefix:extra:k>`. So the ids of answers that differ on
 * purpose (a bogus token's wishlist, say) do not shift the numbering of the others.
 */
export function renumber<T>(answers: readonly T[], counted: (index: number) => boolean): T[] {
  const names = new Map<string, string>();
  const next = new Map<string, number>();
  const assign = (text: string, extra: boolean) =>
    text.replace(PLACEHOLDER, (whole, prefix: string) => {
      let name = names.get(whole);
      if (!name) {
        const key = extra ? `${prefix}:extra` : prefix;
        const n = (next.get(key) ?? 0) + 1;
        next.set(key, n);
        names.set(whole, (name = `<${key}:${n}>`));
      }
      return name;
    });
  const texts = answers.map((answer) => JSON.stringify(answer));
  texts.forEach((text, i) => counted(i) && assign(text, false));
  texts.forEach((text, i) => !counted(i) && assign(text, true));
  return texts.map((text) => JSON.parse(text.replace(PLACEHOLDER, (whole) => names.get(whole) ?? whole)) as T);
}
