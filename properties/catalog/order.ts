/** How the suite compares records under an `order`: by the field's value, ties by id ascending [kit]. */
import { parseReviewOrder } from '../../lib/api-rules.ts';
import { recordKey } from '../context.ts';
import { fail } from '../violation.ts';

export function sortValue(record: unknown, field: string, url: string | undefined): number {
  const raw = (record as Record<string, unknown> | null)?.[field];
  const value = field === 'rating' ? raw : typeof raw === 'string' ? Date.parse(raw) : NaN;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    fail({
      message: `records listed with order=${field} must carry a comparable '${field}'`,
      url,
      field: `${recordKey(record)}.${field}`,
      expected: field === 'rating' ? 'a number' : 'an ISO-8601 timestamp',
      actual: raw,
    });
  }
  return value;
}

/** Negative when `a` must come before `b`; with `tieBreak`, equal values are ordered by id ascending. */
export function compareForOrder(order: string, a: unknown, b: unknown, url: string | undefined, tieBreak: boolean): number {
  const parsed = parseReviewOrder(order);
  if (!parsed) throw new Error(`not an order value: ${order}`);
  const va = sortValue(a, parsed.field, url);
  const vb = sortValue(b, parsed.field, url);
  const byField = parsed.descending ? vb - va : va - vb;
  if (byField !== 0 || !tieBreak) return byField;
  const ia = recordKey(a);
  const ib = recordKey(b);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/** Throws at the first pair of neighbours out of order. */
export function checkSorted(order: string, records: unknown[], sources: string[], tieBreak: boolean, what: string): void {
  for (let i = 1; i < records.length; i++) {
    if (compareForOrder(order, records[i - 1], records[i], sources[i], tieBreak) > 0) {
      const field = parseReviewOrder(order)!.field;
      fail({
        message: `${what} with order=${order} must be sorted by ${field}${order.startsWith('-') ? ' descending' : ' ascending'}${tieBreak ? ', ties by id ascending' : ''}, across pages (sorting applies to the whole set before paging)`,
        url: sources[i],
        field: `records ${i} and ${i + 1} (${recordKey(records[i - 1])}, ${recordKey(records[i])})`,
        expected: 'in order',
        actual: [records[i - 1], records[i]].map((r) => ({ id: recordKey(r), [field]: (r as Record<string, unknown>)[field] })),
        note: sources[i - 1] !== sources[i] ? `record ${i} came from GET ${sources[i - 1]}` : undefined,
      });
    }
  }
}
