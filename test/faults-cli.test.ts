/** The serve command's fault, admin and logging options, end to end in a child process. */
import { afterEach, describe, expect, it } from 'vitest';
import { CommanderError } from 'commander';
import { buildProgram } from '../cli/main.ts';
import { startServe, type ServeProcess } from './support/cli-process.ts';
import { get } from './support/http.ts';

let serve: ServeProcess | undefined;
afterEach(async () => {
  if (serve) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  serve = undefined;
});

describe('serve fault options', () => {
  it('injects latency and errors from the command line, reports them, and lets the admin API turn them off', async () => {
    serve = await startServe(['--reviews', '10', '--wishlists', '2', '--latency', '1-5', '--error-rate', '1', '--error-status', '503', '--admin-token', 'token-12345']);
    expect(serve.stdout()).toMatch(/faults: latency 1-5 ms, error rate 1 \(status 503\)/);
    expect(serve.stdout()).toMatch(/admin: .*bearer token required/);
    const failed = await get(serve.url, '/store/wishlists');
    expect(failed.status).toBe(503);
    expect(failed.json).toEqual({ type: 'unknown_error', message: 'An unknown error occurred.' });
    const auth = { authorization: 'Bearer token-12345' };
    expect((await get(serve.url, '/__admin/faults', { headers: auth })).json).toMatchObject({ latency: { min: 1, max: 5 }, errorRate: 1, errorStatus: 503 });
    expect((await get(serve.url, '/__admin/faults', { method: 'DELETE', headers: auth })).status).toBe(200);
    expect((await get(serve.url, '/store/wishlists')).status).toBe(200);
    // Quiet by default (warn): no request lines.
    expect(serve.stdout()).not.toMatch(/"msg":"request"/);
  });

  it('keeps --fault-headers (and the --fault-seed draws) when PUT /__admin/faults sets other settings', async () => {
    serve = await startServe(['--reviews', '10', '--wishlists', '2', '--fault-headers', '--fault-seed', '42']);
    const byHeader = async () => (await get(serve!.url, '/store/wishlists', { headers: { 'x-mock-status': '503' } })).status;
    expect(await byHeader()).toBe(503);
    const put = await get(serve.url, '/__admin/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latency: '1-3' }) });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ latency: { min: 1, max: 3 }, headers: true, seed: null, defaultSeed: 42 });
    expect(await byHeader()).toBe(503);
  });

  it('refuses bad option values with a message and exit 2 (cannot run), as every command does', async () => {
    const cases = [
      ['--latency', '400-100', /--latency/],
      ['--error-rate', '1.5', /share from 0 to 1/],
      ['--error-status', '200', /400 to 599/],
      ['--admin-token', 'short', /8 to 256/],
      ['--log-level', 'loud', /Allowed choices/],
    ] as const;
    for (const [flag, value, says] of cases) {
      const result = await parseInProcess(['serve', '--port', '0', flag, value]);
      expect(result.code, `${flag} ${value}`).toBe(2);
      expect(result.stderr, `${flag} ${value}`).toMatch(says);
    }
  });
});

/**
 * Parses the command line in this process (the options are refused before anything starts). The
 * program's own exit override throws, with the exit code the command line would end with.
 */
async function parseInProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  const program = buildProgram();
  let stderr = '';
  for (const command of [program, ...program.commands]) command.configureOutput({ writeErr: (text) => (stderr += text), writeOut: () => {} });
  try {
    await program.parseAsync(['node', 'store-listing-kit', ...args]);
    return { code: 0, stderr };
  } catch (error) {
    if (error instanceof CommanderError) return { code: error.exitCode, stderr };
    throw error;
  }
}
