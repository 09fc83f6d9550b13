/**
 * What the broker tests share: the broker the script started (scripts/test-broker.mjs), Pact's own
 * CLI (`pact-broker`, from @pact-foundation/pact-cli) and the kit's command, each run as CI runs it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export const BROKER = {
  url: required('PACT_BROKER_BASE_URL'),
  username: required('PACT_BROKER_USERNAME'),
  password: required('PACT_BROKER_PASSWORD'),
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests with npm run test:broker`);
  return value;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Pact's own broker client, `pact-broker <args>`, with the broker's URL and credentials in its environment (as a CI job sets them). */
export function pactBroker(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run(join(root, 'node_modules', '.bin', 'pact-broker'), args, { ...process.env, ...env });
}

/** `store-listing-kit <args>`, with the broker's URL and credentials in its environment unless `env` says otherwise. */
export function kit(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run(process.execPath, [join(root, 'bin', 'store-listing-kit.js'), ...args], { ...process.env, ...env });
}

/** The broker's own answer to a GET of its API (the tests look at the matrix with it; the kit never does). */
export async function brokerGet(path: string): Promise<any> {
  const response = await fetch(`${BROKER.url}${path}`, {
    headers: { accept: 'application/hal+json', authorization: `Basic ${Buffer.from(`${BROKER.username}:${BROKER.password}`).toString('base64')}` },
  });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
