import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import { generateDataset, writeFixtures } from '../fixtures/index.ts';
import { datasetOptions, generateOptionsFrom, type DatasetFlags } from './options.ts';

interface FixturesFlags extends DatasetFlags {
  output?: string;
}

export function registerFixturesCommand(program: Command): void {
  const command = program
    .command('fixtures')
    .description('write a generated dataset as a fixtures file (JSON) that `serve --fixtures` serves')
    .option('-o, --output <file>', 'file to write (default: standard output)');
  for (const option of datasetOptions()) command.addOption(option);
  command.action(async (flags: FixturesFlags) => {
    const dataset = generateDataset(generateOptionsFrom(flags));
    if (!flags.output) {
      await writeFixtures(dataset, process.stdout);
      return;
    }
    const out = createWriteStream(flags.output);
    await writeFixtures(dataset, out);
    out.end();
    await finished(out);
  });
}
