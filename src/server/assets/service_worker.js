// hexarena's service worker, build __BUILD__ (written by the server, see
// src/server/assets/offline.rs). It keeps this build's bundles and the pages
// that work without the server, so that hexarena starts offline.
//
// - Install: fetch every bundle of this build and the offline pages into a
//   cache of this build's own. It then waits: a page keeps the bundles it
//   started with.
// - A page tells a waiting worker to take over when the person navigates,
//   so the next page is the new build, whole: pages never mix bundles, and
//   the previous build's cache is kept for pages still open on it.
// - Pages: from the network (fresh, and revalidated cheaply), from the
//   cache when the network is gone or too slow; an online-only page offline
//   gets a clear message instead of the browser's error page.
// - Bundles (their names carry their hash): from the cache first.

const BUILD = '__BUILD__';
const CACHE = `hexarena-${BUILD}`;
const PRECACHE = __ASSETS__;
const OFFLINE_PAGES = __PAGES__;
const STYLESHEET = '__STYLESHEET__';
const NETWORK_PATIENCE_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll([...PRECACHE, ...OFFLINE_PAGES].map((url) => new Request(url, { cache: 'reload' }))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Keep this build's cache and the one before it (a page still open
      // on the previous build loads its bundles from there); drop older ones.
      const meta = await caches.open('hexarena-builds');
      const seen = await meta.match('/builds').then((r) => (r ? r.json() : []), () => []);
      const builds = [...seen.filter((b) => b !== BUILD), BUILD].slice(-2);
      await meta.put('/builds', new Response(JSON.stringify(builds)));
      const keep = new Set(builds.map((b) => `hexarena-${b}`));
      const names = await caches.keys();
      await Promise.all(
        names.filter((n) => n.startsWith('hexarena-') && n !== 'hexarena-builds' && !keep.has(n)).map((n) => caches.delete(n)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

const sameOrigin = (url) => url.origin === self.location.origin;
// Server calls and sockets are never cached or answered from a cache.
const passThrough = (url) =>
  url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/') ||
  ['/health', '/metrics', '/sw.js', '/slots'].includes(url.pathname);

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !sameOrigin(url) || passThrough(url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request, url));
  } else {
    event.respondWith(asset(request));
  }
});

async function page(request, url) {
  const offlineCapable = OFFLINE_PAGES.includes(url.pathname);
  const network = fetch(request).then((response) => {
    if (offlineCapable && response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(url.pathname + url.search, copy));
    }
    return response;
  });
  // Pages are kept by their whole address: the server renders the query
  // (a board size, a position) into them.
  const key = url.pathname + url.search;
  const cached = offlineCapable ? cachedPage(key) : Promise.resolve(undefined);
  try {
    return await withPatience(network, cached);
  } catch {
    return (await cached) ?? offlinePage(url);
  }
}

// This build's copy first; else one an earlier build kept (with its own
// bundles, also kept).
async function cachedPage(key) {
  const own = await (await caches.open(CACHE)).match(key, { ignoreVary: true });
  return own ?? caches.match(key, { ignoreVary: true });
}

// The network's answer, unless it fails, or takes too long while a cached
// copy is at hand.
function withPatience(network, cached) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(async () => {
      const copy = await cached;
      if (copy && !settled) {
        settled = true;
        resolve(copy);
      }
    }, NETWORK_PATIENCE_MS);
    network.then(
      (response) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          resolve(response);
        }
      },
      (error) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          reject(error);
        }
      },
    );
  });
}

async function asset(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  return fetch(request);
}

function offlinePage(url) {
  const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline — hexarena</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg"><link rel="stylesheet" href="${STYLESHEET}"></head><body><main id="main" class="page narrow" data-testid="offline-page">
<h1>You are offline</h1>
<p><code>${escape(url.pathname)}</code> needs the server, which cannot be reached right now.
It will work again once you are back online.</p>
<p>Without a connection you can still <a href="/play/local">play a friend on this device</a>,
<a href="/play/engine">play the engine</a> or <a href="/analysis">analyse a game</a>.</p>
</main></body></html>`;
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}
