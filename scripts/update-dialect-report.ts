// npm run docs:dialects: rewrites the "What the published plugins break" section of docs/dialects.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { checkAlphabite, reportMarkdown, withReport } from '../test/support/dialect-report.ts';

const file = new URL('../docs/dialects.md', import.meta.url);
writeFileSync(file, withReport(readFileSync(file, 'utf8'), reportMarkdown(await checkAlphabite())));
process.stdout.write('docs/dialects.md: report updated\n');
