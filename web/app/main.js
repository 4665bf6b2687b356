// The page: loads the WebAssembly core and the shipped catalog, builds one screen per question,
// keeps the whole state in the URL, and runs in full or embed mode (?embed=1).
import { loadGpufleet } from '../gpufleet/gpufleet.js';
import { h, clear } from './dom.js';
import { CatalogStore, fetchShippedTexts } from './catalog-store.js';
import { alertRegion } from './errors.js';
import { createTabs } from './tabs.js';
import { createFitScreen } from './screens/fit.js';
import { createPrecisionsScreen } from './screens/precisions.js';
import { createRecommendScreen } from './screens/recommend.js';
import { createMigrateScreen } from './screens/migrate.js';
import { createWorkloadsScreen } from './screens/workloads.js';
import { createCatalogScreen } from './screens/catalog.js';
import { createPlanScreen } from './screens/plan.js';
import { createPlacementScreen } from './screens/placement.js';
import { createDecideScreen } from './screens/decide.js';
import { createMemoryScreen } from './screens/memory.js';
import { copyText } from './export.js';

const FACTORIES = [createFitScreen, createPrecisionsScreen, createMemoryScreen, createRecommendScreen, createMigrateScreen, createPlanScreen,
  createPlacementScreen, createDecideScreen, createWorkloadsScreen, createCatalogScreen];

const params = new URLSearchParams(location.search);
const embed = params.get('embed') === '1';
const root = document.documentElement;
root.classList.toggle('embed', embed);

const appAlert = alertRegion('app-errors');
document.getElementById('app-alert').append(appAlert.node);

async function start() {
  const [gpufleet, texts] = await Promise.all([loadGpufleet(), fetchShippedTexts('./config/')]);
  const store = new CatalogStore(gpufleet, texts);
  const screens = FACTORIES.map((make) => make(store));
  const byId = new Map(screens.map((s) => [s.id, s]));
  let active = byId.get(params.get('view')) ?? screens[0];
  const dirty = new Set(screens);

  const main = document.getElementById('main');
  const updateUrl = () => {
    const p = new URLSearchParams();
    if (embed) p.set('embed', '1');
    p.set('view', active.id);
    active.toParams(p);
    history.replaceState(null, '', `${location.pathname}?${p}`);
    if (embedLink) embedLink.href = fullPageUrl();
  };
  const show = (screen) => {
    active = screen;
    if (dirty.has(screen)) { screen.render(); dirty.delete(screen); }
    updateUrl();
  };

  let tabs = null;
  if (embed) {
    main.append(h('section', { class: 'embed-panel', 'aria-labelledby': `${active.id}-title` }, active.panel));
  } else {
    tabs = createTabs(screens, { selected: active.id, onSelect: (id) => show(byId.get(id)) });
    document.getElementById('tabs').append(tabs.tablist);
    main.append(...tabs.panels);
  }

  for (const screen of screens) {
    screen.onChange = (s) => { s.render(); dirty.delete(s); updateUrl(); };
  }

  const catalogLine = document.getElementById('catalog-line');
  const showCatalog = () => {
    const info = store.info;
    if (info) {
      clear(catalogLine, 'Catalog: ',
        h('strong', { testid: 'catalog-name' }, info.name), ' ',
        h('span', { testid: 'catalog-version' }, info.version), ' · ',
        h('span', { testid: 'catalog-date' }, info.date),
        store.isShipped ? null : [' ', h('span', { class: 'pill risk-medium' }, 'your own')]);
      appAlert.hide();
    } else {
      clear(catalogLine, 'Catalog: invalid');
      appAlert.show(store.state?.errors ?? [], 'The shipped catalog is invalid');
    }
  };

  store.loadShipped();
  showCatalog();
  // The chosen view restores its inputs from the URL; the others start from their defaults.
  for (const s of screens) {
    s.fill(store);
    s.fromParams(s === active ? params : new URLSearchParams());
  }
  show(active);
  // A catalog loaded later refills every screen; the active one answers again at once.
  store.addEventListener('change', () => {
    showCatalog();
    for (const s of screens) { s.fill(store); dirty.add(s); }
    show(active);
  });
  if (embed) reportHeight();
  else addCopyLink();
  root.dataset.ready = '1';
}

// Embed mode: a link to the full calculator, and the page height for <gpufleet-calculator>.
let embedLink = null;
function fullPageUrl() {
  const p = new URLSearchParams(location.search);
  p.delete('embed');
  return `${location.pathname}?${p}`;
}
if (embed) {
  embedLink = h('a', { href: fullPageUrl(), target: '_blank', rel: 'noopener' }, 'Open the full calculator');
  document.getElementById('embed-bar').append(h('span', null, 'gpufleet'), ' · ', embedLink);
}
/** "Copy link": the page's URL holds the whole state. */
function addCopyLink() {
  const status = h('span', { class: 'copy-status', role: 'status', testid: 'copy-status' });
  const button = h('button', { type: 'button', class: 'small-button', testid: 'copy-link' }, 'Copy link');
  button.addEventListener('click', async () => {
    const ok = await copyText(location.href);
    status.textContent = ok ? 'Link copied' : 'Copy the address bar: the link holds every input';
    setTimeout(() => { status.textContent = ''; }, 4000);
  });
  document.getElementById('page-tools').append(button, status);
}
function reportHeight() {
  if (window.parent === window) return;
  const post = () => window.parent.postMessage({ type: 'gpufleet:height', height: Math.ceil(document.body.getBoundingClientRect().height) }, '*');
  new ResizeObserver(post).observe(document.body);
  post();
}

start().catch((e) => {
  console.warn(e);
  appAlert.show([{ code: 'load_failed', file: 'page', path: '', message: String(e?.message ?? e) }], 'The calculator could not start');
  root.dataset.ready = 'error';
});
