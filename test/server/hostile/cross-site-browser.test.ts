/**
 * Cross-site requests cannot wipe a player's identity, in a real browser: a page
 * on another site (evil.test, mapped to 127.0.0.1 inside Chromium only) submits forms to our
 * server. The browser leaves the SameSite=Lax cookie off these top-level POSTs; before the fix the
 * server answered with a new player cookie, which the browser kept, and the player's stats were
 * gone. Now each is 403 without Set-Cookie, and the player's cookie and rows stay as they were.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.ts';
import { CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM } from '../../client/browser.ts';

(HAS_CHROMIUM ? describe : describe.skip)('a cross-site form in Chromium', () => {
  let app: FastifyInstance;
  let evil: Server;
  let base: string; // http://127.0.0.1:PORT, our site
  let evilBase: string; // http://evil.test:PORT2, another site (same machine)
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mj-cross-site-'));
    app = buildApp({
      databasePath: join(dir, 'test.db'),
      logger: false,
      cookieSecret: 'k'.repeat(8) + 'Q7x!'.repeat(8),
      rateLimit: false,
    });
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    // The attacker's page: forms aimed at our site, submitted by a button the test clicks.
    const forms = `<!doctype html><title>win a prize</title>
      <form id="name" method="post" action="${base}/daily/name"><input name="name" value="pwned"><button id="go-name">go</button></form>
      <form id="game" method="post" action="${base}/api/games" enctype="text/plain"><input name='{"layout":"turtle","seed":"x","pad":"' value='"}'><button id="go-game">go</button></form>`;
    evil = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(forms));
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilBase = `http://evil.test:${(evil.address() as { port: number }).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP evil.test 127.0.0.1'], // nothing leaves loopback
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => evil?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const count = (table: string): number =>
    (app.db!.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

  test.each([
    ['the nickname form', '#go-name', '/daily/name'],
    ['a JSON-shaped text/plain form to the API', '#go-game', '/api/games'],
  ])('%s: 403, no new cookie, the player keeps their identity', async (_label, button, path) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/stats`); // the player's first visit: their cookie
    const before = (await context.cookies(base)).find((c) => c.name === 'mj_player')!;
    expect(before).toBeDefined();
    const rows = { players: count('players'), games: count('games') };

    await page.goto(`${evilBase}/`);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}${path}`), page.click(button)]);
    expect(answer.status()).toBe(403);
    expect(await answer.headerValue('set-cookie')).toBeNull();
    expect(answer.request().headers()['origin']).toBe(evilBase); // it really came from the other site

    const after = (await context.cookies(base)).find((c) => c.name === 'mj_player');
    expect(after?.value).toBe(before.value);
    expect({ players: count('players'), games: count('games') }).toEqual(rows);
    await context.close();
  });
});
