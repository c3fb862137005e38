import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The repository root, one level above end2end/. */
export const root = path.resolve(__dirname, '..', '..', '..');

/** Which build to test: HEXARENA_E2E_PROFILE=release for a release build. */
const profile = process.env.HEXARENA_E2E_PROFILE === 'release' ? 'release' : 'debug';

export function serverCommand(): string {
  return path.join(root, 'target', profile, 'hexarena');
}

/** Archives of earlier runs (over an hour old) are removed, so the temp
 * folder does not fill up; this run's are left alone. */
function removeOldArchives(): void {
  const dir = os.tmpdir();
  const hourAgo = Date.now() - 3_600_000;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith('hexarena-e2e-')) continue;
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).mtimeMs < hourAgo) fs.rmSync(file, { force: true });
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
}
removeOldArchives();

export function serverEnv(port: number): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    LEPTOS_SITE_ROOT: path.join(root, 'target', 'site'),
    LEPTOS_OUTPUT_NAME: 'hexarena',
    // A fresh archive per run, so statistics start from nothing.
    DATABASE_URL: `sqlite://${path.join(os.tmpdir(), `hexarena-e2e-${process.pid}-${port}.db`)}?mode=rwc`,
  };
}

/** Debian's Chromium, with the flags this closed network needs. */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** A server of our own, for tests that stop it. Resolves once /health answers. */
export async function startOwnServer(port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(serverCommand(), [], { env: { ...serverEnv(port), ...env }, stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not answer /health within 30 s');
}

/** Kills the server and waits until the process is gone. */
export async function killServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}
