/** Runs `store-listing-kit serve` as a child process and waits for its start-up banner. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', '..', 'bin', 'store-listing-kit.js');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** `cli`: the command's script (default: this checkout's bin/store-listing-kit.js). */
export function startServe(args: string[], timeoutMs = 20_000, cli = CLI): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  // 'close', not 'exit': 'exit' can come before the last lines of stdout have been read.
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within ${timeoutMs} ms: ${out}${err}`));
    }, timeoutMs);
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({ child, url: match[1]!, port: Number(match[2]), stdout: () => out, stderr: () => err, exited });
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${out}${err}`));
    });
  });
}

