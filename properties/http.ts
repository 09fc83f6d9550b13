/**
 * The HTTP side of the property suite: GET a listing, keep the exact request so that a failure
 * can print it (and a curl line), and count requests so that runs stay bounded.
 */

/** Query parameters in order; a name may repeat (the suite sends repeated parameters on purpose). */
export type Query = Array<[string, string]>;

export interface Exchange {
  /** The exact URL requested. */
  url: string;
  status: number;
  contentType: string | null;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * The target cannot be reached, or gives no whole answer in time (as opposed to answering wrongly).
 * `message` is one sentence: "cannot reach <url>: <why>" or "<url>: the server did not finish ...".
 */
export class UnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
    timeoutMs?: number,
    phase: 'request' | 'body' = 'request',
  ) {
    super(unreachableMessage(url, cause, timeoutMs, phase));
    this.name = 'UnreachableError';
  }
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

function unreachableMessage(url: string, cause: unknown, timeoutMs: number | undefined, phase: 'request' | 'body'): string {
  if (isTimeout(cause) && timeoutMs !== undefined) {
    return phase === 'body'
      ? `${url}: the server did not finish its answer within ${timeoutMs} ms (it sent the headers, then too little of the body)`
      : `cannot reach ${url}: no answer within ${timeoutMs} ms`;
  }
  const reason = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
  return phase === 'body' ? `${url}: the answer broke off mid-body (${reason})` : `cannot reach ${url}: ${reason}`;
}

export function buildUrl(baseUrl: string, path: string, query: Query = []): string {
  const base = baseUrl.replace(/\/+$/, '');
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return qs ? `${base}${path}?${qs}` : `${base}${path}`;
}

/** A shell-safe curl line for a GET. */
export function curlLine(url: string): string {
  return `curl -sS '${url.replace(/'/g, `'\\''`)}'`;
}

export interface ClientOptions {
  /** Per-request timeout in milliseconds (default 10 000). */
  timeoutMs?: number;
}

export class ListingClient {
  /** Number of requests sent so far. */
  requests = 0;
  readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  url(path: string, query: Query = []): string {
    return buildUrl(this.baseUrl, path, query);
  }

  async get(path: string, query: Query = []): Promise<Exchange> {
    return this.send('GET', this.url(path, query));
  }

  /** A JSON POST (only for the provider-state door, when dataset variation is asked for). */
  async post(path: string, body: unknown): Promise<Exchange> {
    return this.send('POST', this.url(path), JSON.stringify(body));
  }

  private async send(method: 'GET' | 'POST', url: string, body?: string): Promise<Exchange> {
    this.requests += 1;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new UnreachableError(url, error, this.timeoutMs);
    }
    let text: string;
    try {
      // The timeout covers the body too: a server that sends headers and then drips is cut off here.
      text = await response.text();
    } catch (error) {
      throw new UnreachableError(url, error, this.timeoutMs, 'body');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { url, status: response.status, contentType: response.headers.get('content-type'), text, json };
  }
}
