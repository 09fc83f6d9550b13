/**
 * JUnit XML, the report format CI servers read (Jenkins, GitLab, GitHub test reporters): the
 * document model and its one writer, for every command that writes a JUnit report. Pure (no Node
 * built-ins), so any layer may use it. The shape is the common one of the JUnit XSD that Jenkins
 * and most readers accept: `testsuites > testsuite > (properties?, testcase*)`, and a testcase with
 * at most one `skipped`, `failure` or `error`, then `system-out`.
 */

export type JUnitOutcome =
  | { kind: 'passed' }
  | { kind: 'skipped'; message: string }
  /** The target broke a rule (`failure`) or the case could not run (`error`): a one-line message, a type and the whole story. */
  | { kind: 'failure' | 'error'; message: string; type: string; text: string };

export interface JUnitCase {
  classname: string;
  name: string;
  /** Milliseconds; the `time` attribute is left out when unknown. */
  durationMs?: number;
  outcome: JUnitOutcome;
  /** Anything worth reading beside the verdict (the request, the state...), as `system-out`. */
  output?: string;
}

export interface JUnitSuite {
  name: string;
  durationMs?: number;
  properties?: ReadonlyArray<readonly [name: string, value: string]>;
  cases: readonly JUnitCase[];
}

export interface JUnitReport {
  name: string;
  durationMs?: number;
  suites: readonly JUnitSuite[];
}

/**
 * Characters XML 1.0 cannot carry at all, even as a character reference (C0 controls other than
 * tab, newline and carriage return; U+FFFE, U+FFFF; a lone surrogate): shown as `\uXXXX`, so a
 * reader sees that something was there.
 */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const shownCode = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text content: `&`, `<`, `>` escaped; a carriage return kept as a reference (a parser would turn a raw one into a newline). */
export function xmlText(s: string): string {
  return s
    .replace(NOT_XML, shownCode)
    .replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c]!);
}

/** An attribute value in double quotes: as text, plus both quotes, and tab and line breaks as references (a parser would turn raw ones into spaces). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/["'\t\n]/g, (c) => ({ '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;' })[c]!);
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const time = (ms: number | undefined) => (ms === undefined ? '' : ` time="${seconds(ms)}"`);

function counts(cases: readonly JUnitCase[]): string {
  const n = (kind: JUnitOutcome['kind']) => cases.filter((c) => c.outcome.kind === kind).length;
  return `tests="${cases.length}" failures="${n('failure')}" errors="${n('error')}" skipped="${n('skipped')}"`;
}

function testcase(c: JUnitCase): string[] {
  const open = `    <testcase classname="${xmlAttr(c.classname)}" name="${xmlAttr(c.name)}"${time(c.durationMs)}`;
  const inner: string[] = [];
  const o = c.outcome;
  if (o.kind === 'skipped') inner.push(`      <skipped message="${xmlAttr(o.message)}"/>`);
  if (o.kind === 'failure' || o.kind === 'error') inner.push(`      <${o.kind} message="${xmlAttr(o.message)}" type="${xmlAttr(o.type)}">${xmlText(o.text)}</${o.kind}>`);
  if (c.output !== undefined) inner.push(`      <system-out>${xmlText(c.output)}</system-out>`);
  return inner.length ? [`${open}>`, ...inner, '    </testcase>'] : [`${open}/>`];
}

/** The whole document, UTF-8, ending in a newline. */
export function junitXml(report: JUnitReport): string {
  const all = report.suites.flatMap((s) => s.cases);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xmlAttr(report.name)}" ${counts(all)}${time(report.durationMs)}>`];
  for (const suite of report.suites) {
    out.push(`  <testsuite name="${xmlAttr(suite.name)}" ${counts(suite.cases)}${time(suite.durationMs)}>`);
    if (suite.properties?.length) {
      out.push('    <properties>', ...suite.properties.map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`), '    </properties>');
    }
    for (const c of suite.cases) out.push(...testcase(c));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
