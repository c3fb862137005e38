// Loads every page of a running hexarena cold (fresh context, cache off)
// on loopback and on a phone-like link, and prints what it cost: bytes
// transferred (as sent, compressed), requests, first paint and the moment
// the page hydrated. A benchmark that prints, not a test: see
// scripts/bench-pages.sh, which builds a release and starts the server.
//
//   BASE_URL=http://127.0.0.1:3000 node end2end/bench/pages.mjs [--json out.json]
import { chromium } from '@playwright/test';
import fs from 'node:fs';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;

const pages = ['/', '/play', '/play/local', '/play/engine', '/play/online', '/analysis', '/overview', '/statistics', '/games', '/docs', '/login', '/players/nobody'];

// 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency, CPU 4× slower.
const conditions = {
  loopback: null,
  phone: { latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8), cpu: 4 },
};

const launch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

// Records, inside the page, when <body data-hydrated="true"> appears.
const markHydration = () => {
  const note = () => {
    if (document.body?.dataset.hydrated === 'true' && !window.__hydratedAt) window.__hydratedAt = performance.now();
  };
  new MutationObserver(note).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
};

async function measure(browser, path, condition) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (condition) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: condition.latency,
      downloadThroughput: condition.downloadThroughput, uploadThroughput: condition.uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
  }
  // Bytes on the wire per request (headers and compressed body), from the
  // page's own network and its workers', which Playwright reports here too.
  const requests = new Map();
  let hydrated = false;
  const before = { bytes: 0, requests: 0 };
  context.on('requestfinished', async (request) => {
    const sizes = await request.sizes().catch(() => null);
    const bytes = sizes ? sizes.responseHeadersSize + sizes.responseBodySize : 0;
    requests.set(request, { url: request.url(), bytes, beforeHydration: !hydrated });
  });
  await page.addInitScript(markHydration);
  const started = Date.now();
  await page.goto(base + path, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__hydratedAt !== undefined, null, { timeout: 120_000, polling: 50 });
  hydrated = true;
  const timing = await page.evaluate(() => ({
    hydrated: window.__hydratedAt,
    firstPaint: performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? null,
  }));
  for (const r of requests.values()) {
    before.bytes += r.bytes;
    before.requests += 1;
  }
  // Then whatever the page fetches on its own (the engine worker and its
  // WASM), until the network has been quiet for a second.
  let quietSince = Date.now();
  let seen = requests.size;
  while (Date.now() - quietSince < 1500 && Date.now() - started < 120_000) {
    await page.waitForTimeout(250);
    if (requests.size !== seen) {
      seen = requests.size;
      quietSince = Date.now();
    }
  }
  let all = 0;
  let wasm = 0;
  const worker = { bytes: 0 };
  for (const r of requests.values()) {
    all += r.bytes;
    if (r.url.endsWith('.wasm')) wasm += r.bytes;
    if (r.url.includes('/engine/')) worker.bytes += r.bytes;
  }
  await context.close();
  return {
    page: path,
    condition: condition ? 'phone' : 'loopback',
    requests: requests.size,
    kbToHydrate: before.bytes / 1000,
    kbAll: all / 1000,
    kbWasm: wasm / 1000,
    kbWorker: worker.bytes / 1000,
    firstPaintMs: timing.firstPaint,
    hydratedMs: timing.hydrated,
  };
}

const browser = await chromium.launch(launch);
const rows = [];
for (const [name, condition] of Object.entries(conditions)) {
  for (const path of pages) {
    try {
      rows.push(await measure(browser, path, condition));
    } catch (e) {
      rows.push({ page: path, condition: name, error: String(e).split('\n')[0] });
    }
  }
}
await browser.close();

const fmt = (v, d = 0) => (v === null || v === undefined ? '—' : Number(v).toFixed(d));
console.log('| page | link | requests | KB to hydrate | KB in all | of which WASM | first paint ms | hydrated ms |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  if (r.error) {
    console.log(`| ${r.page} | ${r.condition} | error: ${r.error} |`);
    continue;
  }
  console.log(`| ${r.page} | ${r.condition} | ${r.requests} | ${fmt(r.kbToHydrate, 1)} | ${fmt(r.kbAll, 1)} | ${fmt(r.kbWasm, 1)} | ${fmt(r.firstPaintMs)} | ${fmt(r.hydratedMs)} |`);
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(rows, null, 2));
