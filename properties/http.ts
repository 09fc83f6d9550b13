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

/** The target cannot be reached at all (as opposed to answering wrongly). */
export class UnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    super(`cannot reach ${url}: ${reason}`);
    this.name = 'UnreachableError';
  }
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
      throw new UnreachableError(url, error);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { url, status: response.status, contentType: response.headers.get('content-type'), text, json };
  }
}
