import { Command, Option } from 'commander';
import { DEFAULT_MAX_PAGE_SIZE, PATHS } from '../lib/api-rules.ts';
import { describeDataset } from '../fixtures/index.ts';
import { startMockServer } from '../mock-server/server.ts';
import { datasetOptions, generateOptionsFrom, integerIn, type DatasetFlags } from './options.ts';

export const DEFAULT_PORT = 9000;
export const DEFAULT_HOST = '127.0.0.1';

interface ServeFlags extends DatasetFlags {
  port: number;
  host: string;
  fixtures?: string;
  maxPageSize: number;
  corsOrigin?: string;
}

export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('start the mock server for the four listing endpoints (Ctrl-C stops it)')
    .addOption(
      new Option('--port <n>', 'port to listen on; 0 picks a free one')
        .env('PORT')
        .argParser(integerIn(0, 65535))
        .default(DEFAULT_PORT),
    )
    .addOption(new Option('--host <host>', 'interface to listen on (0.0.0.0 for every interface)').default(DEFAULT_HOST))
    .addOption(new Option('--fixtures <file>', 'serve the records of a fixtures file (from `fixtures`) instead of generating them').conflicts(['seed', 'reviews', 'products', 'wishlists', 'maxItems']))
    .addOption(new Option('--max-page-size <n>', 'largest limit/take accepted').argParser(integerIn(1, 1_000_000)).default(DEFAULT_MAX_PAGE_SIZE))
    .addOption(new Option('--cors-origin <origins>', 'comma-separated origins allowed by CORS (default: any origin)'));
  for (const option of datasetOptions()) command.addOption(option);
  command.action(async (flags: ServeFlags, cmd: Command) => {
    // commander reports a conflict only for options given on the command line; defaults never conflict.
    const fromFlags = { ...generateOptionsFrom(flags) };
    const mock = await startMockServer({
      ...(flags.fixtures ? { fixtures: flags.fixtures } : fromFlags),
      port: flags.port,
      host: flags.host,
      maxPageSize: flags.maxPageSize,
      ...(flags.corsOrigin ? { corsOrigin: flags.corsOrigin.split(',').map((o) => o.trim()).filter(Boolean) } : {}),
    }).catch((error: Error) => cmd.error(`error: ${error.message}`, { exitCode: 2 }));
    const lines = [
      `store-listing-kit mock server listening on ${mock.url}`,
      `dataset: ${describeDataset(mock.dataset.current.summary)}`,
      ...Object.values(PATHS).map((path) => `  GET ${mock.url}${path}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const stop = () => void mock.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
