import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';
import { checkListingAnswer, rulesApplied, type AnswerRule, type RuleViolation } from '../../lib/answer-rules.ts';
import type { DialectName, EndpointName } from '../../lib/dialects/types.ts';
import { jsonTextFacts } from '../../lib/json-text.ts';
import { queryPairs } from '../../lib/query.ts';
import { boundedText, numberJsonCannotHold, quoteText } from '../../lib/quote.ts';
import type { BackendAnswerHook, BackendExchange, BodySink } from './hooks.ts';
import type { Verdicts } from './verdicts.ts';

/**
 * The validating proxy's checker (`store-listing-kit proxy`): a BackendAnswerHook that takes a copy
 * of each passed-through answer of the four listings as it streams to the client (never holding the
 * client's bytes back), and on its end decompresses it, parses it and judges it with
 * `checkListingAnswer` (lib/answer-rules.ts). The verdict goes back to the overlay for the journal
 * entry, and into a Verdicts store for the run's lines and reports.
 *
 * Checked: a GET answered 200 on one of the four listing paths, as the plugins' routes match them
 * (Express: any case, one trailing slash, percent-decoded segments), read on the target the backend
 * got: the exchange's `url` is normalised (lib/request-target.ts), so `//store/...` and `\store\...`
 * are checked as `/store/...`. Not checked: HEAD (no body),
 * another status (not a page), an answer that did not complete.
 */

/** The most of one answer's body the checker holds, as received and again decompressed. */
export const MAX_CHECKED_BODY_BYTES = 64 * 1024 * 1024;
/**
 * The deepest nesting of arrays and objects the checker judges (a listing page nests a few levels,
 * a record's metadata a few more). Every part of the judging is iterative or bounded, so this is
 * not a guard of the stack but a bound on the work and on what a verdict quotes; past it, the
 * answer breaks `answer-too-deep-to-check`.
 */
export const MAX_CHECKED_DEPTH = 256;

export interface AnswerCheckerOptions {
  dialect: DialectName;
  /** The spec dialect's other [kit] rules too, as `check --strict` (the records' shape is judged without it). */
  strict?: boolean;
  verdicts: Verdicts;
  /** The cap on a body (default MAX_CHECKED_BODY_BYTES); past it, `answer-too-large-to-check`. */
  maxBodyBytes?: number;
  /** The cap on a body's nesting (default MAX_CHECKED_DEPTH); past it, `answer-too-deep-to-check`. */
  maxDepth?: number;
}

import { listingOfPath, type ListingTarget } from '../../lib/listing-paths.ts';

export { listingOfPath, type ListingTarget };

/** The path of a normalised request target (lib/request-target.ts): the part before the query. */
function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

/** The envelope rule of a dialect: what a body that is not a listing envelope breaks. */
const envelopeRule = (dialect: DialectName): AnswerRule => (dialect === 'alphabite' ? 'data-envelope' : 'envelope-shape');

const DECODERS: Record<string, (raw: Buffer, options: ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** Why a body could not be read: too large (the cap) or not decodable (a sentence). */
class Unreadable extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/**
 * The body decoded as `Content-Encoding` says (gzip, deflate, br; applied in order, undone last
 * first), never past `max` bytes of output: zlib stops there, off the event loop's thread.
 */
async function decoded(raw: Buffer, contentEncoding: string | undefined, max: number): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let body = raw;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    // The backend's header: up to Node's header limit, so quoted bounded.
    if (!decode) throw new Unreadable(`its Content-Encoding ${quoteText(coding, 60)} is not one the checker reads (gzip, deflate, br)`);
    try {
      body = await decode(body, { maxOutputLength: max });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Unreadable(`it is more than ${max} bytes once decompressed (${coding})`, true);
      throw new Unreadable(`it could not be decompressed as its Content-Encoding '${coding}' says (${(error as Error).message})`);
    }
  }
  return body;
}

function tooLarge(max: number, what: string): RuleViolation {
  return {
    rule: 'answer-too-large-to-check',
    message: `the answer was not checked: ${what}, past the checker's cap`,
    field: 'body',
    expected: `at most ${max} bytes`,
    actual: what,
  };
}

function tooDeep(max: number, ranOut?: string): RuleViolation {
  return {
    rule: 'answer-too-deep-to-check',
    message: ranOut === undefined ? `the answer was not checked: its arrays and objects nest more than ${max} levels deep, past the checker's cap` : `the answer was not checked: judging it ran out of stack (${ranOut})`,
    field: 'body',
    expected: `at most ${max} levels of nesting`,
    actual: ranOut === undefined ? `more than ${max} levels` : 'too deep to judge',
  };
}

