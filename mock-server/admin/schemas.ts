/**
 * The bodies the admin API takes, checked with zod: `POST /__admin/dataset` and
 * `PUT /__admin/faults`. Loaded by routes.ts on the first such request, so that a mock that never
 * gets one never loads zod.
 */
import { z } from 'zod';
import { SIZE_LIMITS, describeSizeLimit, type DatasetSizes } from '../../fixtures/generate.ts';
import { MAX_DELAY_MS } from '../../lib/fault-headers.ts';
import { describeIssues } from '../../lib/zod-issues.ts';
import { invalidRequest } from '../helpers/errors.ts';
import { parseLatency } from '../state/faults.ts';

const sizeField = (key: keyof DatasetSizes) => {
  const accepted = `must be a whole number ${describeSizeLimit(key)}`;
  return z.number(accepted).int(accepted).min(SIZE_LIMITS[key].min, accepted).max(SIZE_LIMITS[key].max, accepted).optional();
};

/** The body of `POST /__admin/dataset`. */
export const datasetChangeSchema = z
  .object({
    seed: z.number().int().min(0).max(0xffffffff).optional(),
    reviews: sizeField('reviews'),
    products: sizeField('products'),
    wishlists: sizeField('wishlists'),
    maxItems: sizeField('maxItems'),
  })
  .strict();

const delayMs = z.number().int().min(0).max(MAX_DELAY_MS);

/** The body of `PUT /__admin/faults`: any subset; the rest keep their values (faults.ts, mergedFaultSettings). */
export const faultSettingsSchema = z
  .object({
    latency: z
      .union([
        z.object({ min: delayMs, max: delayMs }).strict().refine((r) => r.min <= r.max, { message: "'min' must not exceed 'max'" }),
        z.string().transform((text, ctx) => {
          const range = parseLatency(text);
          if (!range) ctx.addIssue({ code: 'custom', message: `must be '<ms>' or '<min>-<max>' within 0-${MAX_DELAY_MS}` });
          return range ?? { min: 0, max: 0 };
        }),
        z.null(),
      ])
      .optional(),
    errorRate: z.number().min(0).max(1).optional(),
    errorStatus: z.number().int().min(400).max(599).optional(),
    headers: z.boolean().optional(),
    seed: z.number().int().min(0).max(0xffffffff).nullable().optional(),
  })
  .strict();

export type FaultSettingsInput = z.input<typeof faultSettingsSchema>;

/** A validated `POST /__admin/dataset` body, or the documented 400. */
export function parseDatasetChange(body: unknown): z.output<typeof datasetChangeSchema> {
  return parseBody(datasetChangeSchema, body, 'dataset change');
}

/** A validated `PUT /__admin/faults` body, or the documented 400. */
export function parseFaultSettings(body: unknown): z.output<typeof faultSettingsSchema> {
  return parseBody(faultSettingsSchema, body, 'fault settings');
}

function parseBody<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw invalidRequest(`${what}: ${describeIssues(parsed.error)}`);
}
