// `npm run test:medusa [-- <vitest arguments>]`: the tests under test/medusa/ against a real backend,
// Medusa 2 with the published plugins (medusa-app/). In order, each step timed:
//   1. install medusa-app from its package-lock.json (skipped when node_modules already matches it);
//      then build the kit (dist/) and link it in as medusa-app/node_modules/store-listing-kit, for the
//      app's provider-state route (medusa-app/src/api/kit/provider-states/route.js);
//   2. PostgreSQL: with DATABASE_URL, that server (where this user may create databases); else a private cluster in a temporary folder on a
//      free port on 127.0.0.1 (`initdb` + `pg_ctl`, run as the `postgres` user when this runs as
//      root), installing Debian's `postgresql` first when it is missing and this runs as root;
//   3. a fresh database (dropped at the end, so every run starts clean);
//   4. `medusa db:migrate`;
//   5. `medusa exec ./src/scripts/seed.js`: sales channels and publishable keys, products, an admin user
//      (and the provider states' storefront: a channel with a catalogue of 10 variants);
//   6. `medusa start` on a free port on 127.0.0.1, until GET /health answers;
//   7. customers, reviews and wishlists through the store routes (scripts/medusa-store-seed.mjs);
//   8. vitest with test/vitest.medusa.config.ts; the facts it needs are in the JSON file $MEDUSA_FIXTURE.
// Whatever it started (Medusa, the cluster, the database, the temporary folder) it stops and
// removes at the end, also on failure and on Ctrl-C. Exit code: the tests' (0 or 1); 2 when the
// backend could not be set up, with one sentence naming the step and the cause.
// `npm run test:medusa -- --serve` stops before the tests and keeps the backend up until Ctrl-C, for
// running test files against it by hand: MEDUSA_FIXTURE=<printed path> npx vitest run --config
// test/vitest.medusa.config.ts <file>.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedThroughStoreRoutes } from './medusa-store-seed.mjs';
import { freePort, tail as tailOf, timedSteps } from './support/steps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const appDir = join(root, 'medusa-app');
const medusaBin = join(appDir, 'node_modules', '.bin', 'medusa');
const work = mkdtempSync(join(tmpdir(), 'store-listing-kit-medusa-'));
const say = (line) => process.stdout.write(`::: test:medusa: ${line}\n`);

/** Raised by a step that cannot go on: its message is the one sentence the user reads. */
class SetupError extends Error {}

// ---- what was started, stopped in reverse order ----
const cleanups = [];
/** Commands under way (run()), ended first when the run is cut short. */
const running = new Set();
let cleaning;
/** Set by Ctrl-C (or SIGTERM): the steps cut short then are not failures to report. */
let interrupted = false;
function cleanup() {
  cleaning ??= (async () => {
    for (const child of running) child.kill('SIGTERM');
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
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    interrupted = true;
    say(`${signal}: stopping what this run started`);
    void cleanup().finally(() => process.exit(code));
  });
}

// ---- steps, timed ----
const { step, times } = timedSteps(say);

