/**
 * The start-up comparison: `serve` on the default dataset against a bare Express 5 app started
 * the same way (a node process spawned, timed from spawn to its first 200 answer on the reviews
 * path), interleaved round by round; and the time `import('store-listing-kit')` takes in a fresh
 * process (the root entry as users load it, from the build).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startServer, stopServer } from './processes.ts';
import { median } from './stats.ts';
import { runChild } from './children.ts';

export interface StartupComparison {
  rounds: number;
  /** Spawn to the first 200 answer (medians). */
  expressMs: number;
  serveMs: number;
  /** `await import('store-listing-kit')` inside a fresh process (median). */
  importRootMs: number;
}

export interface StartupSetup {
  root: string;
  work: string;
  cli: string;
  reviewsPath: string;
  core: number | undefined;
  rounds: number;
  log(line: string): void;
}

export async function compareStartup(setup: StartupSetup): Promise<StartupComparison> {
  const body = join(setup.work, 'startup-body.json');
  writeFileSync(body, JSON.stringify({ reviews: [], count: 0 }));
  const common = { core: setup.core, readyPath: setup.reviewsPath, cwd: setup.root, pollMs: 2 };
  const express = async () => {
    const port = await freePort();
    return startServer({ ...common, name: 'startup-express', port, command: process.execPath, args: [join(setup.root, 'bench/ceilings/express.mjs'), String(port), body, setup.reviewsPath], logFile: join(setup.work, 'startup-express.log') });
  };
  const serve = async () => {
    const port = await freePort();
    return startServer({ ...common, name: 'startup-serve', port, command: process.execPath, args: [setup.cli, 'serve', '--host', '127.0.0.1', '--port', String(port)], logFile: join(setup.work, 'startup-serve.log') });
  };
  const importScript = "const t = performance.now(); await import('store-listing-kit'); console.log(performance.now() - t);";
  const samples = { express: [] as number[], serve: [] as number[], importRoot: [] as number[] };
  for (let round = 0; round < setup.rounds; round++) {
    // Alternate which goes first, so neither always finds a warmer machine.
    const order = round % 2 === 0 ? (['express', 'serve'] as const) : (['serve', 'express'] as const);
    for (const which of order) {
      const server = await (which === 'express' ? express() : serve());
      samples[which].push(server.startMs);
      await stopServer(server);
    }
    const imported = await runChild(process.execPath, ['--input-type=module', '-e', importScript], { cwd: setup.root });
    if (imported.code !== 0) throw new Error(`import('store-listing-kit') failed: ${imported.stderr.trim().split('\n')[0] || `exit ${imported.signal ?? imported.code}`}`);
    samples.importRoot.push(Number(imported.stdout.trim()));
    setup.log(`start-up ${round + 1}/${setup.rounds}: express ${samples.express.at(-1)!.toFixed(0)} ms, serve ${samples.serve.at(-1)!.toFixed(0)} ms, import ${samples.importRoot.at(-1)!.toFixed(0)} ms`);
  }
  return { rounds: setup.rounds, expressMs: median(samples.express), serveMs: median(samples.serve), importRootMs: median(samples.importRoot) };
}
