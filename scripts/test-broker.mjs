// `npm run test:broker [-- <vitest arguments>]`: the tests under test/broker/ against the official
// Pact Broker (the pact_broker gem, broker/Gemfile and Gemfile.lock). In order, each step timed:
//   1. the broker's gems, installed with Bundler from broker/Gemfile.lock into a folder outside the
//      repository ($STORE_LISTING_KIT_BROKER_GEMS, default <tmpdir>/store-listing-kit-broker-gems),
//      skipped when `bundle check` finds them there; nokogiri and sqlite3 build against Debian's
//      libxml2, libxslt and SQLite (installed first when missing and this runs as root);
//   2. the kit built (dist/): the tests run its command as users do;
//   3. the broker on a free port on 127.0.0.1, SQLite in a temporary folder, basic auth with a fresh
//      user name and password, until its heartbeat answers;
//   4. vitest with test/vitest.broker.config.ts; the broker's URL and credentials in
//      PACT_BROKER_BASE_URL, PACT_BROKER_USERNAME, PACT_BROKER_PASSWORD.
// The broker and the temporary folder are stopped and removed at the end, also on failure and on
// SIGINT/SIGTERM/SIGHUP (exit 130/143/129). Exit code: the tests' (0 or 1); 2 when the broker could not
// be set up, with one sentence naming the step and the cause.
// `npm run test:broker -- --serve` keeps the broker up until Ctrl-C instead of running the tests.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, tail, timedSteps } from './support/steps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const brokerDir = join(root, 'broker');
const gems = process.env.STORE_LISTING_KIT_BROKER_GEMS ?? join(tmpdir(), 'store-listing-kit-broker-gems');
const work = mkdtempSync(join(tmpdir(), 'store-listing-kit-broker-'));
const say = (line) => process.stdout.write(`::: test:broker: ${line}\n`);

/** Raised by a step that cannot go on: its message is the one sentence the user reads. */
class SetupError extends Error {}

const cleanups = [];
const running = new Set();
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    for (const child of running) kill(child, 'SIGTERM');
    while (cleanups.length > 0) {
      const { name, fn } = cleanups.pop();
      try {
        await fn();
      } catch (error) {
        say(`could not ${name}: ${error.message}`);
      }
    }
    rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.on(signal, () => {
    say(`${signal}: stopping what this run started`);
    void cleanup().finally(() => process.exit(code));
  });
}

