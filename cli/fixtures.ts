import { closeSync, createWriteStream, openSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Command } from 'commander';
import { generateDataset, writeFixtures } from '../fixtures/index.ts';
import { cannotRun } from './program.ts';
import { datasetOptions, generateOptionsFrom, type DatasetFlags } from './options.ts';
import { recordingOnlyFlags, recordOptions, recordToFile, stdoutUntilClosed, type RecordFlags } from './fixtures-record.ts';

interface FixturesFlags extends DatasetFlags, RecordFlags {
  output?: string;
}

const reason = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  const why: Record<string, string> = { ENOENT: 'no such directory', EACCES: 'permission denied', EISDIR: 'it is a directory', EROFS: 'read-only file system', ENOSPC: 'no space left on the device' };
  return (e.code && why[e.code]) ?? e.message;
};

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
    // Open first, so that a path that cannot be written is one sentence before any work.
    let fd: number;
    try {
      fd = openSync(flags.output, 'w');
    } catch (error) {
      return cannotWrite(error);
    }
    const out = createWriteStream('', { fd });
    try {
      await writeFixtures(dataset, out);
      out.end();
      await finished(out);
    } catch (error) {
      out.destroy();
      closeSync(fd);
      return cannotWrite(error);
    }
  });
}
