import { Command, Option } from 'commander';
import { DEFAULT_MAX_PAGE_SIZE, MAX_MAX_PAGE_SIZE, MIN_MAX_PAGE_SIZE } from '../lib/api-rules.ts';
import { DEFAULT_DIALECT, DIALECT_NAMES, type DialectName } from '../lib/dialects/index.ts';
import { mockOpenApiDocument } from '../mock-server/listings/openapi.ts';
import { httpUrl, integerIn } from './options.ts';

interface OpenApiFlags {
  dialect: DialectName;
  maxPageSize: number;
  serverUrl?: string;
}

/** `store-listing-kit openapi`: the OpenAPI 3.1 document of a dialect on standard output (what `serve` answers at GET /openapi.json); the alphabite one has the write routes too. */
export function registerOpenApiCommand(program: Command): void {
  program
    .command('openapi')
    .description("print the OpenAPI 3.1 document of a dialect (JSON): the listings (examples from the seed-1 dataset) and, in the alphabite dialect, the plugins' write routes; as `serve` answers it at GET /openapi.json")
    .addOption(new Option('--dialect <name>', "the dialect described: 'spec' or 'alphabite' (the published plugins)").choices(DIALECT_NAMES).default(DEFAULT_DIALECT))
    .addOption(new Option('--max-page-size <n>', 'the largest limit/take the described server accepts').argParser(integerIn(MIN_MAX_PAGE_SIZE, MAX_MAX_PAGE_SIZE)).default(DEFAULT_MAX_PAGE_SIZE))
    .addOption(new Option('--server-url <url>', 'the server the document names, an http(s) URL (default http://localhost:9000)').argParser(httpUrl))
    .action((flags: OpenApiFlags) => {
      const document = mockOpenApiDocument({ dialect: flags.dialect, maxPageSize: flags.maxPageSize, ...(flags.serverUrl ? { serverUrl: flags.serverUrl } : {}) });
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    });
}
