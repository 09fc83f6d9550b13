/**
 * The fields a plugin route's query asks for, as Medusa makes them from the `fields` parameter, and
 * what the Medusa version the dialect answers as does with them: `prepareListQuery`
 * (@medusajs/framework 2.x, dist/http/utils/get-query-config.js) with `FieldParser.parse`
 * (dist/http/utils/field-filtering/field-parser.js), the store's restricted fields, the relations
 * limit (2.20+, dist/http/utils/relations-limit.js), and, before 2.16, the query's failure on a
 * relation the entity does not have. lib/dialects/medusa-behaviour.ts says which version does what.
 */
import { refusal, type Refusal } from './types.ts';
import type { MedusaBehaviour } from './medusa-behaviour.ts';

/** The store's restricted fields (@medusajs/utils, dist/common/define-config.js, DEFAULT_STORE_RESTRICTED_FIELDS). */
const STORE_RESTRICTED_FIELDS = ['order', 'orders'];

const isStar = (field: string) => field.startsWith('*') || field.endsWith('.*');
const modifies = (field: string) => field.startsWith('-') || field.startsWith('+') || field.startsWith(' ') || isStar(field);

/**
 * The fields Medusa's query is asked for, from the `fields` parameter and the route's defaults
 * (`FieldParser.parse`): a field without a modifier (`+`, ` `, `-`, `*f`, `f.*`), or an empty list,
 * replaces the defaults; otherwise `+f` adds, `-f` removes f and its subfields, `*f` and `f.*` add;
 * `id` is always added; each `*f` or `f.*` becomes `f.*`, after the others. How a modifier is stripped
 * depends on the version (MEDUSA_CHANGES.modifierStripping); from 2.20.1 the restricted fields are
 * then taken out (MEDUSA_CHANGES.restrictedFieldsStripped).
 */
export function medusaQueryFields(fields: string | undefined, defaults: readonly string[], medusa: MedusaBehaviour): string[] {
  const all = medusa.modifierStripping === 'all';
  const stripAll = (f: string) => f.replace(/^[+ \t-]+/, '').trim();
  let fieldSet = new Set(defaults);
  if (fields !== undefined) {
    const custom = fields.split(',').filter(Boolean);
    if (custom.length === 0 || custom.some((f) => !modifies(f))) fieldSet = new Set(custom.map((f) => (all ? stripAll(f) : f.replace(/^[+ -]/, ''))));
    else {
      for (const f of custom) {
        if (f.startsWith('+') || f.startsWith(' ')) fieldSet.add(all ? stripAll(f) : f.trim().replace(/^\+/, ''));
        else if (f.startsWith('-')) {
          const name = all ? stripAll(f) : f.replace(/^-/, '');
          for (const s of fieldSet) {
            const bare = s.replace(/^\*/, '');
            if (bare === name || bare.startsWith(`${name}.`)) fieldSet.delete(s);
          }
        } else fieldSet.add(f);
      }
    }
    fieldSet.add('id');
  }
  const stars = new Set<string>();
  for (const f of fieldSet) {
    if (isStar(f)) {
      stars.add(f.replace(/(^\*|\.\*$)/, ''));
      fieldSet.delete(f);
    }
  }
  if (medusa.stripsRestrictedFields) {
    const restricted = (f: string) => f.split('.').some((segment) => STORE_RESTRICTED_FIELDS.includes(segment));
    for (const set of [fieldSet, stars]) for (const f of set) if (restricted(f)) set.delete(f);
  }
  return [...fieldSet, ...[...stars].map((f) => `${f}.*`)];
}

/**
 * How many relations a query field expands (`getRelationsDepth`): a star field (`a.b.*`) its
 * segments (`a.b`: 2), any other its dots (`a.b.c`: 2, the last segment being a column).
 */
export function relationsDepth(field: string): number {
  const segments = field.replace(/(^\*|\.\*$)/, '').split('.').length;
  return isStar(field) ? segments : segments - 1;
}

/**
 * `validateRelationsLimit` on the query's fields (2.20+; none before): 400 `invalid_data` naming every
 * field past the limit, in the query's order. The route's defaults do not matter here: none expands
 * more than two relations, and they change neither which of the caller's fields are named nor their order.
 */
export function relationsLimitRefusal(fields: string | undefined, medusa: MedusaBehaviour): Refusal | undefined {
  const limit = medusa.storeRelationsLimit;
  if (limit === undefined) return undefined;
  const invalid = medusaQueryFields(fields, [], medusa).filter((f) => relationsDepth(f) > limit);
  if (invalid.length === 0) return undefined;
  return refusal(400, { type: 'invalid_data', message: `The following fields expand more than the maximum of ${limit} allowed relations: ${invalid.join(', ')}` });
}

/**
 * The relations of the plugins' entities as a query reads them before 2.16 (seen on Medusa 2.13.6):
 * an entity's own relations, and the names the module's links give (any of them, on any entity of
 * the module, is taken as a link and not looked into further).
 */
export interface EntityRelations {
  own: Readonly<Record<string, string>>;
  links: readonly string[];
}

export const PLUGIN_ENTITIES = {
  /** @alphabite/medusa-reviews: the review links to the product and the customer (links/review-products.js, review-customer.js). */
  review: { own: {}, links: ['product', 'customer'] },
  /** @alphabite/medusa-wishlist: a wishlist has its items; the module links the customer, the sales channel and (of an item) the variant. */
  wishlist: { own: { items: 'wishlist_item' }, links: ['customer', 'sales_channel', 'product_variant'] },
  wishlist_item: { own: { wishlist: 'wishlist' }, links: ['customer', 'sales_channel', 'product_variant'] },
} as const satisfies Record<string, EntityRelations>;

export type PluginEntity = keyof typeof PLUGIN_ENTITIES;

/**
 * Whether a query field goes through a relation the entity does not have: the relations of a field
 * are its segments but the last (a column), or all of a star field's. Before 2.16 such a query fails
 * (the database layer gets the path as it is; from 2.16 it drops what it cannot resolve:
 * MEDUSA_CHANGES.unknownRelationsIgnored). A path into a linked module is not looked into.
 */
export function throughUnknownRelation(field: string, entity: PluginEntity): boolean {
  const segments = field.replace(/(^\*|\.\*$)/, '').split('.');
  const relations = isStar(field) ? segments : segments.slice(0, -1);
  let current: PluginEntity = entity;
  for (const relation of relations) {
    const here: EntityRelations = PLUGIN_ENTITIES[current];
    if (here.links.includes(relation)) return false;
    const next = here.own[relation];
    if (next === undefined) return true;
    current = next as PluginEntity;
  }
  return false;
}
