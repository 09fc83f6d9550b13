// What the scripts that set up a real service for a test suite share (test-medusa.mjs, test-broker.mjs):
// timed steps, the end of a log, a free port on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Steps that say their name and their time through `say`; `times` keeps [name, seconds] in order. */
export function timedSteps(say) {
  const times = [];
  async function step(name, fn) {
    const started = performance.now();
    say(name);
    try {
      return await fn();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      times.push([name, seconds]);
      say(`${name} took ${seconds.toFixed(1)} s`);
    }
  }
  return { step, times };
}

/** The last `lines` lines of a log, with what `noise` matches taken out; '(no output)' for none. */
export function tail(file, lines, noise) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '(no output)';
  }
  return (noise ? text.replace(noise, '') : text).trimEnd().split('\n').slice(-lines).join('\n') || '(no output)';
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
