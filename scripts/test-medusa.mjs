// `npm run test:medusa [-- <vitest arguments>]`: the tests under test/medusa/ against real backends,
// Medusa 2 with the published plugins, once on each version of TESTED_MEDUSA_VERSIONS
// (lib/dialects/medusa-versions.ts: the oldest the plugins accept and the newest). The app is one
// (medusa-app/medusa-config.js and src/); each version has its own lockfile,
// medusa-app/versions/<version>/package-lock.json. In order, each step timed and its line naming the
// version (`::: test:medusa [2.13.6]: ...`):
//   1. each version's packages: `npm ci --prefer-offline` from its lockfile into a folder of its own
//      outside the checkout, $MEDUSA_APPS_DIR or <tmpdir>/store-listing-kit-medusa-apps/<version>-<the
//      lockfile's hash>-abi<node ABI>, kept for the next run (skipped when it is there), in the one npm
//      cache (the second version reuses what the first downloaded); then the kit is built once (dist/);
//   2. PostgreSQL, one server for every version: with DATABASE_URL, that server (where this user may
//      create databases); else a private cluster in a temporary folder on a free port on 127.0.0.1
//      (`initdb` + `pg_ctl`, run as the `postgres` user when this runs as root), installing Debian's
//      `postgresql` first when it is missing and this runs as root;
//   3. per version, side by side: the app in a temporary folder (medusa-app's files, node_modules
//      linked to the version's install, the kit linked in as `store-listing-kit` for the app's
//      provider-state route, medusa-app/src/api/kit/provider-states/route.js); a fresh database
//      (dropped at the end, so every run starts clean); `medusa db:migrate`; `medusa exec
//      ./src/scripts/seed.js` (sales channels and publishable keys, products, an admin user, and the
//      provider states' storefront: a channel with a catalogue of 10 variants); `medusa start` on a
//      free port on 127.0.0.1, until GET /health answers; customers, reviews and wishlists through the
//      store routes (scripts/medusa-store-seed.mjs);
//   4. per version, one after the other (one backend's tests at a time, the others idle): vitest with
//      test/vitest.medusa.config.ts, named `medusa <version>`; the facts it needs are in the JSON file
//      $MEDUSA_FIXTURE, which also names the other versions' (the baselines test reads them).
// Whatever it started (the Medusas, the cluster, the databases, the temporary folders) it stops and
// removes at the end, also on failure and on Ctrl-C. Exit code: 0 when every version's tests pass;
// 1 when a version's tests fail; 2 when a version's backend could not be set up (the others are set
// up and tested all the same), with one sentence per version naming the step and the cause.
// Options (the rest goes to vitest):
//   --medusa-version <v>   only this version of the list (repeatable);
//   --serve                stop before the tests and keep the backends up until Ctrl-C, for running
//                          test files by hand: MEDUSA_FIXTURE=<printed path> npx vitest run --config
//                          test/vitest.medusa.config.ts <file>;
//   --write-lockfile <v>   write medusa-app/versions/<v>/package-lock.json from medusa-app/package.json
//                          (the template: @medusajs/* at <v>, @mikro-orm/* as @medusajs/deps@<v> pins
//                          them), keeping the versions of a lockfile already there; nothing else runs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedThroughStoreRoutes } from './medusa-store-seed.mjs';
import { readTestedMedusaVersions } from './support/medusa-versions.mjs';
import { freePort, tail as tailOf, timedSteps } from './support/steps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const template = join(root, 'medusa-app');
const lockfileOf = (version) => join(template, 'versions', version, 'package-lock.json');
const appsDir = process.env.MEDUSA_APPS_DIR || join(tmpdir(), 'store-listing-kit-medusa-apps');
const work = mkdtempSync(join(tmpdir(), 'store-listing-kit-medusa-'));
const started = performance.now();
const say = (line, version) => process.stdout.write(`::: test:medusa${version ? ` [${version}]` : ''}: ${line}\n`);

/** Raised by a step that cannot go on: its message is the one sentence the user reads. */
class SetupError extends Error {}
/** Raised for options the script cannot take: its message is the one sentence the user reads. */
class UsageError extends Error {}

