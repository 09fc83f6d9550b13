/** Small helpers for tests that talk to a server over HTTP. */
import { request } from 'node:http';
import { pageStart } from '../../lib/paging.ts';
import { REASON_HEADER } from '../../lib/write-reason.ts';

export interface Fetched {
  status: number;
  contentType: string | null;
  text: string;
  json: any;
  headers: Headers;
}

export async function get(base: string, path: string, init?: RequestInit): Promise<Fetched> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type'), text, json, headers: res.headers };
}

/** What a client sees of an answer, to compare two servers' (the HTTP mock and MSW): status, type, the mock's reason header, body. */
export interface SeenAnswer {
  status: number;
  contentType: string | null;
  reason: string | null;
  body: string;
}

/** Fetches `url` and keeps what a client sees of the answer, its body passed through `mask` (default as it is). */
export async function seenAnswer(url: string, init: RequestInit, mask: (body: string) => string = (body) => body): Promise<SeenAnswer> {
  const res = await fetch(url, init);
  return { status: res.status, contentType: res.headers.get('content-type'), reason: res.headers.get(REASON_HEADER), body: mask(await res.text()) };
}

/** Follows `nextPage` links from the first page, collecting every record: at most `maxPages` requests. */
export async function walk(base: string, path: string, sizeParam: 'limit' | 'take', size: number, extra = '', maxPages = 1000): Promise<any[]> {
  const startParam = sizeParam === 'limit' ? 'offset' : 'skip';
  const key = sizeParam === 'limit' ? 'reviews' : 'data';
  const records: any[] = [];
  let page = 1;
  for (let i = 0; i < maxPages; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const body = (await get(base, `${path}${sep}${sizeParam}=${size}&${startParam}=${pageStart(page, size)}${extra}`)).json;
    records.push(...body[key]);
    if (body.nextPage === undefined || body.nextPage === null) return records;
    page = body.nextPage;
  }
  throw new Error(`walk of ${path} did not end within ${maxPages} pages`);
}

/** A request with exactly these headers and path (no fetch normalisation, no kept-alive socket), answered in full. */
export function exactRequest(base: string, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // The path as given, not parsed as a URL (which would escape what a test means to send raw).
    const { hostname, port } = new URL(base);
    const req = request({ hostname, port, path, method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
