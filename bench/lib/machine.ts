/** The machine and software a benchmark ran on, for the results. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export interface MachineFacts {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  java: string;
  versions: Record<string, string>;
}

function run(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return '';
  }
}

function packageVersion(root: string, name: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

/** `cores`: counted before the benchmark pinned itself to one core (nproc counts the cores a process may use). */
export function machineFacts(root: string, cores: number, peerVersions: Record<string, string>): MachineFacts {
  const java = run('sh', ['-c', 'java -version 2>&1 | head -1']) || 'not installed';
  const os = run('sh', ['-c', '. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"']) || process.platform;
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${os}, kernel ${run('uname', ['-r'])}`,
    node: process.version,
    java,
    versions: {
      express: packageVersion(root, 'express'),
      autocannon: packageVersion(root, 'autocannon'),
      ...peerVersions,
    },
  };
}
