// The page's HTML holds the default view's answer, rendered when the site was staged
// (scripts/prerender.mjs). A link with inputs of its own (a query or a fragment) must never show
// it, not even for one frame: this classic script runs before the body is parsed, and the style
// sheet hides [data-prerendered] under html.live.
if (location.search || location.hash) document.documentElement.classList.add('live');
// Tells main.js that this script ran (a host's own CSP may refuse it: main.js then loads its file).
document.documentElement.dataset.headScript = '';

// Asks for a file the live page will need (a module, or a fetch of the core or a catalog) now.
const request = (href) => {
  const link = document.createElement('link');
  if (/\.m?js$/.test(href)) link.rel = 'modulepreload';
  else Object.assign(link, { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous' });
  link.href = href;
  document.head.append(link);
};

// The live page's files, the core first (scripts/stage-site.sh names them: PAGE_FILES), requested
// when main.js starts the live page, on the same signals: at once under a link, else on the first
// paint (which they would delay: docs/performance.md) or after a second, whichever comes first.
{
  const files = typeof PAGE_FILES === 'undefined' ? [] : PAGE_FILES;
  let requested = false;
  const requestAll = () => {
    if (!requested) files.forEach(request);
    requested = true;
  };
  if (document.documentElement.classList.contains('live')) requestAll();
  else {
    new PerformanceObserver(requestAll).observe({ type: 'paint' });
    setTimeout(requestAll, 1000);
  }
}

// A link to a view other than the default one (or to Fit on one GPU alone or on any instance with a
// GPU) needs the later views' module: requested now, beside the page's own, instead of after the
// page's module has run. scripts/stage-site.sh names that module's files (LATER_MODULES).
{
  const p = new URLSearchParams(location.search);
  const view = p.get('view');
  const later = typeof LATER_MODULES === 'undefined' ? [] : LATER_MODULES;
  if ((view && view !== 'fit') || /^(gpu|any):/.test(p.get('instance') ?? '')) later.forEach(request);
}

// A link's region other than the usual ones (?region=eu-west-1): its price file requested now,
// beside the catalog, not once the catalog's index has named it (the first analyzer waits for it).
// Its folder is the provider its name's form belongs to (AWS us-east-1, Google Cloud us-central1,
// Azure eastus; a region of another form is fetched when the index has named it): scripts/
// stage-site.sh checks that no region of the index has another provider's form, and names the
// usual regions (USUAL_REGIONS), whose prices the catalog's pack holds.
{
  const region = new URLSearchParams(location.search).get('region') ?? '';
  const usual = typeof USUAL_REGIONS === 'undefined' ? [] : USUAL_REGIONS;
  const provider = /^[a-z]+(-[a-z]+)+-\d+$/.test(region) ? 'aws' : /^[a-z]+-[a-z]+\d+$/.test(region) ? 'gcp' : /^[a-z]+us\d*$/.test(region) ? 'azure' : '';
  if (provider && !usual.includes(region)) request(`./config/prices/${provider}/${region}.json`);
}

// A link's theme (?theme=light|dark, e.g. from an embedding page) before the first paint.
{
  const theme = new URLSearchParams(location.search).get('theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
}
