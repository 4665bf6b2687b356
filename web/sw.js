// gpufleet's service worker (web/app/offline.js registers it once the page has answered): every
// same-origin file the page fetches is kept, newest first from the network, so that after the
// first load every view opens offline. CACHE is the version of this scheme: a new one drops the
// old caches when it activates.
const CACHE = 'gpufleet-offline-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil((async () => {
  for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
  await self.clients.claim();
})()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.status === 200) await cache.put(request, response.clone());
      return response;
    } catch (offline) {
      // A page opened offline with any link's query is the same page.
      const kept = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
      if (kept) return kept;
      throw offline;
    }
  })());
});
