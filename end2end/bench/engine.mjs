// The engine's speed where people use it: the analysis page's Web Worker
// in headless Chromium, analysing the empty 11×11 board (and one middle
// game position) for a while, as the page itself reports it. A benchmark
// that prints, not a test: scripts/bench-pages.sh --engine builds a
// release and starts the server.
//
//   BASE_URL=http://127.0.0.1:3000 node end2end/bench/engine.mjs [SECONDS]
import { chromium } from '@playwright/test';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const seconds = Number(process.argv[2] ?? 10);
const positions = ['11x11', '11x11 f6 e7 g5 f4 d8 c9 h3'];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
for (const record of positions) {
  const page = await browser.newPage();
  await page.goto(`${base}/analysis?record=${encodeURIComponent(record)}`);
  const panel = page.getByTestId('engine-panel');
  await panel.waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-testid=engine-panel]')?.dataset.engine === 'running',
    null,
    { timeout: 60_000 },
  );
  await page.waitForTimeout(seconds * 1000);
  const playouts = Number(await page.getByTestId('engine-playouts').textContent());
  const speed = Number(await page.getByTestId('engine-speed').textContent());
  console.log(`analysis page worker, "${record}": ${speed} iterations/s (${playouts} in about ${seconds} s)`);
  await page.close();
}
await browser.close();
