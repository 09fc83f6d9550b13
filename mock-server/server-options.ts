import type { Server } from 'node:http';
import type { Express } from 'express';
import type { DialectName } from '../lib/dialects/index.ts';
import type { Dataset, GenerateOptions } from '../fixtures/dataset.ts';
import type { Ops } from './state/ops.ts';
import type { FaultSettings } from './state/faults.ts';
import type { DatasetHolder } from './dataset/holder.ts';
import type { Logger } from './helpers/logging.ts';
import type { CatalogueInput } from '../fixtures/catalogue.ts';
import type { BackendAnswerHook } from './backend/hooks.ts';
import type { PactRecorder } from './pacts/recorder.ts';

/**
 * What `startMockServer` takes and gives (server.ts), apart from the server itself, so that the
 * cluster (cluster/start-cluster.ts) can share them without importing the server.
 */

/** How long close() lets in-flight requests finish before cutting connections, by default. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export interface MockServerOptions extends GenerateOptions {
  /** Port to listen on; 0 (the default here) picks a free one. The CLI defaults to 9000. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve this fixtures file instead of generating data (seed and sizes are then not used). */
  fixtures?: string;
  /** Serve this dataset instead of generating one. */
  dataset?: Dataset;
  /** The largest `limit` / `take` accepted (default 1000). */
  maxPageSize?: number;
  /**
   * Origins allowed by CORS on the listings (never on `/__admin`); default any (without credentials).
   * Each is exactly what a browser sends (`http://localhost:3000`: no path, no trailing slash, lower
   * case, no wildcard) or `*`; anything else throws a TypeError that says why.
   */
  corsOrigin?: string | string[];
  /** How the listings speak: `spec` (default) or `alphabite` (the published plugins, bugs included). */
  dialect?: DialectName;
  /**
   * The alphabite dialect only: the backend's publishable keys. A request with another key gets
   * Medusa's 400 `A valid publishable key is required...`; without this, any non-empty key is taken.
   */
  publishableKeys?: string[];
  /**
   * The alphabite dialect only: the Medusa version the plugins run on, x.y.z from 2.13.6 (the oldest they
   * accept) to the newest the kit is tested on (the default; lib/dialects/medusa-versions.ts). The
   * answers that differ between Medusa versions follow it (docs/dialects.md, "Which Medusa version");
   * any other value throws a RangeError naming the range.
   */
  medusaVersion?: string;
  /**
   * The alphabite dialect only: the wishlist plugin's setting `allow_multiple_wishlists` (default
   * false, a fresh install's: `POST /store/wishlists` answers a customer's first wishlist instead of
   * creating a second). docs/writes.md.
   */
  allowMultipleWishlists?: boolean;
  /**
   * The alphabite dialect only: the wishlist plugin's option `shareTokenSecret`, which signs and verifies
   * share tokens (default `MOCK_SHARE_TOKEN_SECRET`, 'store-listing-kit-mock-share-secret'). `''` emulates
   * the option left out, the plugin's default: share answers 500, import 401. docs/writes.md.
   */
  shareTokenSecret?: string;
  /**
   * With a `backend` in the alphabite dialect: where the plugins' data comes from (docs/operations.md).
   * `backend` (the default): each customer's own wishlists with their items, and the reviews, read from
   * the backend's plugin routes with the customer's credentials on their first request, their writes on
   * top in memory; a backend without the plugins (404 on their routes) falls back to generated data.
   * `generated`: data generated over the backend's catalogue, even where the plugins are there.
   */
  pluginData?: 'backend' | 'generated';
  /**
   * Answer kept answers in front of Express (default true): same status, headers and bytes,
   * a fraction of the CPU (mock-server/front/fast-path.ts). `false` sends every request through Express.
   */
  fastPath?: boolean;
  /** Fault and latency injection from the start (default: off; changeable through the admin API). */
  faults?: FaultSettings;
  /** The seed of fault draws when the settings name none (default: the dataset's seed). */
  faultSeed?: number;
  /** Bearer token of the admin API; required for it on a non-loopback host. */
  adminToken?: string;
  /** Requests the admin journal keeps (default 200; 0: none). */
  journalSize?: number;
  /**
   * Bytes the journal keeps of each answer's (and request's) body: default 64 KiB (less for a journal
   * of more than about 7,600 entries, to stay within 1 GiB); 0: none, only their lengths.
   */
  journalBodyBytes?: number;
  /** Structured logs (default: silent). */
  logger?: Logger;
  /** How long close() lets in-flight requests finish before cutting connections (default 10 s). */
  shutdownGraceMs?: number;
  /**
   * After how long without a state change a run's hold on the provider state lapses, tearing its
   * state down (default 30 000 ms; docs/operations.md, "Provider states and reseeds").
   */
  stateLeaseMs?: number;
  /**
   * (issue 28) Every request the mock does not answer goes to this backend and back unchanged
   * (`serve --backend`): http(s) URL, no credentials. In the alphabite dialect its store API's
   * catalogue is what reviews and wishlist items point at.
   */
  backend?: string;
  /** How long the backend may take to send an answer's head (default 30 000 ms): then a 504. */
  backendTimeoutMs?: number;
  /**
   * The most variants a backend's catalogue read may bring, over all its pages (`--catalogue-max-variants`,
   * default 1,000,000; 1 to 20,000,000): past it the read fails (before listening, or the 502 of the
   * requests that wait for it). With a backend in the alphabite dialect only.
   */
  catalogueMaxVariants?: number;
  /** The most bytes of all the pages of a backend's catalogue read (`--catalogue-max-bytes`, default 256 MiB; 1 KiB to 8 GiB), as catalogueMaxVariants. */
  catalogueMaxBytes?: number;
  /** `serve` (default): the mock's routes, the rest to `backend`. `proxy`: only /__admin is the mock's; every other request goes to `backend`. */
  mode?: 'serve' | 'proxy';
  /**
   * Products and variants for reviews and wishlist items instead of generated ones (fixtures/catalogue.ts):
   * the dataset, its reseeds and provider states are generated over it. Not with `products`, `dataset`,
   * `fixtures` or several workers. Without it, in the alphabite dialect with a `backend`, the backend's
   * own catalogue is read (mock-server/backend/catalogue.ts).
   */
  catalogue?: CatalogueInput;
  /** Told of every passed-through answer (the validating proxy checks the listings' with it). */
  onBackendAnswer?: BackendAnswerHook;
  /**
   * (issue 30) Records the requests of this consumer under provider states as its pacts with the two
   * providers (`serve --pact-consumer`): written into `pactDir` on `POST /__admin/pacts` and when the
   * server closes, merged with the files there (docs/contracts.md, "Your own pacts"). One process only.
   */
  pactConsumer?: string;
  /** Where the pacts of `pactConsumer` go (default `./pacts`, from the working directory). */
  pactDir?: string;
}

export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:9000 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The data being served; `replace` / `reset` change it for every client (outside the admin API's lease on provider states). */
  readonly dataset: DatasetHolder;
  readonly app: Express;
  readonly server: Server;
  /** Faults, journal, logger and admin access, as the admin API changes them. */
  readonly ops: Ops;
  /** With `pactConsumer`: the consumer's pacts as recorded (`report()`), the files last written (`lastWritten`). */
  readonly pacts?: PactRecorder;
  /** Stops listening, ends idle keep-alive connections, resolves when closed (with `pactConsumer`: and the pacts written; rejects when they cannot be). */
  close(): Promise<void>;
}
