/**
 * A throwaway PostgreSQL for the tests: `startPostgres()` makes one cluster from Debian's
 * packages (initdb in a temp dir, a free port on 127.0.0.1, the unix socket in the temp dir, fsync off)
 * and `stop()` ends it and deletes the dir. PostgreSQL refuses to run as root, and CI runs as root: then
 * the cluster runs as the `postgres` user (`runuser`), in a dir that user owns.
 *
 * One cluster serves a whole vitest run (test/support/postgres-setup.ts, a globalSetup, passes its URL
 * to the test files with provide/inject); each test file, or each app a test builds, gets its own
 * database (`freshDatabaseUrl()`), so files run in parallel without seeing each other's rows.
 *
 * Without the binaries the PostgreSQL suites are skipped with one loud reason; with CI set that is an
 * error instead (`.ci/run` installs the `postgresql` package).
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string; // the throwaway cluster's admin URL, '' when there is none
    postgresMissing: string; // why there is none, '' when there is one
  }
}

const PG_ROOT = '/usr/lib/postgresql';

/** The bin dir of the newest PostgreSQL installed (MAHJONG_PG_BIN overrides), or undefined. */
export function postgresBin(): string | undefined {
  const given = process.env.MAHJONG_PG_BIN;
  if (given) return existsSync(join(given, 'initdb')) ? given : undefined;
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(PG_ROOT, versions[0], 'bin');
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  const bin = postgresBin();
  if (!bin) return `no PostgreSQL server binaries under ${PG_ROOT}/*/bin (apt-get install postgresql)`;
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'running as root and there is no `postgres` user to run PostgreSQL as';
  return undefined;
}

export interface RunningPostgres {
  url: string; // postgres://postgres:…@127.0.0.1:PORT/postgres (the admin database)
  /**
   * `pg_ctl restart -m fast` (as an operator restarts it: every session ended, then started again on the same
   * port and files); resolves once it accepts connections again. Asynchronous: the caller's load goes on meanwhile.
   */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, then `work` while it is down, then started again as before; resolves once it accepts connections. */
  down(work: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a throwaway cluster; `stop()` ends it and deletes its files. */
export async function startPostgres(): Promise<RunningPostgres> {
  const missing = postgresMissing();
  if (missing) throw new Error(`cannot start PostgreSQL: ${missing}`);
  const bin = postgresBin()!;
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, cmd),
      asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args,
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  const dir = mkdtempSync(join(tmpdir(), 'mahjong-pg-'));
  chmodSync(dir, 0o700);
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (asRoot) execFileSync('chown', ['postgres:postgres', pwfile]);
  const data = join(dir, 'data');
  const port = await freePort();
  const options = [
    '-c listen_addresses=127.0.0.1',
    `-c port=${port}`,
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off', // a throwaway cluster: speed over durability
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300', // parallel test files, each app with its pool
    '-c shared_buffers=32MB',
  ].join(' ');
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--no-sync',
    ]);
    run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${stderr.trim() || (error as Error).message}`, { cause: error });
  }
  // A watchdog: if this process dies without stop() (killed, a timeout), the cluster goes with it.
  const stopCommand = asRoot
    ? `runuser -u postgres -- '${join(bin, 'pg_ctl')}' -D '${data}' -m immediate -w stop`
    : `'${join(bin, 'pg_ctl')}' -D '${data}' -m immediate -w stop`;
  spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; ${stopCommand} >/dev/null 2>&1; rm -rf '${dir}'`,
    ],
    { detached: true, stdio: 'ignore' },
  ).unref();
  /** pg_ctl on this cluster, asynchronously (the caller's load goes on meanwhile); waits for it to finish. */
  const pgCtl = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const all = ['-D', data, '-w', '-t', '60', ...args];
      execFile(
        asRoot ? 'runuser' : join(bin, 'pg_ctl'),
        asRoot ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...all] : all,
        (error, _stdout, stderr) =>
          error ? reject(new Error(`pg_ctl ${args.at(-1)} failed: ${stderr.trim() || error.message}`)) : resolve(),
      );
    });
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    restart: () => pgCtl(['-l', join(dir, 'log'), '-m', 'fast', 'restart']),
    async down(work) {
      await pgCtl(['-m', 'fast', 'stop']);
      try {
        await work();
      } finally {
        await pgCtl(['-l', join(dir, 'log'), '-o', options, 'start']);
      }
    },
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export const MIGRATED_TEMPLATE = 'mahjong_migrated'; // made by the globalSetup: migrations/postgres applied

/** The URL of database `name` on the cluster at `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Makes a new database on the cluster at `adminUrl`, a copy of `template` (template0: empty; the
 * migrated template: today's schema, so an app starts without migrating); returns its URL.
 */
export async function createDatabase(adminUrl: string, template = 'template0'): Promise<string> {
  const name = `t_${randomBytes(8).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // file_copy: with fsync off a copy of the files is the quickest way to a new database.
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY file_copy`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, name);
}

/** Inside a test file: why PostgreSQL is not there ('' when it is): for `describe.skipIf`. */
export const postgresSkip = (): string => inject('postgresMissing');

/**
 * Inside a test file: a fresh database on the run's cluster (the globalSetup must have started it):
 * empty, or with `{ migrated: true }` already holding today's schema (quicker to start an app on).
 */
export async function freshDatabaseUrl(opts: { migrated?: boolean } = {}): Promise<string> {
  const admin = inject('postgresUrl');
  if (!admin) throw new Error(`PostgreSQL is not running for this test run: ${inject('postgresMissing')}`);
  return createDatabase(admin, opts.migrated ? MIGRATED_TEMPLATE : 'template0');
}
