import { PUBLISHABLE_KEY_HEADER } from '../lib/dialects/alphabite.ts';
import type { DialectName } from '../lib/dialects/types.ts';
import { bearerToken } from '../lib/customers.ts';
import { consumerNameProblem, type ProviderName } from '../lib/pact-file.ts';
import { LEFT_OUT, leftOutLines, PactBook, type PactBookReport, type PactState } from '../lib/pact-recording.ts';
import { stateByName, STATE_NAMES } from '../lib/provider-states.ts';
import { describeIssues } from '../lib/zod-issues.ts';
import type { Dataset } from '../fixtures/dataset.ts';
import type { GivenCatalogue } from '../fixtures/catalogue.ts';
import { generateOver, STATE_DATASETS, type Generate } from '../fixtures/state-datasets.ts';
import type { StateKey } from '../lib/provider-states.ts';

/**
 * A consumer's own pacts from the MSW handlers (issue 30, as `serve --pact-consumer` from the HTTP
 * mock): `createStoreHandlers({ pact })` answers each listing from the dataset of the provider state
 * set with `pact.given(...)` (the same datasets as the mock's provider-state door), and records every
 * request made under it as lib/pact-recording.ts says. `pact.files()` gives the pact files as data
 * (no Node built-ins here: this runs in browsers); `writePactFiles` of `store-listing-kit/mock-server`
 * writes them in vitest.
 *
 *   const pact = createPactRecording({ consumer: 'my-shop' });
 *   server.use(...createStoreHandlers({ pact }));
 *   beforeEach(() => pact.given('reviews exist', { count: 12 }));
 *   afterAll(() => writePactFiles(pact, './pacts'));
 */
export class PactRecording {
  readonly book: PactBook;
  #state: { state: PactState; key: StateKey; dataset?: Dataset; dirty: boolean } | undefined;

  constructor(consumer: string) {
    const problem = consumerNameProblem(consumer);
    if (problem) throw new TypeError(problem);
    this.book = new PactBook(consumer);
  }

  get consumer(): string {
    return this.book.consumer;
  }

  /**
   * Sets up a provider state for the requests that follow (until the next `given` or `clear`): the
   * handlers answer from its dataset. Throws a TypeError naming the problem for a state outside the
   * kit's vocabulary or bad parameters (a provider could not set it up).
   */
  given(name: string, params: Record<string, unknown> = {}): void {
    const state = stateByName(name);
    if (!state) throw new TypeError(`unknown provider state '${String(name).slice(0, 100)}'; known states: ${STATE_NAMES.map((n) => `'${n}'`).join(', ')}`);
    const parsed = state.params.safeParse(params);
    if (!parsed.success) throw new TypeError(`provider state '${name}': ${describeIssues(parsed.error)}`);
    const valid = parsed.data as Record<string, unknown>;
    this.#state = { state: { name, params: valid }, key: state.key, dirty: false };
  }

  /** Tears the state down: the handlers answer from their own dataset again (requests are then left out). */
  clear(): void {
    this.#state = undefined;
  }

  /**
   * (The handlers) the dataset of the state set up, over the handlers' catalogue when they have one
   * (as the mock's provider-state door builds it); undefined when no state is set up.
   */
  datasetOver(catalogue: GivenCatalogue | undefined): Dataset | undefined {
    const under = this.#state;
    if (!under) return undefined;
    under.dataset ??= (STATE_DATASETS[under.key] as (p: unknown, generate: Generate) => Dataset)(under.state.params, generateOver(catalogue));
    return under.dataset;
  }

  /** What is recorded: interactions per provider, the requests left out and why. */
  report(): PactBookReport {
    return this.book.report();
  }

  /** One line per reason requests were left out (for a test's output). */
  leftOutLines(): string[] {
    return leftOutLines(this.report());
  }

  /**
   * The pact files, as data to write: `existing(name)` gives the text of the file already there
   * (merged with), or undefined. Keys and interactions sorted: the same requests give the same text.
   */
  files(existing: (name: string) => string | undefined = () => undefined): Array<{ name: string; provider: ProviderName; text: string }> {
    return this.book.files(existing);
  }

  /** (The handlers) a listing answered: `url` the path (without the base URL's prefix) and query. */
  recordListing(dialect: DialectName, url: string, headers: Record<string, string>, status: number, body: string | null): void {
    const under = this.#state;
    if (!under) return this.book.leaveOut(LEFT_OUT.noState, 'GET', url);
    if (under.dirty) return this.book.leaveOut(LEFT_OUT.changed, 'GET', url);
    let parsed: unknown;
    try {
      parsed = body === null ? undefined : (JSON.parse(body) as unknown);
    } catch {
      parsed = undefined;
    }
    const sdk = { publishableKey: Boolean(headers[PUBLISHABLE_KEY_HEADER]), bearer: bearerToken(headers['authorization']) !== undefined };
    this.book.record({ dialect, state: under.state, method: 'GET', url, headers: sdk, status, body: parsed });
  }

  /** (The handlers) a write answered: the data under the state is no longer the state's. */
  recordWrite(method: string, url: string, status: number): void {
    if (this.#state && status < 400) this.#state.dirty = true;
    this.book.leaveOut(LEFT_OUT.write, method, url);
  }
}

/** A recording of `consumer`'s pacts, for `createStoreHandlers({ pact })`. */
export function createPactRecording(options: { consumer: string }): PactRecording {
  return new PactRecording(options.consumer);
}
