/** Runs `store-listing-kit serve` (or `proxy`) as a child process and waits for its start-up banner. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
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

/** The commands that serve until stopped, each with its banner line `listening on http://127.0.0.1:<port>`. */
export type ServingCommand = 'serve' | 'proxy';

/** `cli`: the command's script (default: this checkout's bin/store-listing-kit.js); `cwd`: where it runs (default this process's folder). */
export function startServe(args: string[], timeoutMs = 20_000, cli = CLI, cwd?: string): Promise<ServeProcess> {
  return startCommand('serve', args, timeoutMs, cli, cwd);
}

/**
 * `store-listing-kit <command> --port 0 <args>` in a child process, resolved once its banner names
 * the port; rejected when it exits first or does not start within `timeoutMs`.
 */
export function startCommand(command: ServingCommand, args: string[], timeoutMs = 20_000, cli = CLI, cwd?: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, command, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  // 'close', not 'exit': 'exit' can come before the last lines of stdout have been read.
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not start within ${timeoutMs} ms: ${out}${err}`));
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
      reject(new Error(`${command} exited (${code}) before listening: ${out}${err}`));
    });
  });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `store-listing-kit <args>` in a child process (in `cwd`, default this one's), to its end; never rejects. Pact's usage tracking is
 * off, and no PACT_BROKER_* variable of the caller's environment reaches it.
 */
export function runCli(args: string[], timeoutMs = 120_000, cwd?: string): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, PACT_DO_NOT_TRACK: 'true' };
  for (const name of Object.keys(env)) if (name.startsWith('PACT_BROKER_')) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, ...(cwd ? { cwd } : {}) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}
