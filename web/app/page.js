// The live page: loads the WebAssembly core and the shipped catalog, builds one screen per question,
// keeps the whole state in the URL, and runs in full or embed mode (?embed=1). Started by main.js.
import { loadGpufleet } from '../gpufleet/gpufleet.js';
import { h, clear, onEdit } from './dom.js';
import { CatalogStore, fetchShippedTexts, LEFT_OUT } from './catalog-store.js';
import { alertRegion } from './errors.js';
import { createTabs } from './tabs.js';
import { copyText } from './export.js';
import { createFitScreen } from './screens/fit.js';
import { createForm } from './form.js';
import { VIEWS, OLD_VIEWS, isOldView, firstView } from './views.js';
import { applyEmbedOptions, keepEmbedOptions } from './embed-mode.js';

// Tab order. The default view is part of the page's module; the others are one module
// (later-screens.js), fetched the first time one of them is shown (a linked one beside the core).
// A view is built and filled from the catalog when first shown: the first answer waits only for
// the view it shows.
const later = () => import('./later-screens.js');
const LATER = { deployments: 'createDeploymentsScreen', compare: 'createCompareScreen', plan: 'createFleetScreen', autoscale: 'createAutoscaleScreen', spot: 'createSpotScreen', regions: 'createRegionsScreen', batch: 'createBatchScreen', catalog: 'createCatalogScreen' };
const SCREENS = VIEWS.map((v) => ({
  ...v, load: v.id === 'fit' ? async () => createFitScreen : () => later().then((m) => m[LATER[v.id]]),
}));

let params = new URLSearchParams(location.search);
const embed = params.get('embed') === '1';
const root = document.documentElement;
root.classList.toggle('embed', embed);
const linked = new URLSearchParams(location.search);
applyEmbedOptions(root, linked, embed);

/** How long the inputs rest before the link follows them. */
const LINK_REST_MS = 300;

const appAlert = alertRegion('app-errors');
document.getElementById('app-alert').append(appAlert.node);

