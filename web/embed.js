// <gpufleet-calculator view="fit" preset="size=small&workload=inference&instance=G6e">
// renders the gpufleet page in embed mode in an iframe. The page URL is resolved relative to this
// script, so the element works from any page that loads it from a gpufleet site, on its origin
// or another one (the site then serves embed.js with Access-Control-Allow-Origin; docs/page.md).
const PAGE = new URL('./index.html', import.meta.url);
// The views are the page's own list (scripts/stage-site.sh bundles it into the staged embed.js).
import { VIEWS as LIST, OLD_VIEWS } from './app/views.js';

// An earlier view's id is passed on: the page opens the view that answers it now.
const TITLES = Object.fromEntries(LIST.map((v) => [v.id, v.title]));
for (const [old, now] of Object.entries(OLD_VIEWS)) TITLES[old] = TITLES[now];
const VIEWS = Object.keys(TITLES);

export class GpufleetCalculator extends HTMLElement {
  static observedAttributes = ['view', 'preset', 'height', 'title'];
  #iframe = null;
  #onMessage = (event) => {
    // Only height reports from our own iframe resize it.
    if (!this.#iframe || event.source !== this.#iframe.contentWindow) return;
    if (event.origin !== PAGE.origin) return;
    const data = event.data;
    if (data?.type !== 'gpufleet:height' || !Number.isFinite(data.height) || this.hasAttribute('height')) return;
    this.#iframe.style.height = `${Math.min(Math.max(data.height + 4, 240), 4000)}px`;
  };

  /** The embed URL for this element's view and preset. */
  get src() {
    const view = VIEWS.includes(this.getAttribute('view')) ? this.getAttribute('view') : 'fit';
    const params = new URLSearchParams();
    params.set('embed', '1');
    params.set('view', view);
    for (const [k, v] of new URLSearchParams(this.getAttribute('preset') ?? '')) {
      if (k !== 'embed' && k !== 'view') params.append(k, v);
    }
    const url = new URL(PAGE);
    url.search = params.toString();
    return url.href;
  }

  connectedCallback() {
    window.addEventListener('message', this.#onMessage);
    this.#render();
  }
  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
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
      Object.assign(this.#iframe.style, { display: 'block', width: '100%', border: '1px solid #d9dde3', borderRadius: '10px', background: '#fff' });
      this.style.display = 'block';
      this.replaceChildren(this.#iframe);
    }
    this.#iframe.title = this.getAttribute('title') || `gpufleet ${TITLES[view]} calculator`;
    this.#iframe.style.height = `${Number(this.getAttribute('height')) || 720}px`;
    const src = this.src;
    if (this.#iframe.src !== src) this.#iframe.src = src;
  }
}

if (!customElements.get('gpufleet-calculator')) customElements.define('gpufleet-calculator', GpufleetCalculator);
