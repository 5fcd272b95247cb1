/**
 * A damaged cookie secret file (`<DATABASE_PATH>.secret`, src/server/secret.ts) is refused at start, never used:
 * used as it is, it would sign every player out for good (docs/operations.md, "Security"). The server exits 2
 * with one line on stderr saying which file, what is wrong and what to do.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { SecretFileError, secretProblem } from '../../../src/server/secret.ts';
import { ROOT } from '../../support/root.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = 'q3J-8vXr_Lm2Zp9TnW4yKb7HcD1fGs6Ae0UuVo5iRjk'; // what the server writes: 43 base64url characters

describe('what a secret file may hold', () => {
  test.each([
    ['the generated secret and its newline', `${GOOD}\n`, undefined],
    ['a secret without the newline', GOOD, undefined],
    ['a Windows newline', `${GOOD}\r\n`, undefined],
    ['an operator’s own hex secret', `${'0123456789abcdef'.repeat(4)}\n`, undefined],
    ['nothing', '', 'is empty'],
    ['a newline only', '\n', 'is empty'],
    ['NUL bytes (a torn write)', '\0'.repeat(64), 'holds bytes no secret has'],
    ['the secret then NUL bytes', `${GOOD}${'\0'.repeat(21)}`, 'holds bytes no secret has'],
    ['binary', Buffer.from([...Array(64).keys()].map((i) => (i * 37 + 128) % 256)), 'holds bytes no secret has'],
    ['two secrets (a doubled write)', `${GOOD}\n${GOOD}\n`, 'holds more than one line'],
    ['spaces inside', `${GOOD.slice(0, 20)} ${GOOD.slice(20)}\n`, 'holds bytes no secret has'],
    ['a short one', `${GOOD.slice(0, 31)}\n`, 'fewer than 32'],
    ['a long one', `${GOOD.repeat(12)}\n`, 'more than 512'],
    ['one character repeated', `${'A'.repeat(48)}\n`, 'too few different characters'],
  ])('%s', (_, content, problem) => {
    const found = secretProblem(Buffer.from(content));
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('the server on a damaged secret file', () => {
  test('the app does not start: it says which file and what is wrong; the file is left as it was', async () => {
    const db = path.join(dir, 'app.db');
    const damaged = `${GOOD.slice(0, 30)}${'\0'.repeat(20)}`;
    writeFileSync(`${db}.secret`, damaged, { mode: 0o600 });
    const app = buildApp({ databasePath: db, logger: false, dealer: { workers: 0 } });
    const failed = await app.ready().then(
      () => undefined,
      (error: unknown) => error,
    );
    await app.close().catch(() => undefined);
    expect(failed).toBeInstanceOf(SecretFileError);
    expect((failed as Error).message).toContain(`${db}.secret`);
    expect(readFileSync(`${db}.secret`, 'latin1')).toBe(damaged); // nothing overwritten: a backup can still help
  });

  test('a good file is used and kept', async () => {
    const db = path.join(dir, 'good.db');
    writeFileSync(`${db}.secret`, `${GOOD}\n`, { mode: 0o600 });
    const app = buildApp({ databasePath: db, logger: false, dealer: { workers: 0 } });
    await app.ready();
    const made = await app.inject({ url: '/api/stats' });
    await app.close();
    expect(made.statusCode).toBe(200);
    const again = buildApp({ databasePath: db, logger: false, dealer: { workers: 0 } });
    await again.ready();
    const cookie = made.cookies.find((c) => c.name.endsWith('mj_player'))!;
    const later = await again.inject({ url: '/api/stats', headers: { cookie: `${cookie.name}=${cookie.value}` } });
    await again.close();
    expect(later.cookies).toHaveLength(0); // still signed in: the same secret
    expect(readFileSync(`${db}.secret`, 'utf8')).toBe(`${GOOD}\n`);
  });

  test('the server process exits 2 with one line on stderr', { timeout: 90_000 }, () => {
    const db = path.join(dir, 'process.db');
    writeFileSync(`${db}.secret`, `${GOOD}\n${GOOD}\n`, { mode: 0o600 });
    const run = spawnSync(process.execPath, ['dist/server/server.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: db, PORT: '0', HOST: '127.0.0.1', DEAL_WORKERS: '0' },
      encoding: 'utf8',
      timeout: 80_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `mahjong server: the cookie secret file ${db}.secret holds more than one line: restore it from a backup ` +
        '(players keep their cookies), or delete it to make a new one (every player is signed out)',
    ]);
    expect(run.stderr).not.toContain(GOOD); // the secret is never printed
  });
});
