import { Command } from 'commander';
import { generateDataset, writeFixtures } from '../fixtures/index.ts';
import { claimOutputFile, reason, writeOutputStream } from '../files/output-file.ts';
import { cannotRun } from './program.ts';
import { datasetOptions, generateOptionsFrom, type DatasetFlags } from './options.ts';
import { recordingOnlyFlags, recordOptions, recordToFile, stdoutUntilClosed, type RecordFlags } from './fixtures-record.ts';

interface FixturesFlags extends DatasetFlags, RecordFlags {
  output?: string;
}

export function registerFixturesCommand(program: Command): void {
  const command = program
    .command('fixtures')
    .description('write a generated dataset, or a recording of a running backend (--from), as a fixtures file (JSON) that `serve --fixtures` serves')
    .option('-o, --output <file>', 'file to write (default: standard output)');
  for (const option of [...datasetOptions(), ...recordOptions()]) command.addOption(option);
  command.action(async (flags: FixturesFlags) => {
    if (flags.from !== undefined) return recordToFile({ ...flags, from: flags.from });
    const ignored = recordingOnlyFlags(flags);
    if (ignored.length) return cannotRun(`${ignored.join(', ')} ${ignored.length > 1 ? 'go' : 'goes'} with --from (recording a backend)`);
    const cannotWrite = (error: unknown): never => cannotRun(`cannot write ${flags.output}: ${reason(error)}`);
    const dataset = generateDataset(generateOptionsFrom(flags));
    if (!flags.output) {
      await writeFixtures(dataset, stdoutUntilClosed());
      return;
    }
    // Claimed first (files/output-file.ts), so that a path that cannot be written is one sentence
    // before any work; written whole, so that a write that fails leaves an earlier file as it was.
    try {
      const target = claimOutputFile(flags.output);
      await writeOutputStream(flags.output, (out) => writeFixtures(dataset, out), target);
    } catch (error) {
      return cannotWrite(error);
    }
  });
}
