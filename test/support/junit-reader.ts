import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

/**
 * Reads JUnit XML as a CI server would: libxml2 (xmllint-wasm, the parser behind xmllint) parses it
 * as strict XML 1.0 and validates it against the common JUnit shape (test/support/junit.xsd).
 * Why libxml2: docs/architecture.md ("Reports").
 */

const SCHEMA = { fileName: 'junit.xsd', contents: readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8') };

/** libxml2's complaints about `xml` (not well-formed, or not the JUnit shape); empty when a JUnit reader accepts it. */
export async function junitProblems(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'report.xml', contents: xml }, schema: SCHEMA });
  return result.valid ? [] : result.errors.map((e) => e.message);
}

/** The string value of an XPath 1.0 expression over `xml`, as libxml2 decodes it (entities and character references resolved). */
export async function xpathString(xml: string, expression: string): Promise<string> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    // xmllint --xpath <expression> report.xml: the value on standard output (`normalized`).
    normalization: 'format',
    modifyArguments: (args) => ['--xpath', expression, ...args.filter((a) => a !== '--format')],
  });
  if (result.errors.length) throw new Error(`xmllint: ${result.errors.map((e) => e.message).join('; ')}`);
  // xmllint ends the value with a newline of its own.
  return result.normalized.replace(/\n$/, '');
}
