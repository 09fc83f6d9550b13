import { ADMIN_WRITE_HEADER, STATE_LEASE_HEADER, STATE_RUN_HEADER } from '../lib/admin-paths.ts';
import { isObject, type Answer } from '../lib/http.ts';
import { exchange } from './exchange.ts';

/** The runs of this process that may hold a door's provider state now (a setup accepted, no release yet). */
const mayHold = new Set<StateRun>();

/**
 * One run's calls to a provider-state door (`verify`'s state changes, `check --vary-dataset`'s
 * datasets). Each call names the run (STATE_RUN_HEADER), so that a mock lets this run, and only
 * it, hold its provider state from its first setup to its end. When the door says it keeps such
 * holds (STATE_LEASE_HEADER: the kit's mock does), the run sends a heartbeat while it holds a
 * state long. It releases its hold when it ends (one DELETE, whose answer it ignores) once the
 * door said it keeps holds or accepted a setup of this run: a front of the mock (a gateway, a
 * provider that passes its state changes on) may pass the calls on without that header, and the
 * hold would then last until it lapses, refusing the next run. A service that never accepted a
 * setup (nothing to hold) gets only the state changes themselves.
 */
export class StateRun {
  /** How the run names itself, e.g. `verify-1f2e3d4c`. */
  readonly id: string;
  /** Seconds after which the door lets an idle hold lapse; undefined until a door said so. */
  #lapseSeconds: number | undefined;
  /** Whether the door accepted a setup of this run since its last release. */
  #setUp = false;
  /** Setups sent and not yet answered (a signal may end the process meanwhile: the door may take them). */
  #settingUp = 0;

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
    if (action !== 'setup') return this.#send(undefined, { state, params, action });
    mayHold.add(this);
    this.#settingUp += 1;
    try {
      const answer = await this.#send(undefined, { state, params, action });
      if (answer.status >= 200 && answer.status < 300) this.#setUp = true;
      return answer;
    } finally {
      this.#settingUp -= 1;
    }
  }

  /** Ends the run's hold (DELETE), when the door keeps holds or took a setup; errors are the door's to report, not the run's. */
  async release(): Promise<Answer | undefined> {
    mayHold.delete(this);
    if (this.#lapseSeconds === undefined && !this.#setUp && this.#settingUp === 0) return undefined;
    this.#setUp = false;
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
 * Releases the hold of every run of this process that may hold one (for a process that ends on a
 * signal: a run's own `finally` does not run then). Settles within `withinMs` whatever the doors do.
 */
export async function releaseEveryRun(withinMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
  await Promise.race([Promise.all([...mayHold].map((run) => run.release())), late]);
  clearTimeout(timer);
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
