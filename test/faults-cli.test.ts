/** The serve command's fault, admin and logging options, end to end in a child process. */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from './support/cli-process.ts';
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

  it('refuses bad option values with a message and a non-zero exit', async () => {
    const cases = [
      ['--latency', '400-100', /--latency/],
      ['--error-rate', '1.5', /share from 0 to 1/],
      ['--error-status', '200', /400 to 599/],
      ['--admin-token', 'short', /8 to 256/],
      ['--log-level', 'loud', /Allowed choices/],
    ] as const;
    const results = await Promise.all(cases.map(([flag, value]) => runCli(['serve', '--port', '0', flag, value])));
    cases.forEach(([flag, value, says], i) => {
      expect(results[i]!.code, `${flag} ${value}`).not.toBe(0);
      expect(results[i]!.stderr, `${flag} ${value}`).toMatch(says);
    });
  });
});
