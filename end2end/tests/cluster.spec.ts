import { execFileSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { cell, hydrated, watchErrors } from './support/game';
import { killServer, startOwnServer } from './support/server';

// Two instances sharing live play through the machine's Redis and their
// games through a fresh PostgreSQL database: a person on each plays a
// whole game against the other.

const REDIS = 'redis://127.0.0.1:6379/0';

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function psql(sql: string): void {
  execFileSync('psql', ['-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-c', sql]);
}

test('two people on two instances play a game to the end', async ({ browser }) => {
  const services = (await reachable(6379)) && (await reachable(5432));
  if (!services) console.warn('\n!!!!!!!! SKIPPED: the cluster test needs Redis (6379) and PostgreSQL (5432)\n');
  test.skip(!services, 'needs Redis and PostgreSQL on this machine');
  const unique = `${process.pid}_${Date.now()}`;
  const database = `hexarena_e2e_${unique}`;
  const prefix = `hexarena-e2e-${unique}`;
  psql(`CREATE DATABASE ${database}`);
  const env = {
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    HEXARENA_REDIS_URL: REDIS,
    HEXARENA_REDIS_PREFIX: prefix,
  };
  const ports = [await freePort(), await freePort()];
  const servers: ChildProcess[] = [];
  try {
    // The first instance migrates the fresh database; then the second joins.
    for (const port of ports) servers.push(await startOwnServer(port, env));
    const [a, b] = ports.map((port) => `http://127.0.0.1:${port}`);
    const people = await Promise.all([browser.newContext(), browser.newContext()]);
    const [ann, ben]: Page[] = await Promise.all(people.map((c) => c.newPage()));
    const errors = [watchErrors(ann), watchErrors(ben)];

    const q = 'size=5&series=1&swap=off&time=none';
    await ann.goto(`${a}/play/online?${q}&name=Ann`);
    await hydrated(ann);
    await expect(ann).toHaveURL(/\/game\/\d+$/);
    const id = /\/game\/(\d+)/.exec(ann.url())?.[1];
    await expect(ann.getByTestId('game-status')).toHaveText('Waiting for an opponent to join');
    await ben.goto(`${b}/play/online?${q}&name=Ben`);
    await hydrated(ben);
    await expect(ben).toHaveURL(new RegExp(`^${b}/game/${id}$`));
    await expect(ann.getByTestId('game-status')).toHaveText('Your move (Red)');
    await expect(ben.getByTestId('seat-blue')).toContainText('Ben');

    // Red along row 1, Blue along row 2, each stone seen on both instances.
    const moves: [Page, string, 'red' | 'blue'][] = [
      [ann, 'a1', 'red'], [ben, 'a2', 'blue'], [ann, 'b1', 'red'], [ben, 'b2', 'blue'],
      [ann, 'c1', 'red'], [ben, 'c2', 'blue'], [ann, 'd1', 'red'], [ben, 'd2', 'blue'], [ann, 'e1', 'red'],
    ];
    for (const [who, at, colour] of moves) {
      await cell(who, at).click();
      for (const p of [ann, ben]) await expect(cell(p, at)).toHaveAttribute('data-stone', colour);
    }
    for (const p of [ann, ben]) await expect(p.getByTestId('game-status')).toHaveText('Ann · guest (Red) wins');
    // Either instance replays the archived game.
    await expect(async () => {
      await ben.goto(`${b}/games/${id}-1`);
      await expect(ben.getByTestId('move-list').locator('li')).toHaveCount(9, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    expect(errors).toEqual([[], []]);
    await Promise.all(people.map((c) => c.close()));
  } finally {
    for (const s of servers) await killServer(s);
    try {
      psql(`DROP DATABASE IF EXISTS ${database}`);
      execFileSync('sh', ['-c', `redis-cli --scan --pattern '${prefix}:*' | xargs -r redis-cli del >/dev/null`]);
    } catch (e) {
      console.warn(`the cluster test's database or Redis keys were not removed: ${e}`);
    }
  }
});
