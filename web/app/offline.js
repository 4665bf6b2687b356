// Offline after the first load (docs/page.md): the service worker (web/sw.js) keeps what passes
// through it; once it controls the page, what the page fetched before it (the core, the page's
// copies of the catalogs, the first chunks) is fetched again through it from the HTTP cache, and
// what the other views need is fetched now: their code, the full module the core's Web Worker
// answers them with, the full catalogs, every region's prices (kept, not loaded: the page answers
// as it did).
import { FILES } from './catalog-store.js';

export async function keepOffline(store) {
  if (!('serviceWorker' in navigator)) return;
  await navigator.serviceWorker.register('./sw.js');
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  }
  const again = (url) => fetch(url, { cache: 'force-cache' }).then((r) => r.arrayBuffer()).catch(() => {});
  const here = new URL('./', document.baseURI).href;
  const loaded = performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.startsWith(here));
  const prices = Object.values(store.priceIndex?.providers ?? {}).flatMap((p) => Object.values(p.regions ?? {}).map((r) => `./config/prices/${r.file}`));
  await Promise.all([
    again(new URL('./index.html', here).href),
    ...loaded.map(again),
    ...prices.map(again),
    import('./later-screens.js'),
    import('./deploy-files.js'),
    import('./deploy-zip.js'),
    import('./old-links.js'),
    import('./header-tools.js'),
    import('./tools-analyzer.js'),
    ...FILES.map(({ file }) => again(`./config/${file}`)),
    again('./app/core-worker.js'),
    // The full module the core's Web Worker loads for the later views' questions.
    ...['gpufleet.js', 'gpufleet_core.mjs', 'gpufleet_core.wasm'].map((f) => again(`./gpufleet/all/${f}`)),
  ]);
  document.documentElement.dataset.offline = 'ready';
}