async function start() {
  performance.mark('gpufleet:start');
  // An earlier version's link (?view=memory&format=bf16...) opens the view that answers it now.
  if (isOldView(params.get('view'))) params = (await import('./old-links.js')).fromOldLink(params, OLD_VIEWS);
  const firstId = firstView(params.get('view'));
  const [gpufleet, shipped] = await Promise.all([
    loadGpufleet().then((g) => { performance.mark('gpufleet:core-ready'); return g; }),
    fetchShippedTexts('./config/').then((t) => { performance.mark('gpufleet:catalog-fetched'); return t; }),
    SCREENS.find((s) => s.id === firstId).load()]);
  const store = new CatalogStore(gpufleet, shipped, { reload: () => loadGpufleet() });
  store.addEventListener('recovered', (e) => {
    const { reason, failed, again } = e.detail;
    appAlert.show([{ code: failed ? 'core_failed' : 'core_restarted', file: 'page', path: '',
      message: failed ? `The core stopped (${reason}) and could not be restarted (${failed}): reload the page.`
        : again ? `The core stopped again (${reason}) on the same inputs and was restarted; change an input to ask again.`
          : `The core stopped (${reason}) and was restarted with the catalog in use; the answers on screen are the restarted core's.` }],
    failed ? 'The calculator stopped' : 'The calculator restarted its core');
  });
  const main = document.getElementById('main');
  const built = new Map(); // id -> screen
  const stale = new Set(); // built screens whose inputs predate the catalog in use
  const dirty = new Set(); // built screens whose answer is out of date
  let tabs = null;
  let active = null;
  // The one workload form, moved into the view shown; a change answers there and dates the others.
  const form = createForm(() => active?.onChange(active));
  const formChanged = () => {
    if (!active) return;
    for (const s of built.values()) if (s !== active && s.uses.length) dirty.add(s);
    active.onChange(active);
  };
  onEdit(form.node, formChanged);

  // The link follows the inputs once they rest (history.replaceState costs 5-9 ms, a third of a
  // change's frame), and at once where it is read: "Copy link", the page hidden or left, a view
  // shown. html[data-link="pending"] while it lags behind (tests/browser/helpers.mjs linkOf).
  let linkTimer = 0;
  let firstShown = false;
  const linkLater = () => {
    clearTimeout(linkTimer);
    root.dataset.link = 'pending';
    linkTimer = setTimeout(updateUrl, LINK_REST_MS);
  };
  const updateUrl = () => {
    clearTimeout(linkTimer);
    if (!active) return;
    delete root.dataset.link;
    const p = new URLSearchParams();
    if (embed) p.set('embed', '1');
    keepEmbedOptions(linked, p);
    p.set('view', active.view);
    if (store.region) p.set('region', store.region);
    if (active.uses.length) form.toParams(p);
    active.toParams(p);
    history.replaceState(null, '', `${location.pathname}?${p}`);
    if (embedLink) embedLink.href = fullPageUrl();
  };
  /** The screen, built on first use: its module, inputs from the catalog, then from `p` (or defaults). */
  const screenOf = async (id, p = new URLSearchParams()) => {
    const i = SCREENS.findIndex((s) => s.id === id);
    const make = built.has(id) ? null : await SCREENS[i].load();
    let screen = built.get(id);  // again: another call may have built it meanwhile
    if (!screen) {
      screen = make(store, form);
      screen.view = id;
      screen.onChange = (s) => { s.render(); dirty.delete(s); linkLater(); };
      screen.fill(store);
      screen.fromParams(p);
      built.set(id, screen);
      dirty.add(screen);
      if (tabs) tabs.panels[i].append(screen.panel);
      else main.append(h('section', { class: 'embed-panel', 'aria-labelledby': `${screen.id}-title` }, screen.panel));
    } else if (stale.has(screen)) {
      screen.fill(store);
      stale.delete(screen);
    }
    return screen;
  };
  let latest = 0;  // the tab chosen last wins when modules arrive out of order
  let requested = null;  // the screen asked for last, shown or still loading
  const show = async (id) => {
    const ticket = ++latest;
    requested = id;
    let screen;
    try {
      screen = await screenOf(id);
    } catch (e) {
      // A screen's module that cannot be fetched (the site was redeployed under an open tab).
      appAlert.show([{ code: 'load_failed', file: 'page', path: '', message: `${String(e?.message ?? e)}: reload the page` }], 'This screen could not load');
      return;
    }
    if (ticket !== latest) return;
    active = screen;
    if (screen.uses.length) {
      screen.formSlot.append(form.node);
      form.use(screen.uses);
    }
    if (dirty.has(active)) { dirty.delete(active); await active.render(); }
    // The first view's link is the one the visitor opened: completed once the page rests, not on
    // the first answer's path.
    if (firstShown) updateUrl();
    else linkLater();
    firstShown = true;
  };

  if (!embed) {
    tabs = createTabs(SCREENS, { selected: firstId, onSelect: show });
    document.getElementById('tabs').append(tabs.tablist);
    main.append(...tabs.panels);
  }

  addEventListener('pagehide', updateUrl);
  document.addEventListener('visibilitychange', () => { if (document.hidden) updateUrl(); });
  embedLink?.addEventListener('click', updateUrl);  // before the browser follows its href

  const catalogLine = document.getElementById('catalog-line');
  let tools = null; // header-tools.js, once fetched
  const showCatalog = () => {
    const info = store.info;
    if (info) {
      clear(catalogLine, 'Catalog: ',
        h('strong', { testid: 'catalog-name' }, info.name), ' ',
        h('span', { testid: 'catalog-version' }, info.version), ' · ',
        h('span', { testid: 'catalog-date' }, info.date),
        store.isShipped ? null : [' ', h('span', { class: 'pill risk-medium' }, 'your own')],
        tools ? [' · ', tools.pricesAge(store.state?.catalog?.prices_as_of)] : null);
      appAlert.hide();
    } else {
      clear(catalogLine, 'Catalog: invalid');
      appAlert.show(store.state?.errors ?? [], 'The shipped catalog is invalid');
    }
  };

  // A link's region is priced by the first analyzer built (its prices fetched first), not a second.
  if (params.get('region')) await store.setRegion(params.get('region'));
  if (!store.analyzer) await store.loadShipped();
  performance.mark('gpufleet:catalog-loaded');
  showCatalog();
  form.fill(store);
  form.fromParams(params);
  // The chosen view restores its inputs from the URL; the others start from their defaults.
  await screenOf(firstId, params);
  performance.mark('gpufleet:screen-built');
  await show(firstId);
  dropPrerendered();
  performance.mark('gpufleet:first-answer');
  // A catalog loaded later refills the active screen and answers again at once; the others
  // refill when next shown.
  let answering = Promise.resolve();
  store.addEventListener('change', () => {
    showCatalog();
    form.fill(store);
    for (const s of built.values()) { stale.add(s); dirty.add(s); }
    answering = show(requested ?? active.id);
  });
  // A source or note first opened: the page's copy of the catalog left it out, so the full
  // catalog is fetched, the screen answers again, and the same disclosure opens again.
  main.addEventListener('toggle', async (e) => {
    const opened = e.target;
    if (!(opened instanceof HTMLDetailsElement) || !opened.open || !store.lean || !opened.textContent.includes(LEFT_OUT)) return;
    const label = opened.querySelector('summary')?.textContent;
    const same = () => [...main.querySelectorAll('details')].filter((d) => d.querySelector('summary')?.textContent === label);
    const nth = same().indexOf(opened);
    try {
      await store.withSources();
    } catch (err) {
      appAlert.show([{ code: 'load_failed', file: 'page', path: '', message: `the catalog's sources could not load: ${String(err?.message ?? err)}` }], 'Sources unavailable');
      return;
    }
    await answering;
    const again = same()[nth];
    if (again) again.open = true;
  }, true);
  // The header's region picker and "Copy link" come after the first answer.
  if (embed) reportHeight();
  else {
    tools = await import('./header-tools.js');
    tools.addHeaderTools(store, appAlert, { h, copyText, writeLink: updateUrl });
    showCatalog();
  }
  root.dataset.ready = '1';
  // Every view's code and data kept for offline use, after the first answer (offline.js).
  if (!embed) import('./offline.js').then((m) => m.keepOffline(store)).catch((e) => console.warn(e));
}

// The default view's answer that the staged HTML holds (scripts/prerender.mjs), until the live
// one is on screen.
function dropPrerendered() {
  document.querySelectorAll('[data-prerendered]').forEach((n) => n.remove());
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
function reportHeight() {
  if (window.parent === window) return;
  const post = () => window.parent.postMessage({ type: 'gpufleet:height', height: Math.ceil(document.body.getBoundingClientRect().height) }, '*');
  new ResizeObserver(post).observe(document.body);
  post();
}

start().catch((e) => {
  console.warn(e);
  dropPrerendered();
  appAlert.show([{ code: 'load_failed', file: 'page', path: '', message: String(e?.message ?? e) }], 'The calculator could not start');
  root.dataset.ready = 'error';
});
