// The console's service worker: it keeps the static shell (index.html, the built scripts and
// styles, icons) so the console opens from the home screen, and when the hub is out of reach it
// still draws its frame. It never stores an API answer: /api/, /hooks/ and the live WebSocket go
// to the network untouched (network-only), since they carry private, changing data.
// BUILD and SHELL are filled in by web/vite.config.ts at build time; a new build renames the cache,
// and the old one is deleted when this worker activates.
// A page keeps the way it was loaded for its life: the worker controls the next page load, it never
// claims an open one (a console that switched mid-session had its lazy screens answered by a worker
// still filling its cache, and some of those loads failed). And the cache is a help, never a
// condition: a cache that cannot be read or written leaves the request to the network.
/* global self, caches */
const BUILD = 'dev';
const SHELL = ['/index.html'];
const CACHE_PREFIX = 'nexus-shell-';
const CACHE = CACHE_PREFIX + BUILD;

/** Paths that are never answered from, or written to, the cache. */
const NETWORK_ONLY = /^\/(api|hooks)(\/|$)/;

/** The cached answer for `key`; undefined when there is none, or the cache cannot be read. */
const cachedCopy = (key) => caches.match(key).catch(() => undefined);

/** The network's answer; offline, the cached answer for `key`. */
const networkFirst = (request, key) =>
  fetch(request).catch(() => cachedCopy(key).then((hit) => hit || Response.error()));

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith(CACHE_PREFIX) && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .catch(() => undefined),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NETWORK_ONLY.test(url.pathname)) return;

  // Pages: the network first (sign-in state and updates), the cached shell when offline.
  if (request.mode === 'navigate') {
    event.respondWith(networkFirst(request, '/index.html'));
    return;
  }

  // Built assets have content-hashed names: once fetched, they never change.
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      cachedCopy(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              event.waitUntil(
                caches
                  .open(CACHE)
                  .then((cache) => cache.put(request, copy))
                  .catch(() => undefined),
              );
            }
            return response;
          }),
      ),
    );
    return;
  }

  // Other shell files (icons, before-paint.js, the manifest): the network first, the cached copy offline.
  if (SHELL.includes(url.pathname)) {
    event.respondWith(networkFirst(request, request));
  }
});
