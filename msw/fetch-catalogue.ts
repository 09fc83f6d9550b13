/**
 * `fetchCatalogue`: a Medusa backend's products and variants, read once through its store API
 * with the platform's `fetch`, for `createStoreHandlers({ catalogue })` in a browser (or in Node
 * with its global fetch). The paging, the URLs and the answers' shape are
 * fixtures/medusa-catalogue.ts's; this module is the transport: a `fetch` whose every answer is
 * read with a cap on its bytes (a browser's fetch has no limit of its own) and a time limit.
 * No Node built-ins: it runs in a browser bundle.
 */
import type { CatalogueInput } from '../fixtures/catalogue.ts';
import { CatalogueFetchError, fetchMedusaCatalogue, OverBytesError, type GetJson } from '../fixtures/medusa-catalogue.ts';

/**
 * The default cap on one answer's bytes: a page of CATALOGUE_PAGE_SIZE (200) products with only
 * the fields asked for is about 100 KiB with a few variants each, and under 16 MiB even with 400
 * variants each; 32 MiB leaves room and still bounds what a page holds in memory.
 */
export const DEFAULT_CATALOGUE_PAGE_BYTES = 32 * 1024 * 1024;

/** The default time one request may take, its body read to the end. */
export const DEFAULT_CATALOGUE_TIMEOUT_MS = 30_000;

export interface FetchCatalogueOptions {
  /** The backend the storefront calls, e.g. `http://localhost:9000` (a path prefix is kept). */
  baseUrl: string;
  /** A publishable key of the backend (`x-publishable-api-key`): its sales channels' products are the catalogue. */
  publishableKey: string;
  /** The fetch to use (default the global one). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** The most products the catalogue may have (default the most the mock serves, 1,000,000). */
  maxProducts?: number;
  /** The most bytes one answer may have (default DEFAULT_CATALOGUE_PAGE_BYTES, 32 MiB). */
  maxBodyBytes?: number;
  /** The most variants over all the pages (default 1,000,000). */
  maxVariants?: number;
  /** The most bytes of all the pages together (default 256 MiB). */
  maxBytes?: number;
  /** How long one request may take, its body read to the end (default 30 000 ms; at most 2^31 - 1). */
  timeoutMs?: number;
}

/**
 * The backend's catalogue (`GET /store/products`, page by page, with the publishable key), to
 * pass as `createStoreHandlers({ catalogue })`. Call it before the worker starts, or let it pass
 * through a started one: the handlers answer only the plugins' routes. In a browser the backend's
 * `STORE_CORS` must allow the page's origin. Fails with a CatalogueFetchError, one sentence naming
 * the URL, when the backend cannot be reached, answers other than 200, answers something that is
 * not a page of products, or more than the caps allow.
 */
export async function fetchCatalogue(options: FetchCatalogueOptions): Promise<CatalogueInput> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_CATALOGUE_PAGE_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CATALOGUE_TIMEOUT_MS;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw new TypeError(`maxBodyBytes must be a whole number of bytes, at least 1, got ${String(options.maxBodyBytes)}`);
  // A timer's longest delay: a longer one fires at once.
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2_147_483_647) {
    throw new TypeError(`timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got ${String(options.timeoutMs)}`);
  }
  // A local, not a method call: a browser's fetch called as `options.fetch(...)` throws "Illegal invocation".
  const fetchOne = options.fetch ?? globalThis.fetch;
  if (typeof fetchOne !== 'function') throw new TypeError('there is no global fetch here: pass one as the option fetch');
  const getJson: GetJson = async (url, headers, bounds) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let response: Response;
      try {
        response = await fetchOne(url, { headers, signal: controller.signal, redirect: 'follow' });
      } catch (error) {
        throw new Error(controller.signal.aborted ? noAnswerIn(timeoutMs) : unreachable(error));
      }
      // The page's own cap, or what is left of the whole read's (OverBytesError: the caller names its option).
      const cap = Math.min(maxBodyBytes, bounds.maxBytes);
      const { text, bytes } = await readCapped(response, cap, controller.signal, timeoutMs, cap < maxBodyBytes);
      return { status: response.status, json: parsed(text), bytes };
    } finally {
      clearTimeout(timer);
    }
  };
  return fetchMedusaCatalogue(options.baseUrl, options.publishableKey, getJson, {
    ...(options.maxProducts === undefined ? {} : { maxProducts: options.maxProducts }),
    ...(options.maxVariants === undefined ? {} : { maxVariants: options.maxVariants }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
}

/**
 * The body as text and its bytes, read to its end or refused past `max` bytes (the declared length
 * first, then what arrives): with an OverBytesError when `max` is what is left of the whole read's.
 */
async function readCapped(response: Response, max: number, signal: AbortSignal, timeoutMs: number, wholeRead: boolean): Promise<{ text: string; bytes: number }> {
  const over = (declared?: number) => (wholeRead ? new OverBytesError(tooLarge(max, declared)) : new Error(tooLarge(max, declared)));
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => undefined);
    throw over(declared);
  }
  if (!response.body) return { text: '', bytes: 0 };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), bytes: size };
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw over();
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (signal.aborted) throw new Error(noAnswerIn(timeoutMs));
    throw error;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `declared`: the answer's Content-Length; undefined when the body ran past the cap as it arrived. */
function tooLarge(max: number, declared?: number): string {
  const size = declared === undefined ? 'more' : `${declared} bytes, more`;
  return `the answer has ${size} than the ${max} bytes a page of the catalogue may have (the option maxBodyBytes)`;
}

function noAnswerIn(timeoutMs: number): string {
  return `no complete answer within ${timeoutMs} ms (the option timeoutMs)`;
}

/** Why fetch failed; in a browser, a CORS refusal fails the same way and says nothing, so the sentence names it. */
function unreachable(error: unknown): string {
  const said = error instanceof Error ? error.message : String(error);
  return typeof location === 'undefined' ? said : `${said} (a browser fails so too when the backend's STORE_CORS does not allow this page's origin)`;
}

export { CatalogueFetchError };