// ---- what was started, stopped in reverse order ----
const cleanups = [];
/** How to stop each command under way (run(), the tests), ended first when the run is cut short. */
const running = new Set();
let cleaning;
/** Set by Ctrl-C (or SIGTERM): the steps cut short then are not failures to report. */
let interrupted = false;
function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...running].map((stop) => stop()));
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
/** What a step awaits once a signal came: nothing more is started, the signal handler cleans up and exits. */
const halted = () => new Promise(() => {});
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    interrupted = true;
    say(`${signal}: stopping what this run started`);
    void cleanup().finally(() => process.exit(code));
  });
}

// ---- steps, timed: the run's own, and each version's ----
const steps = timedSteps((line) => say(line));
/** [version or '', step name, seconds] in the order they ended. */
const times = [];
function stepOf(version) {
  const own = timedSteps((line) => say(line, version));
  return async (name, fn) => {
    try {
      return await own.step(name, fn);
    } finally {
      times.push([version, ...own.times.at(-1)]);
    }
  };
}
const step = async (name, fn) => {
  try {
    return await steps.step(name, fn);
  } finally {
    times.push(['', ...steps.times.at(-1)]);
  }
};

/**
 * Runs a command to its end, its output in a log file; a failure names the command and shows the log's end.
 * Once a signal came, only the clean-up's commands (`stopping`) still start.
 */
function run(command, args, { cwd = root, env = process.env, uid, gid, detached = false, log = join(work, 'commands.log'), stopping = false } = {}) {
  if (interrupted && !stopping) return halted();
  return new Promise((resolve, reject) => {
    const fd = openSync(log, 'a');
    const child = spawn(command, args, { cwd, env, uid, gid, detached, stdio: ['ignore', fd, fd] });
    const stop = () => child.kill('SIGTERM');
    running.add(stop);
    child.on('error', (error) => {
      running.delete(stop);
      closeSync(fd);
      reject(new SetupError(`${command} could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      running.delete(stop);
      closeSync(fd);
      if (code === 0) resolve();
      else reject(new SetupError(`\`${[command, ...args].join(' ')}\` failed (${signal ?? `exit ${code}`}); its output ends:\n${tail(log, 40)}`));
    });
  });
}

/** The last lines of a log, without the warning the Medusa CLI prints when ts-node is absent (this app needs none). */
const TS_NODE_NOISE = /^ts-node cannot be loaded[^\n]*\nError: Cannot find module 'ts-node'\n[\s\S]*?\n\}\n/gm;
const tail = (file, lines) => tailOf(file, lines, TS_NODE_NOISE);

// ---- 1. each version's packages ----
/**
 * The version's install: `npm ci` from its lockfile into a folder named by the lockfile's hash and
 * Node's ABI, made under another name and renamed into place once complete, so that a run cut short
 * leaves nothing half-installed there and two runs at once (two checkouts) both end with one whole
 * install. A folder already there is used as it is.
 */
async function installVersion(version, log) {
  const lockFile = lockfileOf(version);
  if (!existsSync(lockFile)) {
    throw new SetupError(`Medusa ${version} has no lockfile, medusa-app/versions/${version}/package-lock.json (write it with \`npm run test:medusa -- --write-lockfile ${version}\`)`);
  }
  const lock = readFileSync(lockFile);
  const { packages } = JSON.parse(lock.toString('utf8'));
  const medusa = packages?.['']?.dependencies?.['@medusajs/medusa'];
  if (medusa !== version) throw new SetupError(`medusa-app/versions/${version}/package-lock.json installs @medusajs/medusa ${medusa ?? '(none)'}, not ${version}`);
  const dir = join(appsDir, `${version}-${createHash('sha256').update(lock).digest('hex').slice(0, 16)}-abi${process.versions.modules}`);
  const complete = join(dir, '.store-listing-kit-complete');
  if (existsSync(complete)) {
    say(`${dir} matches medusa-app/versions/${version}/package-lock.json: install skipped`, version);
    return dir;
  }
  mkdirSync(appsDir, { recursive: true });
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cleanups.push({ name: `remove ${partial}`, fn: () => rmSync(partial, { recursive: true, force: true }) });
  mkdirSync(partial);
  // package.json as the lockfile's root entry says (what `npm ci` checks the lockfile against)
  const { name, version: appVersion, license, engines, dependencies } = packages[''];
  writeFileSync(join(partial, 'package.json'), `${JSON.stringify({ name, version: appVersion, private: true, license, engines, dependencies }, null, 2)}\n`);
  writeFileSync(join(partial, 'package-lock.json'), lock);
  await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: partial, log });
  writeFileSync(join(partial, '.store-listing-kit-complete'), `${new Date().toISOString()} node ${process.version}\n`);
  try {
    renameSync(partial, dir);
  } catch (error) {
    // another run put its own whole install there meanwhile: use that one
    if (!existsSync(complete)) throw new SetupError(`could not move the install of Medusa ${version} into ${dir}: ${error.message}`);
  }
  return dir;
}