/** Ends a child started `detached` (its own process group) with everything it started. */
function kill(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

const { step, times } = timedSteps(say);

/** Runs a command to its end, its output in a log file; a failure names the command and shows the log's end. */
function run(command, args, { cwd = root, env = process.env, log = join(work, 'commands.log') } = {}) {
  return new Promise((resolve, reject) => {
    const fd = openSync(log, 'a');
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
    running.add(child);
    child.on('error', (error) => {
      running.delete(child);
      closeSync(fd);
      reject(new SetupError(`${command} could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      running.delete(child);
      closeSync(fd);
      if (code === 0) resolve();
      else reject(new SetupError(`\`${[command, ...args].join(' ')}\` failed (${signal ?? `exit ${code}`}); its output ends:\n${tail(log, 40)}`));
    });
  });
}

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Debian's packages, installed when missing and this runs as root. */
async function ensureDebianPackages(packages, why) {
  const missing = packages.filter((p) => spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout !== 'install ok installed');
  if (missing.length === 0) return true;
  if (!isRoot || !has('apt-get')) return false;
  say(`installing ${missing.join(', ')} (${why})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
  return true;
}

// Bundler reads these: the Gemfile, where the gems go, the lockfile as it is.
const bundleEnv = {
  ...process.env,
  BUNDLE_GEMFILE: join(brokerDir, 'Gemfile'),
  BUNDLE_PATH: gems,
  BUNDLE_FROZEN: 'true',
  BUNDLE_APP_CONFIG: join(work, 'bundle-config'),
};

// ---- 1. the gems ----
async function installGems() {
  if (!has('ruby') || !has('bundle')) {
    if (!(await ensureDebianPackages(['ruby', 'ruby-dev', 'bundler'], 'the Pact Broker is a Ruby gem'))) {
      throw new SetupError('Ruby and Bundler are not installed: install them (Debian: apt-get install ruby ruby-dev bundler)');
    }
  }
  if (spawnSync('bundle', ['check'], { env: bundleEnv, stdio: 'ignore' }).status === 0) {
    say(`the broker's gems are in ${gems}: install skipped`);
    return;
  }
  const env = { ...bundleEnv };
  // nokogiri and sqlite3 otherwise build their own libxml2, libxslt and SQLite: many minutes on two cores.
  if (await ensureDebianPackages(['libxml2-dev', 'libxslt1-dev', 'libsqlite3-dev', 'pkg-config', 'gcc', 'make'], 'to build the gems nokogiri and sqlite3 against')) {
    env.BUNDLE_BUILD__NOKOGIRI = '--use-system-libraries';
    env.BUNDLE_BUILD__SQLITE3 = '--enable-system-libraries';
  }
  await run('bundle', ['install', '--jobs', '2', '--retry', '2'], { env, log: join(work, 'bundle.log') });
}

// ---- 3. the broker ----
async function startBroker() {
  const port = await freePort();
  const username = `kit-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const log = join(work, 'broker.log');
  const fd = openSync(log, 'a');
  const env = {
    ...bundleEnv,
    // Sequel's URL of an absolute path has four slashes
    PACT_BROKER_DATABASE_URL: `sqlite:///${join(work, 'broker.sqlite3')}`,
    PACT_BROKER_BASIC_AUTH_USERNAME: username,
    PACT_BROKER_BASIC_AUTH_PASSWORD: password,
    // the heartbeat answers without credentials: the readiness probe below needs none
    PACT_BROKER_PUBLIC_HEARTBEAT: 'true',
    PACT_BROKER_BASE_URL: `http://127.0.0.1:${port}`,
    RACK_ENV: 'production',
  };
  const child = spawn('bundle', ['exec', 'puma', '--bind', `tcp://127.0.0.1:${port}`, '--threads', '1:4', join(brokerDir, 'config.ru')], {
    cwd: brokerDir,
    env,
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  running.add(child);
  let exited;
  child.on('exit', (code, signal) => {
    running.delete(child);
    exited = signal ?? `exit ${code}`;
  });
  cleanups.push({
    name: 'stop the broker',
    fn: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        kill(child, 'SIGTERM');
        setTimeout(() => (exited ? undefined : kill(child, 'SIGKILL')), 10_000).unref();
      }),
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited) throw new SetupError(`the broker stopped (${exited}) before it answered; its output ends:\n${tail(log, 40)}`);
    try {
      const response = await fetch(`${url}/diagnostic/status/heartbeat`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new SetupError(`the broker did not answer ${url}/diagnostic/status/heartbeat within 180 s; its output ends:\n${tail(log, 40)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, username, password, log };
}

async function main() {
  const args = process.argv.slice(2);
  const serveOnly = args[0] === '--serve';
  try {
    await step('install the broker\'s gems', installGems);
    await step('build the kit', () => run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--incremental'], { log: join(work, 'build.log') }));
    const broker = await step('start the broker', startBroker);
    say(`broker at ${broker.url} (user ${broker.username}); its log: ${broker.log}`);
    const env = {
      ...process.env,
      PACT_DO_NOT_TRACK: 'true',
      PACT_BROKER_BASE_URL: broker.url,
      PACT_BROKER_USERNAME: broker.username,
      PACT_BROKER_PASSWORD: broker.password,
    };
    if (serveOnly) {
      say(`up until Ctrl-C: PACT_BROKER_BASE_URL=${broker.url} PACT_BROKER_USERNAME=${broker.username} PACT_BROKER_PASSWORD=${broker.password}`);
      await new Promise(() => {});
    }
    const code = await step('the tests', () =>
      new Promise((resolve) => {
        const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
        const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/vitest.broker.config.ts', ...args], { cwd: root, env, stdio: 'inherit' });
        running.add(child);
        child.on('exit', (c, signal) => {
          running.delete(child);
          resolve(signal ? 1 : (c ?? 1));
        });
      }),
    );
    await cleanup();
    say(times.map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(', '));
    process.exit(code === 0 ? 0 : 1);
  } catch (error) {
    const message = error instanceof SetupError ? error.message : `unexpected: ${error.stack ?? error}`;
    process.stderr.write(`test:broker: the Pact Broker could not be set up: ${message}\n`);
    await cleanup();
    process.exit(2);
  }
}

void main();
