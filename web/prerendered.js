// The page's HTML holds the default view's answer, rendered when the site was staged
// (scripts/prerender.mjs). A link with inputs of its own (a query or a fragment) must never show
// it, not even for one frame: this classic script runs before the body is parsed, and the style
// sheet hides [data-prerendered] under html.live.
if (location.search || location.hash) document.documentElement.classList.add('live');

// A link to a view other than the default one (or to Fit on one GPU alone or on any instance with a
// GPU) needs the later views' module: requested now, beside the page's own, instead of after the
// page's module has run. scripts/stage-site.sh names that module's files (LATER_MODULES).
{
  const p = new URLSearchParams(location.search);
  const view = p.get('view');
  const later = typeof LATER_MODULES === 'undefined' ? [] : LATER_MODULES;
  if ((view && view !== 'fit') || /^(gpu|any):/.test(p.get('instance') ?? '')) {
    for (const href of later) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
  }
}

// A link's theme (?theme=light|dark, e.g. from an embedding page) before the first paint.
{
  const theme = new URLSearchParams(location.search).get('theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
}
