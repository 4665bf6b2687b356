// The page's entry: starts the live page (page.js) at once under a link with inputs of its own,
// and on the default view, whose answer the staged page holds, once the first frame is painted:
// loaded sooner, the live page's files delay that frame by 30-50 ms on 2 cores (docs/performance.md).
// A page never painted (opened in the background) starts after a second. web/prerendered.js
// requests the files on the same signals. This script is async (web/index.html): the live page
// waits for the whole document to be parsed; importing it again returns the same module.
const root = document.documentElement;
// A host whose own Content-Security-Policy header does not name the staged page's inline style
// sheet and script by their hashes refuses them (docs/page.md, Security): each from its file.
const add = (tag, attributes) => document.head.append(Object.assign(document.createElement(tag), attributes));
if (!getComputedStyle(root).getPropertyValue('--accent')) add('link', { rel: 'stylesheet', href: './style.css' });
if (!('headScript' in root.dataset)) add('script', { src: './prerendered.js' });

const start = () => (document.readyState === 'loading' ? addEventListener('DOMContentLoaded', start, { once: true }) : import('./page.js'));
if (location.search || location.hash) start();
else {
  new PerformanceObserver(start).observe({ type: 'paint', buffered: true });
  setTimeout(start, 1000);
}
