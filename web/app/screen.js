// The frame every screen shares: a heading, an inputs card, an alert region and a results area.
// A screen recomputes on every input/change event of its inputs and reports the change so the
// URL can follow.
import { h, clear } from './dom.js';
import { alertRegion } from './errors.js';

export function createScreen({ id, title, intro, controls, inputsTitle = 'Inputs', render, before, stacked = false }) {
  const alert = alertRegion(`${id}-errors`);
  const results = h('div', { class: 'results', testid: `${id}-result`, 'aria-live': 'polite', 'data-state': 'empty' });
  const form = h('form', { class: 'inputs', 'aria-label': `${title} inputs`, novalidate: true },
    controls?.controls.map((c) => c.wrap));
  // Results follow the inputs; there is no submit button.
  form.addEventListener('submit', (e) => e.preventDefault());
  const layout = h('div', { class: ['layout', !controls || stacked ? 'single' : null, stacked ? 'stacked' : null] },
    controls ? h('section', { class: 'card inputs-card', 'aria-labelledby': `${id}-inputs-h` },
      h('h3', { id: `${id}-inputs-h` }, inputsTitle), form) : null,
    h('div', { class: 'output' }, alert.node, results));
  const panel = h('div', { class: 'screen', testid: `screen-${id}` },
    h('div', { class: 'screen-head' }, h('h2', { id: `${id}-title` }, title), intro ? h('p', { class: 'intro' }, intro) : null),
    before ?? null,
    layout);

  const screen = {
    id, title, panel, form, alert, results, controls,
    onChange: () => {},
    fill(store) { controls?.fill(store); },
    fromParams(p) { controls?.fromParams(p); },
    toParams(p) { controls?.toParams(p); },
    /** Runs the screen's question and renders its answer (or its errors). */
    render() {
      let out;
      try {
        out = render(screen);
      } catch (e) {
        out = { errors: [{ code: 'internal_error', file: 'page', path: '', message: String(e?.message ?? e) }] };
        console.warn(e);
      }
      if (out?.errors) {
        alert.show(out.errors);
        results.dataset.state = 'error';
        results.replaceChildren();
      } else {
        alert.hide();
        const focused = document.activeElement;
        clear(results, out?.nodes ?? []);
        if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
        results.dataset.state = 'ready';
      }
      results.dataset.seq = String(Number(results.dataset.seq ?? 0) + 1);
    },
  };
  const changed = () => screen.onChange(screen);
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
  return screen;
}

/** Runs a request; returns {response} or {errors}. */
export function ask(store, request) {
  const response = store.ask(request);
  return response.ok ? { response } : { errors: response.errors };
}
