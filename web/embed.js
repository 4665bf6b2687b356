// <gpufleet-calculator view="fit" preset="size=small&workload=inference&instance=G6e"
//   theme="auto" compact="answer" max-height="1600"> renders the gpufleet page in embed mode in an
// iframe that grows to its content (max-height, if given, caps it: the iframe then scrolls).
// theme: light, dark, or auto (the default: the host's own scheme, read from the background behind
// the element, else its prefers-color-scheme, followed as it changes). compact: answer (no inputs),
// summary (the answer's first card), or the sections to show, "verdict,cost" (app/sections.js;
// docs/page.md lists them). The page URL is resolved relative to this
// script, so the element works from any page that loads it from a gpufleet site, on its origin
// or another one (the site then serves embed.js with Access-Control-Allow-Origin; docs/page.md).
const PAGE = new URL('./index.html', import.meta.url);
// The views are the page's own list (scripts/stage-site.sh bundles it into the staged embed.js).
import { VIEWS as LIST, OLD_VIEWS } from './app/views.js';
import { chosenSections } from './app/sections.js';

// An earlier view's id is passed on: the page opens the view that answers it now.
const TITLES = Object.fromEntries(LIST.map((v) => [v.id, v.title]));
for (const [old, now] of Object.entries(OLD_VIEWS)) TITLES[old] = TITLES[now];
const VIEWS = Object.keys(TITLES);

export class GpufleetCalculator extends HTMLElement {
  static observedAttributes = ['view', 'preset', 'height', 'title', 'theme', 'compact', 'max-height'];
  #iframe = null;
  #theme = null; // the theme the iframe shows
  #watch = null;
  #media = null;
  #follow = () => this.#followTheme();
  #onMessage = (event) => {
    // Only height reports from our own iframe resize it.
    if (!this.#iframe || event.source !== this.#iframe.contentWindow) return;
    if (event.origin !== PAGE.origin) return;
    const data = event.data;
    if (data?.type !== 'gpufleet:height' || !Number.isFinite(data.height) || this.hasAttribute('height')) return;
    const most = Number(this.getAttribute('max-height')) || Infinity;
    this.#iframe.style.height = `${Math.min(Math.max(data.height + 4, 240), most)}px`;
  };

  /** light or dark: the attribute's, else the host's (the first opaque background behind the
   *  element, by its lightness; else the reader's preference). */
  get theme() {
    const asked = this.getAttribute('theme');
    if (asked === 'light' || asked === 'dark') return asked;
    for (let node = this.parentElement; node; node = node.parentElement) {
      const rgb = getComputedStyle(node).backgroundColor.match(/[\d.]+/g)?.map(Number);
      if (rgb && (rgb.length < 4 || rgb[3] > 0.5)) return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 128 ? 'dark' : 'light';
    }
    return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  /** The embed URL for this element's view and preset. */
  get src() {
    const view = VIEWS.includes(this.getAttribute('view')) ? this.getAttribute('view') : 'fit';
    const params = new URLSearchParams();
    params.set('embed', '1');
    params.set('view', view);
    for (const [k, v] of new URLSearchParams(this.getAttribute('preset') ?? '')) {
      if (!['embed', 'view', 'theme', 'compact'].includes(k)) params.append(k, v);
    }
    params.set('theme', this.#theme ?? this.theme);
    const compact = this.getAttribute('compact');
    const sections = chosenSections(compact);
    if (compact === 'answer' || compact === 'summary') params.set('compact', compact);
    else if (sections.length) params.set('compact', sections.join(','));
    const url = new URL(PAGE);
    url.search = params.toString();
    return url.href;
  }

  connectedCallback() {
    window.addEventListener('message', this.#onMessage);
    // The host's theme is followed: its classes, styles and the reader's preference.
    this.#watch = new MutationObserver(this.#follow);
    for (const node of [document.documentElement, document.body].filter(Boolean)) {
      this.#watch.observe(node, { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] });
    }
    this.#media = matchMedia('(prefers-color-scheme: dark)');
    this.#media.addEventListener('change', this.#follow);
    this.#render();
  }
  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
    this.#watch?.disconnect();
    this.#media?.removeEventListener('change', this.#follow);
  }

  /** A new host theme is sent to the page, which restyles itself without loading again. */
  #followTheme() {
    const theme = this.theme;
    if (!this.#iframe || theme === this.#theme) return;
    this.#theme = theme;
    this.#paintFrame();
    this.#iframe.contentWindow?.postMessage({ type: 'gpufleet:theme', theme }, PAGE.origin);
  }

  #paintFrame() {
    const dark = this.#theme === 'dark';
    Object.assign(this.#iframe.style, { border: `1px solid ${dark ? '#343b45' : '#d9dde3'}`, background: dark ? '#111418' : '#fff', colorScheme: this.#theme });
  }
  attributeChangedCallback() {
    if (this.isConnected) this.#render();
  }

  #render() {
    const view = VIEWS.includes(this.getAttribute('view')) ? this.getAttribute('view') : 'fit';
    if (!this.#iframe) {
      this.#iframe = document.createElement('iframe');
      this.#iframe.loading = 'lazy';
      this.#iframe.referrerPolicy = 'no-referrer';
      // CSSOM styles (allowed under a strict CSP, unlike style attributes).
      Object.assign(this.#iframe.style, { display: 'block', width: '100%', borderRadius: '10px' });
      this.style.display = 'block';
      this.replaceChildren(this.#iframe);
    }
    this.#theme = this.theme;
    this.#paintFrame();
    this.#iframe.title = this.getAttribute('title') || `gpufleet ${TITLES[view]} calculator`;
    this.#iframe.style.height = `${Number(this.getAttribute('height')) || 720}px`;
    const src = this.src;
    if (this.#iframe.src !== src) this.#iframe.src = src;
  }
}

if (!customElements.get('gpufleet-calculator')) customElements.define('gpufleet-calculator', GpufleetCalculator);
