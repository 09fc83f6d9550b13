/**
 * The property suite inside vitest: one test per property and endpoint, failing with the same
 * report as `store-listing-kit check` (request, curl line, expected vs actual, replay command).
 *
 *   import { describeListingProperties } from 'store-listing-kit/properties/vitest';
 *   describeListingProperties('our staging backend', { baseUrl: process.env.BASE_URL!, strict: true });
 */
import { beforeAll, describe, it } from 'vitest';
import { PATHS } from '../lib/api-rules.ts';
import type { CheckContext } from './context.ts';
import { randomSeed, resolveOptions, type CheckOptions, type ResolvedOptions } from './options.ts';
import { failureText } from './report.ts';
import { CannotRunError, contextFor, endpointsOf, plannedChecks, replayCommand, runOne } from './runner.ts';
import { UnreachableError } from './http.ts';

export interface VitestListingOptions extends Omit<CheckOptions, 'baseUrl'> {
  /** The target, or a function giving it (called when the tests run, e.g. after a beforeAll started a server). */
  baseUrl: string | (() => string);
  /** Timeout of each test (default 10 minutes: a property is many HTTP requests). */
  testTimeoutMs?: number;
}

export function describeListingProperties(name: string, options: VitestListingOptions): void {
  // The plan (which tests exist) does not depend on the URL, so it is known at collection time.
  const seed = options.seed ?? randomSeed();
  const plan = plannedChecks(resolveOptions({ ...options, seed, baseUrl: 'http://plan.invalid' }));
  describe(`${name} (seed ${seed}${options.strict ? ', strict' : ''})`, () => {
    let ctx: CheckContext | undefined;
    let resolved: ResolvedOptions;
    beforeAll(async () => {
      const baseUrl: unknown = typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl;
      // Named as this function takes it, not as the command line's --base-url.
      if (typeof baseUrl !== 'string' || baseUrl === '') {
        const got = baseUrl === '' ? 'an empty string' : String(baseUrl);
        throw new CannotRunError(`describeListingProperties: give baseUrl (a string, or a function returning one)${typeof options.baseUrl === 'function' ? `; the function returned ${got}` : `; got ${got}`}`);
      }
      resolved = resolveOptions({ ...options, seed, baseUrl });
      ctx = contextFor(resolved);
      try {
        await ctx.client.get(endpointsOf(resolved.dialect).reviews.path());
      } catch (error) {
        if (error instanceof UnreachableError) throw new CannotRunError(`server unreachable: ${error.message}`);
        throw error;
      }
      console.info(`listing properties against ${baseUrl}, seed ${seed}; replay: ${replayCommand(resolved)}`);
    }, 60_000);
    for (const { property, endpoint } of plan) {
      const e = endpointsOf(options.dialect ?? 'spec')[endpoint];
      it(`${property.id} on ${e.section} ${PATHS[endpoint]}`, async (context) => {
        if (!ctx) throw new CannotRunError('the suite did not start (see the beforeAll error)');
        const result = await runOne(ctx, property, endpoint);
        if (result.status === 'skipped') context.skip(result.skipReason);
        if (result.status === 'failed') throw new Error(failureText(result));
      }, options.testTimeoutMs ?? 600_000);
    }
  });
}
