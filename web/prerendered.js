// The page's HTML holds the default view's answer, rendered when the site was staged
// (scripts/prerender.mjs). A link with inputs of its own (a query or a fragment) must never show
// it, not even for one frame: this classic script runs before the body is parsed, and the style
// sheet hides [data-prerendered] under html.live.
if (location.search || location.hash) document.documentElement.classList.add('live');
// A link's theme (?theme=light|dark, e.g. from an embedding page) before the first paint.
{
  const theme = new URLSearchParams(location.search).get('theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
}
