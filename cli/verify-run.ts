import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import type { ProviderResult, VerifyOptions } from '../contracts/verify.ts';
import type { WorkerAnswer } from './verify-worker.ts';

/**
 * Runs Pact's verifier in a child process (cli/verify-worker.ts) so that its report, which its native
 * core prints to standard output in colour whatever the output is, goes where the user asked: nowhere
 * by default (the kit prints its own summary), to this process's output with `--verbose` (without
 * colour codes unless the output is a terminal that wants colour), into a file with `--pact-log`.
 */

/** Where Pact's report goes: each is optional; `colour` keeps the escape codes on `terminal`. */
export interface PactReportSinks {
  terminal?: { out: Writable; err: Writable; colour: boolean };
  file?: Writable;
}

export type VerifyRunAnswer = { results: ProviderResult[] } | { cannotRun: string };

/** The last lines of Pact's output kept to explain a worker that ends without an answer. */
const TAIL_LINES = 5;

const workerUrl = () => new URL(`./verify-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** The most of one unfinished line kept between chunks: past it, the text goes on as it is (a provider's huge body in a mismatch line must not grow this process without bound). */
export const LINE_BYTES_KEPT = 1024 * 1024;
/** The most of each tail line kept. */
const TAIL_LINE_CHARS = 1000;

/** Splits a stream's text into whole lines for `each`, the rest kept for the next chunk (an escape code never spans a line), at most LINE_BYTES_KEPT of it. */
export function lines(each: (line: string) => void): { push(chunk: string): void; end(): void } {
  let rest = '';
  return {
    push(chunk) {
      const text = rest + chunk;
      const cut = text.lastIndexOf('\n') + 1;
      rest = text.slice(cut);
      if (cut > 0) each(text.slice(0, cut));
      if (rest.length > LINE_BYTES_KEPT) {
        each(rest);
        rest = '';
      }
    },
    end() {
      if (rest) each(rest);
      rest = '';
    },
  };
}

/**
 * Verifies in the worker; resolves with its results, or with the sentence saying why it cannot run.
 * A worker that ends without an answer (killed, a crash of the native core) rejects with one sentence.
 */
export function verifyInWorker(options: VerifyOptions, sinks: PactReportSinks): Promise<VerifyRunAnswer> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(workerUrl())], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: process.env });
  // The worker ends with this process (e.g. Ctrl-C, or a reader that left: program.ts).
  const stop = () => child.kill();
  let received: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => {
    received = signal;
    child.kill(signal);
  };
  process.on('exit', stop).on('SIGINT', forward).on('SIGTERM', forward);
  const tail: string[] = [];
  const streams = (['stdout', 'stderr'] as const).map((name) => {
    const to = name === 'stdout' ? sinks.terminal?.out : sinks.terminal?.err;
    const splitter = lines((text) => {
      const plain = stripVTControlCharacters(text);
      if (to) to.write(sinks.terminal!.colour ? text : plain);
      sinks.file?.write(plain);
      for (const line of plain.split('\n').filter((l) => l.trim())) {
        tail.push(line.slice(0, TAIL_LINE_CHARS));
        if (tail.length > TAIL_LINES) tail.shift();
      }
    });
    const from = child[name]!;
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => splitter.push(chunk));
    return new Promise<void>((resolve) => from.on('end', () => (splitter.end(), resolve())));
  });
  let answer: WorkerAnswer | undefined;
  child.on('message', (message: WorkerAnswer) => (answer = message));
  child.send(options);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new Error(`cannot start Pact's verifier: ${error.message}`)));
    child.on('close', (code, signal) => {
      process.off('exit', stop).off('SIGINT', forward).off('SIGTERM', forward);
      // Stopped by a signal: this process ends the same way, as it would have without the worker.
      if (received) process.kill(process.pid, received);
      void Promise.all(streams).then(() => {
        if (answer && 'results' in answer) return resolve({ results: answer.results });
        if (answer && 'cannotRun' in answer) return resolve({ cannotRun: answer.cannotRun });
        const why = answer ? answer.crashed : `it ended (${signal ?? `exit ${code}`}) without a result`;
        const last = tail.at(-1);
        reject(new Error(`Pact's verifier failed: ${why}${last ? `; its last words: ${last.trim().slice(0, 300)}` : ''} (its whole output: --verbose or --pact-log <file>)`));
      });
    });
  });
}
