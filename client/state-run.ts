import { ADMIN_WRITE_HEADER, STATE_LEASE_HEADER, STATE_RUN_HEADER } from '../lib/admin-paths.ts';
import { isObject, type Answer } from '../lib/http.ts';
import { exchange } from './exchange.ts';

/**
 * One run's calls to a provider-state door (`verify`'s state changes, `check --vary-dataset`'s
 * datasets). Each call names the run (STATE_RUN_HEADER), so that a mock lets this run, and only
 * it, hold its provider state from its first setup to its end. When the door says it keeps such
 * holds (STATE_LEASE_HEADER: the kit's mock does), the run sends a heartbeat while it holds a
 * state long, and releases its hold when it ends; to any other service it sends only the state
 * changes themselves.
 */
export class StateRun {
  /** How the run names itself, e.g. `verify-1f2e3d4c`. */
  readonly id: string;
  /** Seconds after which the door lets an idle hold lapse; undefined until a door said so. */
  #lapseSeconds: number | undefined;

  constructor(
    readonly url: string,
    kind: string,
    private readonly timeoutMs: number,
    private readonly headers: Record<string, string> = {},
  ) {
    this.id = `${kind}-${globalThis.crypto.randomUUID().slice(0, 8)}`;
  }

  /** POSTs `{ state, params, action }`; never throws for an answer, only (NoAnswerError) for none. */
  async change(state: string, params: Record<string, unknown>, action: 'setup' | 'teardown'): Promise<Answer> {
    return this.#send(undefined, { state, params, action });
  }

  /** Ends the run's hold (DELETE), when the door keeps holds; errors are the door's to report, not the run's. */
  async release(): Promise<Answer | undefined> {
    if (this.#lapseSeconds === undefined) return undefined;
    return this.#send('DELETE').catch(() => undefined);
  }

  /** Runs `work` with a heartbeat (GET) every third of the lapse time, when the door keeps holds. */
  async holding<T>(work: () => Promise<T>): Promise<T> {
    if (this.#lapseSeconds === undefined) return work();
    const beat = setInterval(() => void this.#send('GET').catch(() => undefined), Math.max(100, (this.#lapseSeconds * 1000) / 3));
    try {
      return await work();
    } finally {
      clearInterval(beat);
    }
  }

  async #send(method?: 'GET' | 'DELETE', body?: unknown): Promise<Answer> {
    // A release has no body: it says it comes from a script (ADMIN_WRITE_HEADER), as the mock's admin API asks of a change.
    const script: Record<string, string> = method === 'DELETE' ? { [ADMIN_WRITE_HEADER]: this.id } : {};
    const answer = await exchange(this.url, this.timeoutMs, body, { ...this.headers, ...script, [STATE_RUN_HEADER]: this.id }, method);
    const lapse = Number(answer.headers?.[STATE_LEASE_HEADER]);
    if (Number.isFinite(lapse) && lapse > 0) this.#lapseSeconds = lapse;
    return answer;
  }
}

/**
 * The sentence that says a state change was refused because another run holds the provider
 * state (a 409), or undefined for any other answer.
 */
export function stateConflict(answer: Answer): string | undefined {
  if (answer.status !== 409) return undefined;
  const message = isObject(answer.json) && typeof answer.json.message === 'string' ? answer.json.message.split('\n')[0]! : undefined;
  if (message?.startsWith('another run holds')) return message;
  return `another run holds the provider state at ${answer.url}: it answered 409${message ? ` (${message.slice(0, 300)})` : ''}`;
}
