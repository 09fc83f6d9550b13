/**
 * The reports of a verification (`store-listing-kit verify --json <file> --junit <file>`): one
 * test case per interaction, in one suite per pact (consumer and provider). The JSON shape is
 * documented in docs/contracts.md ("Reports for CI"); the JUnit XML is written by lib/junit.ts.
 */
import { junitXml, type JUnitCase, type JUnitSuite } from '../lib/junit.ts';
import { printableJson } from '../lib/quote.ts';
import { requestLine, stateLine, type InteractionOutcome } from './outcomes.ts';
import type { ProviderResult } from './verify.ts';

/** A finished verification: what was verified, where the pacts came from, and each provider's result. */
export interface VerifyRun {
  providerBaseUrl: string;
  dialect: string;
  /** A pact directory, or a broker (its URL without any user name or password in it). */
  source: { pactDir: string } | { brokerUrl: string };
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  results: readonly ProviderResult[];
}

/** The version of the JSON report's shape; raised when a field changes meaning or goes away. */
export const VERIFY_REPORT_VERSION = 1;

/** A broker URL as a report may show it: without credentials. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return url;
  }
}

const count = (outcomes: readonly InteractionOutcome[], status: InteractionOutcome['status']) => outcomes.filter((o) => o.status === status).length;

/** The JSON report: the run, and per pact each interaction's verdict, mismatches, state, request and time. */
export function verifyJsonReport(run: VerifyRun): string {
  const all = run.results.flatMap((r) => r.interactions);
  // What JSON leaves raw that a terminal would act on (bidi, C1) is escaped: the same JSON value.
  return `${printableJson(JSON.stringify(
    {
      version: VERIFY_REPORT_VERSION,
      tool: 'store-listing-kit verify',
      providerBaseUrl: run.providerBaseUrl,
      dialect: run.dialect,
      source: 'brokerUrl' in run.source ? { brokerUrl: shownUrl(run.source.brokerUrl) } : run.source,
      startedAt: run.startedAt,
      durationMs: run.durationMs,
      passed: run.results.every((r) => r.ok),
      counts: { interactions: all.length, passed: count(all, 'passed'), failed: count(all, 'failed'), pending: count(all, 'pending') },
      pacts: run.results.map((r) => ({
        consumer: r.consumer,
        provider: r.provider,
        passed: r.ok,
        durationMs: r.durationMs,
        ...(r.error !== undefined ? { error: r.error } : {}),
        stateErrors: r.stateErrors ?? [],
        interactions: r.interactions.map((o) => ({
          description: o.description,
          status: o.status,
          states: o.states,
          request: o.request ?? null,
          durationMs: o.durationMs ?? null,
          mismatches: o.mismatches,
          stateErrors: o.stateErrors,
          ...(o.error !== undefined ? { error: o.error } : {}),
        })),
      })),
    },
    null,
    2,
  ))}\n`;
}

/** Everything said about one interaction, as the failure's text and the case's output. */
function details(o: InteractionOutcome): string[] {
  const lines = [];
  if (o.states.length) lines.push(...o.states.map((s) => `given:    ${stateLine(s)}`));
  if (o.request) lines.push(`request:  ${requestLine(o.request)}`);
  return lines;
}

function junitCase(r: ProviderResult, o: InteractionOutcome): JUnitCase {
  const base = { classname: `store-listing-kit.verify.${r.consumer}.${r.provider}`, name: o.description, ...(o.durationMs !== undefined ? { durationMs: o.durationMs } : {}) };
  const context = details(o);
  if (o.status === 'passed') return { ...base, outcome: { kind: 'passed' }, ...(context.length ? { output: context.join('\n') } : {}) };
  const why = [...o.mismatches, ...o.stateErrors.map((e) => `state change ${e}`), ...(o.error ? [o.error] : [])];
  const message = why.length === 1 ? why[0]!.split('\n')[0]! : `${why.length} problems: ${why[0]!.split('\n')[0]!}, ...`;
  if (o.status === 'pending') return { ...base, outcome: { kind: 'skipped', message: `pending pact, fails without failing the run: ${message}` }, output: [...why, ...context].join('\n') };
  const type = o.mismatches.length ? 'ContractMismatch' : o.stateErrors.length ? 'StateChangeFailed' : 'NotVerified';
  return { ...base, outcome: { kind: 'failure', message, type, text: [...why, '', ...context].join('\n').trimEnd() } };
}

/** A provider's failure that no interaction carries (a broker's pacts not replayed, an unclaimed state change): one more case, so the report fails as the run does. */
function providerCase(r: ProviderResult): JUnitCase | undefined {
  const unclaimed = r.unclaimedStateErrors ?? [];
  const carried = r.interactions.some((o) => o.status === 'failed');
  if (unclaimed.length === 0 && (r.ok || carried)) return undefined;
  const why = [...unclaimed.map((e) => `state change ${e}`), ...(r.error && !carried ? [r.error] : [])];
  if (why.length === 0) why.push('the verification failed (see Pact\'s report)');
  return {
    classname: `store-listing-kit.verify.${r.consumer}.${r.provider}`,
    name: unclaimed.length ? '(provider states)' : '(verification)',
    outcome: { kind: 'failure', message: why[0]!.split('\n')[0]!, type: unclaimed.length ? 'StateChangeFailed' : 'NotVerified', text: why.join('\n') },
  };
}

/** JUnit XML: one testsuite per pact (consumer and provider), one testcase per interaction. */
export function verifyJunitReport(run: VerifyRun): string {
  const source = 'brokerUrl' in run.source ? shownUrl(run.source.brokerUrl) : run.source.pactDir;
  const suites = run.results.map((r): JUnitSuite => {
    const extra = providerCase(r);
    return {
      name: `${r.consumer} -> ${r.provider}`,
      durationMs: r.durationMs,
      properties: [
        ['consumer', r.consumer],
        ['provider', r.provider],
        ['providerBaseUrl', run.providerBaseUrl],
        ['dialect', run.dialect],
        ['pacts', source],
      ],
      cases: [...r.interactions.map((o) => junitCase(r, o)), ...(extra ? [extra] : [])],
    };
  });
  return junitXml({ name: 'store-listing-kit verify', durationMs: run.durationMs, suites });
}
