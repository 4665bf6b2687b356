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
import { createThroughputScreen } from './screens/throughput.js';
import { copyText } from './export.js';

// Tab order. A screen is built and filled from the catalog the first time it is shown, so the
// first answer waits only for the screen it shows.
const SCREENS = [
  { id: 'fit', title: 'Fit & memory', make: createFitScreen },
  { id: 'precisions', title: 'Precisions', make: createPrecisionsScreen },
  { id: 'memory', title: 'Model memory', make: createMemoryScreen },
  { id: 'throughput', title: 'Speed & cost per token', make: createThroughputScreen },
  { id: 'recommend', title: 'Recommend', make: createRecommendScreen },
  { id: 'migrate', title: 'Migrate', make: createMigrateScreen },
  { id: 'plan', title: 'Plan', make: createPlanScreen },
  { id: 'placement', title: 'Placement', make: createPlacementScreen },
  { id: 'decide', title: 'Decide', make: createDecideScreen },
  { id: 'workloads', title: 'Workloads', make: createWorkloadsScreen },
  { id: 'catalog', title: 'Catalog', make: createCatalogScreen },
];

const params = new URLSearchParams(location.search);
const embed = params.get('embed') === '1';
const root = document.documentElement;
root.classList.toggle('embed', embed);

const appAlert = alertRegion('app-errors');
document.getElementById('app-alert').append(appAlert.node);

async function start() {
  performance.mark('gpufleet:start');
  const [gpufleet, shipped] = await Promise.all([
    loadGpufleet().then((g) => { performance.mark('gpufleet:core-ready'); return g; }),
    fetchShippedTexts('./config/').then((t) => { performance.mark('gpufleet:catalog-fetched'); return t; })]);
  const store = new CatalogStore(gpufleet, shipped);
  const main = document.getElementById('main');
  const built = new Map(); // id -> screen
  const stale = new Set(); // built screens whose inputs predate the catalog in use
  const dirty = new Set(); // built screens whose answer is out of date
  let tabs = null;
  let active = null;

  const updateUrl = () => {
    const p = new URLSearchParams();
    if (embed) p.set('embed', '1');
    p.set('view', active.id);
    active.toParams(p);
    history.replaceState(null, '', `${location.pathname}?${p}`);
    if (embedLink) embedLink.href = fullPageUrl();
  };
  /** The screen, built on first use: inputs from the catalog, then from `p` (or defaults). */
  const screenOf = (id, p = new URLSearchParams()) => {
    let screen = built.get(id);
    if (!screen) {
      const i = SCREENS.findIndex((s) => s.id === id);
      screen = SCREENS[i].make(store);
      screen.onChange = (s) => { s.render(); dirty.delete(s); updateUrl(); };
      screen.fill(store);
      screen.fromParams(p);
      built.set(id, screen);
      dirty.add(screen);
      if (tabs) tabs.panels[i].append(screen.panel);
      else main.append(h('section', { class: 'embed-panel', 'aria-labelledby': `${id}-title` }, screen.panel));
    } else if (stale.has(screen)) {
      screen.fill(store);
      stale.delete(screen);
    }
    return screen;
  };
  const show = (id) => {
    active = screenOf(id);
    if (dirty.has(active)) { active.render(); dirty.delete(active); }
    updateUrl();
  };

  const firstId = SCREENS.some((s) => s.id === params.get('view')) ? params.get('view') : SCREENS[0].id;
  if (!embed) {
    tabs = createTabs(SCREENS, { selected: firstId, onSelect: show });
    document.getElementById('tabs').append(tabs.tablist);
    main.append(...tabs.panels);
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
  performance.mark('gpufleet:catalog-loaded');
  showCatalog();
  // The chosen view restores its inputs from the URL; the others start from their defaults.
  screenOf(firstId, params);
  show(firstId);
  performance.mark('gpufleet:first-answer');
  // A catalog loaded later refills the active screen and answers again at once; the others
  // refill when next shown.
  store.addEventListener('change', () => {
    showCatalog();
    for (const s of built.values()) { stale.add(s); dirty.add(s); }
    show(active.id);
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