/** Runs a command to its end, its output in a log file; a failure names the command and shows the log's end. */
function run(command, args, { cwd = root, env = process.env, uid, gid, detached = false, log = join(work, 'commands.log') } = {}) {
  return new Promise((resolve, reject) => {
    const fd = openSync(log, 'a');
    const child = spawn(command, args, { cwd, env, uid, gid, detached, stdio: ['ignore', fd, fd] });
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

/** The last lines of a log, without the warning the Medusa CLI prints when ts-node is absent (this app needs none). */
const TS_NODE_NOISE = /^ts-node cannot be loaded[^\n]*\nError: Cannot find module 'ts-node'\n[\s\S]*?\n\}\n/gm;
const tail = (file, lines) => tailOf(file, lines, TS_NODE_NOISE);

// ---- 1. the app's packages ----
async function installApp() {
  const lock = readFileSync(join(appDir, 'package-lock.json'));
  const stamp = join(appDir, 'node_modules', '.store-listing-kit-lock-sha256');
  const want = `${createHash('sha256').update(lock).digest('hex')} node ${process.version}\n`;
  if (existsSync(medusaBin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) {
    say('medusa-app/node_modules matches package-lock.json: install skipped');
    return;
  }
  // `npm install --no-save`, not `npm ci`: the lockfile pins every package this platform installs, but
  // not the other platforms' optional binaries (@rollup/rollup-darwin-arm64, ...), which the registry
  // reachable here does not serve; `npm ci` refuses such a lockfile as out of sync, `npm install`
  // installs the locked versions and leaves the lockfile alone.
  await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: appDir });
  writeFileSync(stamp, want);
}

// ---- 1b. the kit, as the app's dependency ----
// The app's provider-state route is `store-listing-kit/medusa`: the kit built here, linked in (not a
// dependency in medusa-app/package.json, so its lockfile stays the registry's). The link resolves to
// this checkout, whose node_modules serve the kit's own dependencies.
async function linkKit() {
  await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--incremental'], { log: join(work, 'build.log') });
  const link = join(appDir, 'node_modules', 'store-listing-kit');
  rmSync(link, { recursive: true, force: true });
  symlinkSync(join('..', '..'), link, 'dir');
}

// ---- 2. PostgreSQL ----
function postgresBinDir() {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return join(debian, majors[0], 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const initdb = found.stdout.trim();
  return found.status === 0 && initdb && existsSync(join(dirname(initdb), 'pg_ctl')) ? dirname(initdb) : undefined;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

async function ensurePostgresInstalled() {
  let bin = postgresBinDir();
  if (bin) return bin;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    throw new SetupError('PostgreSQL is not installed (no initdb/pg_ctl found): install it (Debian: apt-get install postgresql) or set DATABASE_URL to a server where this user may create databases');
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], { env });
  bin = postgresBinDir();
  if (!bin) throw new SetupError('apt-get installed postgresql, but no initdb/pg_ctl was found under /usr/lib/postgresql');
  return bin;
}

/** A private cluster: its own folder, a free port on 127.0.0.1, trust authentication; stopped and removed at the end. */
async function startPrivateCluster() {
  const bin = await ensurePostgresInstalled();
  let user = {};
  const dir = join(work, 'postgres');
  mkdirSync(dir);
  if (isRoot) {
    // PostgreSQL refuses to run as root: the cluster belongs to the postgres user the package creates.
    const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    const [u, g] = [id('-u'), id('-g')];
    if (u.status !== 0 || g.status !== 0) throw new SetupError('running as root, and there is no `postgres` user to run PostgreSQL as (PostgreSQL refuses root): set DATABASE_URL, or install Debian\'s postgresql package');
    user = { uid: Number(u.stdout), gid: Number(g.stdout) };
    chmodSync(work, 0o711);
    chownSync(dir, user.uid, user.gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const env = { ...process.env, LC_ALL: 'C' };
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'], { env, ...user, log: join(dir, 'initdb.log') });
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  // detached: the server gets its own session, so a Ctrl-C at the terminal reaches this script, which
  // stops it in order (the database first), and not the server behind its back
  await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start'], { env, ...user, detached: true, log: join(dir, 'pg_ctl.log') });
  cleanups.push({ name: 'stop PostgreSQL', fn: () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], { env, ...user, log: join(dir, 'pg_ctl.log') }) });
  say(`PostgreSQL ${bin.split('/').at(-2) ?? ''} on 127.0.0.1:${port}, data in ${data}`);
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

// ---- 3. a fresh database ----
async function createDatabase(serverUrl) {
  const { Client } = createRequire(join(appDir, 'package.json'))('pg');
  const name = `store_listing_kit_medusa_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`CREATE DATABASE "${name}"`);
  } catch (error) {
    throw new SetupError(`could not create a database on ${redact(serverUrl)}: ${error.message}`);
  }
  cleanups.push({ name: `drop database ${name}`, fn: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const redact = (url) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

// ---- 6. Medusa ----
async function startMedusa(env) {
  const port = await freePort();
  const log = join(work, 'medusa.log');
  const fd = openSync(log, 'a');
  // its own process group, so stopping it stops what it spawned
  const child = spawn(medusaBin, ['start', '--host', '127.0.0.1', '--port', String(port)], { cwd: appDir, env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => {
    exited = true;
    resolve(signal ?? `exit ${code}`);
  }));
  cleanups.push({
    name: 'stop Medusa',
    fn: async () => {
      if (exited) return;
      process.kill(-child.pid, 'SIGTERM');
      const stopped = await Promise.race([exit.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
      if (!stopped && !exited) {
        process.kill(-child.pid, 'SIGKILL');
        await exit;
      }
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (exited) throw new SetupError(`medusa start ended (${await exit}) before answering GET /health; its output ends:\n${tail(log, 40)}`);
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return { baseUrl, log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new SetupError(`medusa start did not answer GET /health within 180 s; its output ends:\n${tail(log, 40)}`);
}

// ---- 8. the tests ----
function runTests(fixture, extraArgs) {
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/vitest.medusa.config.ts', ...extraArgs], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, MEDUSA_FIXTURE: fixture, PACT_DO_NOT_TRACK: 'true' },
    });
    // ended with the rest on SIGINT/SIGTERM (cleanup()), not left to run against a stopped Medusa
    running.add(child);
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code ?? 1);
    });
  });
}

async function main() {
  await step('install medusa-app', installApp);
  await step('build the kit and link it into medusa-app', linkKit);
  const serverUrl = process.env.DATABASE_URL
    ? (say(`PostgreSQL from DATABASE_URL: ${redact(process.env.DATABASE_URL)}`), process.env.DATABASE_URL)
    : await step('start PostgreSQL', startPrivateCluster);
  const databaseUrl = await step('create a database', () => createDatabase(serverUrl));
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
    JWT_SECRET: 'store-listing-kit-test-jwt',
    COOKIE_SECRET: 'store-listing-kit-test-cookie',
    STORE_CORS: 'http://127.0.0.1',
    ADMIN_CORS: 'http://127.0.0.1',
    AUTH_CORS: 'http://127.0.0.1',
    MEDUSA_DISABLE_TELEMETRY: 'true',
    DO_NOT_TRACK: '1',
    // the provider-state route (store-listing-kit/medusa) on; its wishlists belong to the first
    // customer scripts/medusa-store-seed.mjs registers, whose token the tests send
    STORE_LISTING_KIT_PROVIDER_STATES: '1',
    STORE_LISTING_KIT_STATES_CUSTOMER: 'shopper@store-listing-kit.test',
    // ...in the third storefront, whose 10 variants are fewer than the largest state needs (25): the
    // route makes the rest as drafts (medusa-app/src/scripts/seed.js, test/medusa/provider-states.medusa.test.ts)
    STORE_LISTING_KIT_STATES_SALES_CHANNEL: 'States storefront',
  };
  delete env.REDIS_URL;
  await step('medusa db:migrate', () => run(medusaBin, ['db:migrate'], { cwd: appDir, env, log: join(work, 'migrate.log') }));
  const catalogFile = join(work, 'catalog.json');
  await step('medusa exec seed.js (channels, keys, products, admin)', () => run(medusaBin, ['exec', './src/scripts/seed.js', catalogFile], { cwd: appDir, env, log: join(work, 'seed.log') }));
  const { baseUrl, log } = await step('medusa start', () => startMedusa(env));
  say(`Medusa on ${baseUrl}`);
  const facts = await step('customers, reviews, wishlists through the store routes', async () => {
    try {
      return await seedThroughStoreRoutes(baseUrl, JSON.parse(readFileSync(catalogFile, 'utf8')));
    } catch (error) {
      throw new SetupError(`seeding through the store routes failed: ${error.message}; Medusa's output ends:\n${tail(log, 30)}`);
    }
  });
  const fixture = join(work, 'fixture.json');
  writeFileSync(fixture, `${JSON.stringify({ ...facts, medusaLog: log }, null, 2)}\n`);
  say(`${facts.customers.length} customers, ${facts.reviews.length} reviews, ${facts.wishlists.length} wishlists with ${facts.wishlists.reduce((n, w) => n + w.itemIds.length, 0)} items`);
  const args = process.argv.slice(2);
  if (args.includes('--serve')) {
    say(`serving until Ctrl-C; MEDUSA_FIXTURE=${fixture}`);
    await new Promise(() => {});
  }
  const code = await step('tests', () => runTests(fixture, args));
  if (code !== 0) say(`the tests failed; Medusa's output ends:\n${tail(log, 30)}`);
  return code;
}

let exitCode;
try {
  exitCode = await main();
} catch (error) {
  if (interrupted) await new Promise(() => {}); // the signal handler cleans up and exits
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`test:medusa: could not set up the backend: ${reason}\n`);
  exitCode = 2;
} finally {
  await step('stop and clean up', cleanup);
  say(`times: ${times.map(([name, s]) => `${name} ${s.toFixed(1)} s`).join('; ')}`);
  say(`total ${times.reduce((n, [, s]) => n + s, 0).toFixed(1)} s`);
}
process.exit(exitCode);
