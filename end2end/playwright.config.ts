import { defineConfig } from '@playwright/test';
import { chromiumLaunch, serverCommand, serverEnv } from './tests/support/server';

// The app under test: the server binary in target/ (built by `cargo leptos
// build`, or by building the tests, as scripts/test.sh does), serving the
// site that the last front-end build left in target/site,
// started here and awaited on /health before any test runs.
const port = Number(process.env.HEXARENA_E2E_PORT ?? 3311);

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunch,
    trace: 'retain-on-failure',
    // Only pwa.spec.ts lets the service worker in: elsewhere it would fetch
    // every bundle again for each test's fresh browser context.
    serviceWorkers: 'block',
  },
  webServer: {
    command: serverCommand(),
    env: serverEnv(port),
    url: `http://127.0.0.1:${port}/health`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
