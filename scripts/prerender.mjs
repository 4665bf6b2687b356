// Puts the default view's answer into the staged index.html, so that a visitor who opens the page
// sees it in the first frame painted, before the WebAssembly core has loaded (static site
// generation). The answer is the page's own: the staged site is opened in headless Chromium, the
// core answers the default inputs from the staged catalog, and the tab list and the view are copied
// into the HTML inside [data-prerendered] wrappers (inert: nothing in them can be used), as far
// as the first screen at 1280 x 800 shows them. The page's
// script removes them when its own first answer is on screen (web/app/page.js); a link with inputs
// of its own never shows them (web/prerendered.js). tests/browser/prerendered.test.mjs checks
// that the copy says what the live page says.
// Usage: node scripts/prerender.mjs SITE_DIR
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './site-server.mjs';

const site = path.resolve(process.argv[2] ?? '');
const page = path.join(site, 'index.html');
if (!process.argv[2] || !fs.existsSync(page)) {
  console.error(`prerender: usage: node scripts/prerender.mjs SITE_DIR (a staged site with an index.html; got ${process.argv[2] ?? 'nothing'})`);
  process.exit(2);
}
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromiumPath)) {
  console.error(`prerender: ${chromiumPath} is missing: run scripts/setup.sh (it installs Debian's chromium)`);
  process.exit(2);
}

const server = await startServer(site);
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
let copies;
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const failures = [];
  tab.on('pageerror', (e) => failures.push(String(e)));
  await tab.goto(`${server.origin}/`);
  await tab.waitForFunction(() => document.documentElement.dataset.ready, null, { timeout: 60000 });
  const ready = await tab.evaluate(() => document.documentElement.dataset.ready);
  if (ready !== '1' || failures.length) throw new Error(`the page did not answer its default inputs: ${failures.join('; ') || ready}`);
  copies = await tab.evaluate(() => {
    const copy = (id) => {
      // What is not displayed (hidden inputs of other choices, empty alert regions, other views'
      // panels) is left out, and what lies below the first screen (the live page brings it a
      // moment later, before anyone has scrolled to it).
      const hidden = [...document.getElementById(id).querySelectorAll('*')]
        .filter((el) => getComputedStyle(el).display === 'none' || el.getBoundingClientRect().top >= innerHeight);
      hidden.forEach((el) => el.setAttribute('data-not-shown', ''));
      const node = document.getElementById(id).cloneNode(true);
      hidden.forEach((el) => el.removeAttribute('data-not-shown'));
      // What the script set as properties, written as attributes (the HTML carries only those).
      const live = [...document.getElementById(id).querySelectorAll('input, select, textarea')];
      node.querySelectorAll('input, select, textarea').forEach((el, i) => {
        const from = live[i];
        if (el.type === 'checkbox' || el.type === 'radio') el.toggleAttribute('checked', from.checked);
        else if (el.tagName === 'SELECT') {
          // Only the option shown: the copy cannot be opened, and the full lists are most of its bytes.
          const shown = [...el.options].filter((o, k) => from.options[k]?.selected);
          shown.forEach((o) => o.setAttribute('selected', ''));
          el.replaceChildren(...shown);
        } else if (el.tagName === 'TEXTAREA') el.textContent = from.value;
        else el.setAttribute('value', from.value);
      });
      // Tooltips and screen-reader text: nothing reads them in an inert copy.
      node.querySelectorAll('datalist, svg title, .sr-only').forEach((d) => d.remove());
      node.querySelectorAll('[data-not-shown]').forEach((el) => el.remove());
      // What only assistive technology, labels' clicks, input checks or scripts read: the copy is inert (out of
      // the accessibility tree), and the style sheet reads none of them (it reads role and the
      // aria-selected/-busy/-invalid states, kept).
      const CSS_READS = new Set(['aria-selected', 'aria-busy', 'aria-invalid']);
      for (const el of node.querySelectorAll('*')) {
        for (const { name } of [...el.attributes]) {
          if (['id', 'for', 'tabindex', 'name', 'list', 'autocomplete', 'inputmode', 'novalidate', 'min', 'max', 'step', 'data-seq'].includes(name)
            || (name.startsWith('aria-') && !CSS_READS.has(name))) el.removeAttribute(name);
        }
      }
      // A closed disclosure shows its summary only.
      node.querySelectorAll('details:not([open])').forEach((d) => [...d.children].forEach((c) => c.tagName !== 'SUMMARY' && c.remove()));
      return node.innerHTML;
    };
    return { tabs: copy('tabs'), main: copy('main') };
  });
} finally {
  await browser.close();
  await server.close();
}

const wrap = (html) => `<div data-prerendered inert>${html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '')}</div>`;
let html = fs.readFileSync(page, 'utf8');
const fill = (pattern, replace) => {
  if (!pattern.test(html)) throw new Error(`prerender: ${page} has no ${pattern}`);
  html = html.replace(pattern, replace);
};
fill(/(<nav id="tabs"[^>]*>)(<\/nav>)/, (_, open, close) => `${open}${wrap(copies.tabs)}${close}`);
fill(/(<main id="main"[^>]*>\s*<noscript>[\s\S]*?<\/noscript>)/, (_, open) => `${open}${wrap(copies.main)}`);
fs.writeFileSync(page, html);
console.log(`prerender: the default view's answer is in ${path.relative(process.cwd(), page) || page} (${copies.main.length + copies.tabs.length} characters)`);
