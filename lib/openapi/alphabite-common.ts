/**
 * What every route of the alphabite dialect shares in the OpenAPI document (alphabite-api.ts
 * for the listings, alphabite-write-api.ts for the rest): Medusa's query parameter types, the
 * publishable-key header, the customer's credentials and the generic error body.
 */
import { ALPHABITE_DEFAULT_LIMIT, ALPHABITE_DEFAULT_OFFSET, PUBLISHABLE_KEY_HEADER, type FieldType } from '../dialects/alphabite.ts';
import { errorBodySchema } from '../envelopes.ts';
import type { JsonSchema, ParameterDoc } from './types.ts';

export const ERROR = { name: 'Error', schema: errorBodySchema };

/** The mock's reason for an answer whose cause the plugins' own answer does not show (docs/writes.md): its header's doc. */
export const REASON_HEADER_DOC = {
  description:
    "The mock's, not the plugins' (a real backend never sends it): why it answered so, in one short sentence, e.g. `the variant is already in this wishlist`. Exposed to browsers (`Access-Control-Expose-Headers`).",
  schema: { type: 'string', minLength: 1 },
};

/** How Medusa reads each kind of parameter (alphabite.ts `parseField`). */
const FIELD_TYPES: Record<FieldType, { schema: JsonSchema; description: string }> = {
  string: { schema: { type: 'string' }, description: 'A string.' },
  int: { schema: { type: 'integer' }, description: "Read with `parseInt` (`2.7` is 2, `5abc` is 5), no bounds; a non-number is a 400, a negative one a 500." },
  with_deleted: { schema: { type: 'boolean' }, description: '`true` or `false`.' },
  flag: { schema: { type: 'boolean' }, description: '`z.coerce.boolean()`: any non-empty value, `false` included, is true; only an empty value is false.' },
  rating: { schema: { type: 'number', minimum: 1, maximum: 5 }, description: 'Rounded, then 1 to 5.' },
  'csv-list': { schema: { type: 'array', items: { type: 'string' } }, description: 'A list: repeated, `name[0]=`, or comma-separated.' },
  array: { schema: { type: 'array', items: { type: 'string' } }, description: 'A list (`name[]=a`); a single plain value is a 400.' },
};

const DEFAULTS: Record<string, number> = { limit: ALPHABITE_DEFAULT_LIMIT, offset: ALPHABITE_DEFAULT_OFFSET };

/** Query parameters as Medusa's strict `validateAndTransformQuery` reads them, each with its note. */
export function medusaQueryParameters(fields: ReadonlyArray<readonly [string, FieldType]>, notes: Readonly<Record<string, string>>): ParameterDoc[] {
  return fields.map(([name, type]): ParameterDoc => {
    const kind = FIELD_TYPES[type];
    const note = notes[name];
    if (note === undefined) throw new Error(`the alphabite dialect accepts '${name}', which the OpenAPI document does not describe`);
    const schema = DEFAULTS[name] === undefined ? kind.schema : { ...kind.schema, default: DEFAULTS[name] };
    return { name, in: 'query', description: `${note} ${kind.description}`, schema, ...(type === 'csv-list' || type === 'array' ? { explode: true } : {}) };
  });
}

export const PUBLISHABLE_KEY: ParameterDoc = {
  name: PUBLISHABLE_KEY_HEADER,
  in: 'header',
  required: true,
  description: 'A publishable API key (the mock accepts any non-empty value). Without it: 400 `not_allowed`, before anything else.',
  schema: { type: 'string', minLength: 1 },
};

/** How a customer is identified: a bearer token, or the session cookie of Medusa's `/auth/session`. */
export const ALPHABITE_SECURITY_SCHEMES: Record<string, JsonSchema> = {
  customerBearer: { type: 'http', scheme: 'bearer', description: 'A customer token (the mock accepts any).' },
  customerSession: { type: 'apiKey', in: 'cookie', name: 'connect.sid', description: 'A customer session cookie (the mock accepts any cookie).' },
};
