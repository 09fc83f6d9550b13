import etag from 'etag';

/**
 * A serialized answer as the HTTP server sends it: the bytes and the ETag Express would give
 * them. Kept apart from page-bodies.ts, whose answer core runs in browsers too (msw/).
 */
export interface Body {
  bytes: Buffer;
  /** The weak ETag Express itself computes for these bytes (its own `etag` package). */
  etag: string;
}

export function toBody(json: string): Body {
  const bytes = Buffer.from(json, 'utf8');
  return { bytes, etag: etag(bytes, { weak: true }) };
}
