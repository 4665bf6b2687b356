// The page's entry: starts the live page (page.js) at once under a link with inputs of its own
// (html.live, web/prerendered.js), and on the default view, whose answer the staged page holds,
// once the first frame is painted: loaded sooner, the live page's files delay that frame by
// 30-50 ms on 2 cores (docs/performance.md). web/prerendered.js requests the files at the same
// moment. A page that is never painted (opened in the background) starts after a second. This
// script is async (web/index.html): the live page waits for the whole document to be parsed.
const start = () => (document.readyState === 'loading' ? addEventListener('DOMContentLoaded', start, { once: true }) : import('./page.js'));
if (document.documentElement.classList.contains('live')) start();
else {
  new PerformanceObserver(start).observe({ type: 'paint', buffered: true });
  setTimeout(start, 1000);
}
