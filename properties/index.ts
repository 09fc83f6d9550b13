/**
 * The property suite's programmatic API, for a team's own tooling:
 *
 *   const report = await runListingProperties({ baseUrl, strict: true, runs: 50, seed: 1 });
 *   if (!report.passed) console.error(summaryText(report));
 *
 * For vitest, see ./vitest.ts (describeListingProperties).
 */
export { runListingProperties, runOne, plannedChecks, replayCommand, CannotRunError } from './runner.ts';
export type { CheckReport, PropertyResult, Status, RunHooks } from './runner.ts';
export { resolveOptions, randomSeed, DEFAULTS, type CheckOptions, type CheckDialect, type ResolvedOptions } from './options.ts';
export { PROPERTIES, PROPERTY_IDS, ALPHABITE_PROPERTIES, ALPHABITE_PROPERTY_IDS } from './catalog/index.ts';
export type { ListingProperty, Rule } from './property.ts';
export { ENDPOINTS, parseEndpointList, type ListingEndpoint, type EndpointName } from './endpoints.ts';
export { fullText, failureText, summaryText, resultLine, headerLine, jsonReport, junitReport } from './report.ts';
export { Violation, type ViolationDetail } from './violation.ts';
export { CheckContext } from './context.ts';
export { windowArb, sizeArb, startArb, walkSizeArb } from './generators.ts';
