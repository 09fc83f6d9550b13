import { integerParam, QueryError, quote, strictQuery, type QueryPairs } from '../../lib/query.ts';
import type { JournalCursor, JournalQuery } from '../journal/journal.ts';

/**
 * The query of `GET /__admin/journal`: `limit`, `since` (a cursor the journal gave), `path`
 * (text the path contains), `status` (`404` or a class, `4xx`), `customer` (an id), `by` (`mock` or
 * `backend`: who answered) and `violations=1` (only the answers whose check found a rule broken). A
 * bad value throws a QueryError, which the app answers as a 400 `invalid_data` naming the parameter.
 */
export const JOURNAL_FILTERS = ['limit', 'since', 'path', 'status', 'customer', 'by', 'violations'] as const;

const CURSOR = /^[0-9]{1,10}:[0-9]{1,15}(?:,[0-9]{1,10}:[0-9]{1,15}){0,64}$/;

/**
 * A cursor as `cursorOf` (journal.ts) writes it, `pid:seq` comma-separated, as pairs of numbers: plain
 * data that crosses to the workers of a cluster as it is, and compares pids as numbers (`007:3` is
 * process 7's). A process named twice is refused: a cursor the journal gave never does that.
 */
function parseCursor(since: string): JournalCursor {
  if (!CURSOR.test(since)) throw new QueryError(`'since' must be a cursor as the journal answered it ('cursor': pid:seq, comma-separated), got ${quote(since)}`);
  const cursor = since.split(',').map((part) => part.split(':').map(Number) as [number, number]);
  const pids = new Set<number>();
  for (const [pid] of cursor) {
    if (pids.has(pid)) throw new QueryError(`'since' must name each process once, as the journal's 'cursor' does; it names ${pid} twice`);
    pids.add(pid);
  }
  return cursor;
}

export function journalQuery(pairs: QueryPairs, capacity: number): JournalQuery {
  const query = strictQuery(pairs, JOURNAL_FILTERS);
  const held = Math.max(1, capacity);
  const out: JournalQuery = { limit: integerParam(query, 'limit', { min: 1, max: held, fallback: held }) };
  const since = query.get('since');
  if (since !== undefined) out.since = parseCursor(since);
  const path = query.get('path');
  if (path !== undefined) {
    if (path.length === 0 || path.length > 256) throw new QueryError(`'path' must be 1 to 256 characters of the path to look for (the entries whose path contains it), got ${quote(path)}`);
    out.path = path;
  }
  const status = query.get('status');
  if (status !== undefined) {
    if (!/^[1-5](?:[0-9]{2}|xx)$/i.test(status)) throw new QueryError(`'status' must be a status (404) or a class of them (1xx to 5xx), got ${quote(status)}`);
    out.status = status.toLowerCase();
  }
  const customer = query.get('customer');
  if (customer !== undefined) {
    if (!/^[\w-]{1,128}$/.test(customer)) throw new QueryError(`'customer' must be a customer id (letters, digits, _ and -, up to 128), got ${quote(customer)}`);
    out.customer = customer;
  }
  const by = query.get('by');
  if (by !== undefined) {
    if (by !== 'mock' && by !== 'backend') throw new QueryError(`'by' must be mock or backend (who answered the request), got ${quote(by)}`);
    out.by = by;
  }
  const violations = query.get('violations');
  if (violations !== undefined) {
    if (violations !== '1') throw new QueryError(`'violations' must be 1 (only the answers whose check found a rule broken), got ${quote(violations)}`);
    out.violations = true;
  }
  return out;
}