/**
 * The app the version runs: medusa-app's files (medusa-config.js, src/) copied into a folder of this
 * run, its node_modules a link to the version's install, and the kit beside it as
 * <folder>/../node_modules/store-listing-kit (found by the route's `require('store-listing-kit/medusa')`;
 * the install stays as npm made it). The kit is this checkout, whose node_modules serve its own
 * dependencies.
 */
function appFolder(version, install) {
  const apps = join(work, 'apps');
  const dir = join(apps, version);
  mkdirSync(dir, { recursive: true });
  cpSync(join(template, 'medusa-config.js'), join(dir, 'medusa-config.js'));
  cpSync(join(template, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(install, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(install, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const kit = join(apps, 'node_modules', 'store-listing-kit');
  if (!existsSync(kit)) {
    mkdirSync(dirname(kit), { recursive: true });
    symlinkSync(root, kit, 'dir');
  }
  return dir;
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
  // stops it in order (the databases first), and not the server behind its back
  await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start'], { env, ...user, detached: true, log: join(dir, 'pg_ctl.log') });
  cleanups.push({ name: 'stop PostgreSQL', fn: () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], { env, ...user, log: join(dir, 'pg_ctl.log'), stopping: true }) });
  say(`PostgreSQL ${bin.split('/').at(-2) ?? ''} on 127.0.0.1:${port}, data in ${data}`);
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

// ---- 3. a fresh database ----
async function createDatabase(serverUrl, version, appDir) {
  const { Client } = createRequire(join(appDir, 'package.json'))('pg');
  const name = `store_listing_kit_medusa_${version.replaceAll('.', '_')}_${process.pid}_${Date.now().toString(36)}`;
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

// ---- Medusa ----
const medusaBinOf = (appDir) => join(appDir, 'node_modules', '.bin', 'medusa');

async function startMedusa(appDir, env, log) {
  const port = await freePort();
  if (interrupted) return halted();
  const fd = openSync(log, 'a');
  // its own process group, so stopping it stops what it spawned
  const child = spawn(medusaBinOf(appDir), ['start', '--host', '127.0.0.1', '--port', String(port)], { cwd: appDir, env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => {
    exited = true;
    resolve(signal ?? `exit ${code}`);
  }));
  cleanups.push({
    name: `stop Medusa (${appDir})`,
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
      if (res.status === 200) return baseUrl;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new SetupError(`medusa start did not answer GET /health within 180 s; its output ends:\n${tail(log, 40)}`);
}

/** The environment of every Medusa command: the database, test secrets, the provider-state route on. */
function medusaEnv(databaseUrl) {
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
  return env;
}

/** One version's backend, from its install to its seeded data: its facts and the file its output goes to. */
async function bringUp(version, install, serverUrl) {
  const step = stepOf(version);
  const logs = join(work, 'logs', version);
  mkdirSync(logs, { recursive: true });
  const appDir = appFolder(version, install);
  const databaseUrl = await step('create a database', () => createDatabase(serverUrl, version, appDir));
  const env = medusaEnv(databaseUrl);
  const medusa = medusaBinOf(appDir);
  await step('medusa db:migrate', () => run(medusa, ['db:migrate'], { cwd: appDir, env, log: join(logs, 'migrate.log') }));
  const catalogFile = join(logs, 'catalog.json');
  await step('medusa exec seed.js (channels, keys, products, admin)', () => run(medusa, ['exec', './src/scripts/seed.js', catalogFile], { cwd: appDir, env, log: join(logs, 'seed.log') }));
  const log = join(logs, 'medusa.log');
  const baseUrl = await step('medusa start', () => startMedusa(appDir, env, log));
  say(`Medusa ${version} on ${baseUrl}`, version);
  const facts = await step('customers, reviews, wishlists through the store routes', async () => {
    try {
      return await seedThroughStoreRoutes(baseUrl, JSON.parse(readFileSync(catalogFile, 'utf8')));
    } catch (error) {
      throw new SetupError(`seeding through the store routes failed: ${error.message}; Medusa's output ends:\n${tail(log, 30)}`);
    }
  });
  say(`${facts.customers.length} customers, ${facts.reviews.length} reviews, ${facts.wishlists.length} wishlists with ${facts.wishlists.reduce((n, w) => n + w.itemIds.length, 0)} items`, version);
  return { facts, log };
}

// ---- 4. the tests ----
function runTests(version, fixture, extraArgs) {
  if (interrupted) return halted();
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  return new Promise((resolve) => {
    // a process group of its own, ended whole with the rest on SIGINT/SIGTERM (cleanup()): vitest's
    // workers and the CLI runs they started too, not left to run against a stopped Medusa
    const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/vitest.medusa.config.ts', ...extraArgs], {
      cwd: root,
      stdio: 'inherit',
      detached: true,
      env: { ...process.env, MEDUSA_FIXTURE: fixture, PACT_DO_NOT_TRACK: 'true' },
    });
    const stop = () => stopGroup(child.pid);
    running.add(stop);
    child.on('exit', (code) => {
      running.delete(stop);
      resolve(code ?? 1);
    });
  });
}

/** SIGTERM to a process group, then SIGKILL to what is left of it after 10 s. */
async function stopGroup(pgid) {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(-pgid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && alive(); waited += 200) await new Promise((r) => setTimeout(r, 200));
  if (alive()) process.kill(-pgid, 'SIGKILL');
}

// ---- --write-lockfile <version> ----
async function writeLockfile(version) {
  const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8'));
  const view = spawnSync('npm', ['view', `@medusajs/deps@${version}`, 'dependencies', '--json'], { encoding: 'utf8' });
  if (view.status !== 0) throw new SetupError(`\`npm view @medusajs/deps@${version} dependencies\` failed: ${view.stderr.trim().split('\n').at(-1)}`);
  const pins = JSON.parse(view.stdout);
  for (const name of Object.keys(pkg.dependencies)) {
    if (name.startsWith('@medusajs/')) pkg.dependencies[name] = version;
    else if (pkg.dependencies[name] === '<@medusajs/deps>') {
      if (!pins[name]) throw new SetupError(`@medusajs/deps@${version} pins no ${name}`);
      pkg.dependencies[name] = pins[name];
    }
  }
  const dir = join(work, 'lockfile');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const target = lockfileOf(version);
  if (existsSync(target)) cpSync(target, join(dir, 'package-lock.json'));
  // every platform's optional packages too (npm ci refuses a lockfile without them)
  await run('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, log: join(work, 'lockfile.log') });
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join(dir, 'package-lock.json'), target);
  say(`wrote ${target}`, version);
}

// ---- the run ----
function parseArgs(argv) {
  const options = { versions: [], serve: false, writeLockfile: undefined, vitest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${arg} needs a Medusa version (x.y.z)`);
      return v;
    };
    if (arg === '--medusa-version') options.versions.push(value());
    else if (arg.startsWith('--medusa-version=')) options.versions.push(arg.slice('--medusa-version='.length));
    else if (arg === '--write-lockfile') options.writeLockfile = value();
    else if (arg === '--serve') options.serve = true;
    else options.vitest.push(arg);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let listed;
  try {
    listed = readTestedMedusaVersions();
  } catch (error) {
    throw new SetupError(error.message);
  }
  if (options.writeLockfile) {
    if (!/^\d+\.\d+\.\d+$/.test(options.writeLockfile)) throw new UsageError(`--write-lockfile takes a Medusa version (x.y.z), got '${options.writeLockfile}'`);
    await step(`write the lockfile of Medusa ${options.writeLockfile}`, () => writeLockfile(options.writeLockfile));
    return 0;
  }
  const unknown = options.versions.filter((v) => !listed.includes(v));
  if (unknown.length > 0) throw new UsageError(`--medusa-version ${unknown.join(', ')} is not in TESTED_MEDUSA_VERSIONS (lib/dialects/medusa-versions.ts: ${listed.join(', ')})`);
  const versions = options.versions.length > 0 ? listed.filter((v) => options.versions.includes(v)) : listed;
  say(`Medusa ${versions.join(' and ')}`);


  const installs = new Map();
  for (const version of versions) {
    // one after the other: the second finds in the npm cache what the first downloaded
    try {
      installs.set(version, await stepOf(version)('install', () => installVersion(version, join(work, `npm-ci-${version}.log`))));
    } catch (error) {
      fail(version, error);
    }
  }
  if (installs.size === 0) return 2;
  await step('build the kit', () => run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--incremental'], { log: join(work, 'build.log') }));
  const serverUrl = process.env.DATABASE_URL
    ? (say(`PostgreSQL from DATABASE_URL: ${redact(process.env.DATABASE_URL)}`), process.env.DATABASE_URL)
    : await step('start PostgreSQL', startPrivateCluster);

  // every backend up side by side (their set-ups overlap), each then tested alone
  const up = new Map();
  await step('set up every backend', () =>
    Promise.all(
      [...installs].map(async ([version, install]) => {
        try {
          up.set(version, await bringUp(version, install, serverUrl));
        } catch (error) {
          fail(version, error);
        }
      }),
    ),
  );
  if (interrupted) await halted();
  const fixtures = new Map([...up.keys()].map((version) => [version, join(work, `fixture-${version}.json`)]));
  for (const [version, { facts, log }] of up) {
    const otherVersions = Object.fromEntries([...fixtures].filter(([v]) => v !== version));
    writeFileSync(fixtures.get(version), `${JSON.stringify({ ...facts, medusaVersion: version, medusaLog: log, otherVersions }, null, 2)}\n`);
  }
  if (options.serve) {
    for (const [version, fixture] of fixtures) say(`serving until Ctrl-C; MEDUSA_FIXTURE=${fixture}`, version);
    for (const [version, reason] of failed) say(`could not be set up: ${reason}`, version);
    await new Promise(() => {});
  }
  let code = 0;
  for (const [version, fixture] of fixtures) {
    const tests = await stepOf(version)('tests', () => runTests(version, fixture, options.vitest));
    if (interrupted) await halted();
    if (tests !== 0) {
      say(`the tests on Medusa ${version} failed; Medusa's output ends:\n${tail(up.get(version).log, 30)}`, version);
      code = Math.max(code, tests === 1 ? 1 : 2);
    }
  }
  return failed.size > 0 ? 2 : code;
}

/** Why a version could not be set up, by version (each said on stderr at the end). */
const failed = new Map();
function fail(version, error) {
  if (interrupted) return;
  failed.set(version, error instanceof SetupError ? error.message : error instanceof Error ? error.stack ?? error.message : String(error));
}

let exitCode;
try {
  exitCode = await main();
} catch (error) {
  if (interrupted) await new Promise(() => {}); // the signal handler cleans up and exits
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(error instanceof UsageError ? `test:medusa: ${reason}\n` : `test:medusa: could not set up the backends: ${reason}\n`);
  exitCode = 2;
} finally {
  await step('stop and clean up', cleanup);
  const versions = [...new Set(times.map(([version]) => version))];
  for (const version of versions) {
    const own = times.filter(([v]) => v === version);
    say(`times: ${own.map(([, name, s]) => `${name} ${s.toFixed(1)} s`).join('; ')}`, version || undefined);
  }
  say(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const [version, reason] of failed) process.stderr.write(`test:medusa: could not set up Medusa ${version}: ${reason}\n`);
}
process.exit(exitCode);