/** A value of the answer that JSON.parse read as ±Infinity, named by its lexeme in the body (`1e400`), not as JSON's `null`. */
function withHugeNumbersNamed(violation: RuleViolation, hugeNumbers: readonly string[]): RuleViolation {
  const { actual } = violation;
  return typeof actual === 'number' && !Number.isFinite(actual) ? { ...violation, actual: numberJsonCannotHold(actual, hugeNumbers) } : violation;
}

/** The hook that checks the listings' answers (see above); each verdict is recorded in `verdicts`. */
export function answerChecker(options: AnswerCheckerOptions): BackendAnswerHook {
  const max = options.maxBodyBytes ?? MAX_CHECKED_BODY_BYTES;
  const maxDepth = options.maxDepth ?? MAX_CHECKED_DEPTH;
  const { dialect, verdicts } = options;
  const checkOptions = { strict: options.strict ?? false };
  return (exchange: BackendExchange): BodySink | undefined => {
    if (exchange.method !== 'GET' || exchange.status !== 200) return undefined;
    const target = listingOfPath(pathOf(exchange.url));
    if (!target) return undefined;
    let chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const judge = async (): Promise<{ applied: AnswerRule[]; violations: RuleViolation[] }> => {
      if (received > max) return { applied: ['answer-too-large-to-check'], violations: [tooLarge(max, `${received} bytes or more as received`)] };
      let text: string;
      try {
        const encoding = exchange.responseHeaders['content-encoding'];
        text = (await decoded(Buffer.concat(chunks, received), Array.isArray(encoding) ? encoding.join(',') : encoding, max)).toString('utf8');
      } catch (error) {
        if (!(error instanceof Unreadable)) throw error;
        if (error.tooLarge) return { applied: ['answer-too-large-to-check'], violations: [tooLarge(max, error.message)] };
        const rule = envelopeRule(dialect);
        return { applied: [rule], violations: [{ rule, message: `the answer must be a JSON envelope, and ${error.message}`, field: 'body', expected: 'a JSON object', actual: 'an undecodable body' }] };
      } finally {
        chunks = [];
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        const rule = envelopeRule(dialect);
        const start = text.length > 80 ? `${text.slice(0, 80)}...` : text;
        const contentType = exchange.responseHeaders['content-type'];
        return { applied: [rule], violations: [{ rule, message: `the answer must be a JSON envelope, and its body is not JSON (${boundedText((error as Error).message)})`, field: 'body', expected: 'a JSON object', actual: start, note: `Content-Type ${contentType === undefined ? '(none)' : boundedText(String(contentType), 100)}` }] };
      }
      // JSON.parse is iterative, the rules and the quotes too; past the checker's depth the answer is not judged.
      const facts = jsonTextFacts(text, maxDepth);
      if (facts.depth > maxDepth) return { applied: ['answer-too-deep-to-check'], violations: [tooDeep(maxDepth)] };
      const answer = {
        ...target,
        query: queryPairs(exchange.url),
        status: exchange.status,
        contentType: exchange.responseHeaders['content-type'] ?? null,
        body,
      };
      const violations = checkListingAnswer(dialect, answer, checkOptions).map((v) => withHugeNumbersNamed(v, facts.hugeNumbers));
      return { applied: rulesApplied(dialect, answer, checkOptions), violations };
    };
    return {
      write(chunk: Buffer) {
        if (done) return;
        received += chunk.length;
        if (received > max) chunks = [];
        else chunks.push(chunk);
      },
      end() {
        if (done) return Promise.resolve(undefined);
        done = true;
        // Tracked until recorded: the proxy's reports wait for every answer whose body has ended.
        return verdicts.track(
          judge()
            .catch((error: unknown) => {
              // The judging is iterative and bounded (MAX_CHECKED_DEPTH); should a stack still run out, the verdict says so rather than being lost.
              if (!(error instanceof RangeError)) throw error;
              return { applied: ['answer-too-deep-to-check' as AnswerRule], violations: [tooDeep(maxDepth, boundedText(error.message))] };
            })
            .then(({ applied, violations }) => {
              verdicts.record({ method: exchange.method, path: exchange.url, endpoint: target.endpoint, applied, violations });
              return { violations };
            }),
        );
      },
      abort() {
        done = true;
        chunks = [];
      },
    };
  };
}
