/**
 * `check`'s failures as a baseline records them (lib/baseline.ts): each failing property by its id,
 * the endpoint and the dataset variant it failed on (`--vary-dataset`), with its rule. A property is
 * one rule, so its failure has one kind whatever the counterexample fast-check found with this run's
 * seed: never the counterexample, the message (which quotes values), the seed or the counts.
 */
import { isObject } from '../lib/http.ts';
import type { BaselineFormat } from '../lib/baseline.ts';
import type { CheckReport, PropertyResult } from './runner.ts';

export interface CheckBaselineEntry {
  property: string;
  /** `4.1 GET /store/products/reviews`. */
  endpoint: string;
  /** The dataset variant (`reviews exist {"count":0}`), or absent for the target's own data. */
  dataset?: string;
  /** The rule the property checks, `[spec] <its title>`: for the reader (the property id is what is compared). */
  rule: string;
}

const endpointOf = (r: PropertyResult) => `${r.section} GET ${r.path}`;

function entryOf(r: PropertyResult): CheckBaselineEntry {
  return { property: r.property, endpoint: endpointOf(r), ...(r.dataset ? { dataset: r.dataset } : {}), rule: `[${r.rule}] ${r.title}` };
}

const keyOf = (e: Pick<CheckBaselineEntry, 'property' | 'endpoint' | 'dataset'>) => JSON.stringify([e.property, e.endpoint, e.dataset ?? null]);

/** This run's failures, one entry per failing property, endpoint and dataset. */
export function checkBaselineEntries(report: Pick<CheckReport, 'results'>): CheckBaselineEntry[] {
  return report.results.filter((r) => r.status === 'failed').map(entryOf);
}

/** The keys of the properties that ran and passed in this run. */
export function passedCheckKeys(report: Pick<CheckReport, 'results'>): Set<string> {
  return new Set(report.results.filter((r) => r.status === 'passed').map((r) => keyOf(entryOf(r))));
}

export const CHECK_BASELINE: BaselineFormat<CheckBaselineEntry> = {
  command: 'check',
  parse(value) {
    if (!isObject(value)) return 'not an object';
    for (const field of ['property', 'endpoint', 'rule'] as const) if (typeof value[field] !== 'string' || value[field] === '') return `"${field}" must be a non-empty string`;
    if (value.dataset !== undefined && (typeof value.dataset !== 'string' || value.dataset === '')) return '"dataset" must be a non-empty string when present';
    return { property: value.property as string, endpoint: value.endpoint as string, ...(value.dataset !== undefined ? { dataset: value.dataset as string } : {}), rule: value.rule as string };
  },
  key: keyOf,
  // The property is the kind: one rule.
  kinds: () => [],
  label: (e) => `${e.property} on ${e.endpoint}${e.dataset ? ` [dataset: ${e.dataset}]` : ''}`,
};
