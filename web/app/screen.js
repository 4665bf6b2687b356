// The frame every screen shares: a heading, an inputs card (the workload form's groups it `uses`,
// placed there when it is shown, then its own inputs), an alert region and a results area.
// A screen recomputes on every input/change event of its inputs and reports the change so the
// URL can follow. Its render is given `ask` (the store's, for this render): answers may come from
// a Web Worker, so a render awaits them, a newer render supersedes an older one (whose questions
// still waiting are dropped and whose answer is never shown), and the results say "Working…"
// (aria-busy) while an answer takes longer than a frame.
import { h, onEdit } from './dom.js';
import { drawAnswer, drawWaiting, holdWaiting } from './in-place.js';
import { alertRegion, markFields } from './errors.js';
import { showChosenSections } from './embed-mode.js';

/** "Fit & memory answered: FITS g6e.xlarge · 1 × NVIDIA L40S": the view and its answer's first line. */
function summaryOf(title, results) {
  const first = results.querySelector('.verdict-title') ?? results.querySelector('h3, p');
  const line = (first?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return `${title} answered${line ? `: ${line.length > 140 ? `${line.slice(0, 139)}…` : line}` : '.'}`;
}

/** An answer's nodes as a list of parts: nested lists flattened, texts as text nodes, drawnLater's
 *  builds kept for in-place.js to call. */
function partsOf(nodes, parts = []) {
  if (Array.isArray(nodes)) for (const n of nodes) partsOf(n, parts);
  else if (typeof nodes === 'function' || nodes instanceof Node) parts.push(nodes);
  else if (nodes !== null && nodes !== undefined && nodes !== false) parts.push(document.createTextNode(String(nodes)));
  return parts;
}

/** `lead`: those of `controls` shown first in the inputs card, above the workload form. */
export function createScreen(store, { id, title, intro, form = null, uses = [], controls, lead = [], inputsTitle = 'Inputs', render, before, stacked = false }) {
  let more = null; // inputs a later module adds (extend)
  let saved = new URLSearchParams();
  const alert = alertRegion(`${id}-errors`);
  const results = h('div', { class: 'results', testid: `${id}-result`, 'data-state': 'empty' });
  // A short line is announced when an answer comes, not the whole answer (tens of KB of text).
  const said = h('p', { class: 'sr-only', role: 'status', testid: `${id}-said` });
  const working = h('p', { class: 'working', role: 'status', testid: `${id}-working`, hidden: true }, 'Working…');
  const rest = controls?.controls.filter((c) => !lead.includes(c)) ?? [];
  const own = rest.length ? h('form', { class: 'inputs', 'aria-label': `${title} inputs`, novalidate: true }, rest.map((c) => c.wrap)) : null;
  const first = lead.length ? h('form', { class: 'inputs lead-inputs', 'aria-label': `${title}: first choices`, novalidate: true }, lead.map((c) => c.wrap)) : null;
  // Results follow the inputs; there is no submit button.
  const formSlot = h('div', { class: 'form-slot' });
  const inputs = uses.length || controls;
  const card = inputs ? h('section', { class: 'card inputs-card', 'aria-labelledby': `${id}-inputs-h` },
    h('h3', { id: `${id}-inputs-h` }, inputsTitle), first, formSlot, own) : null;
  const layout = h('div', { class: ['layout', !inputs || stacked ? 'single' : null, stacked ? 'stacked' : null] },
    card,
    h('div', { class: 'output' }, alert.node, working, said, results));
  const panel = h('div', { class: 'screen', testid: `screen-${id}` },
    h('div', { class: 'screen-head' }, h('h2', { id: `${id}-title` }, title), intro ? h('p', { class: 'intro' }, intro) : null),
    before ?? null,
    layout);

  let run = null; // the render in flight
  let renders = 0;
  let busy;
  const screen = {
    id, title, panel, alert, results, controls, uses, formSlot,
    onChange: () => {},
    fill(store) { controls?.fill(store); more?.fill(store); },
    fromParams(p) { saved = p; controls?.fromParams(p); more?.fromParams(p); },
    toParams(p) { controls?.toParams(p); if (more && !more.node.hidden) more.toParams(p); },
    /** Adds inputs that a later module makes (`set`: a control set with `node`, shown or hidden by
     *  its maker), filled from the catalog and restored from the link the screen was opened with. */
    extend(set) {
      more = set;
      onEdit(set.node, changed);
      card.append(set.node);
      set.fill(store);
      set.fromParams(saved);
    },
    /** Runs the screen's question and renders its answer (or its errors); resolves when shown or
     *  superseded. */
    async render() {
      run?.abort();
      const mine = run = new AbortController();
      // data-drawing from the change until every part of its answer is drawn (tests wait for it).
      const ticket = ++renders;
      results.dataset.drawing = '';
      holdWaiting(results);
      const drawn = () => { if (ticket === renders) delete results.dataset.drawing; };
      const { signal } = mine;
      // Only an answer that is not back within a frame shows "Working…": the page's own core
      // answers before it is ever painted.
      clearTimeout(busy);
      busy = setTimeout(() => { working.hidden = false; results.setAttribute('aria-busy', 'true'); }, 16);
      let out;
      // What the page itself refuses (a fraction of a GPU count) is never asked.
      const fields = { controls: [...(uses.length ? form.controls() : []), ...(controls?.controls ?? []), ...(more && !more.node.hidden ? more.controls : [])] };
      const refused = fields.controls.flatMap((c) => c.check?.() ?? []);
      // A link value that could not be read (a broken escape) marks its field; the rest answers.
      const noted = fields.controls.flatMap((c) => c.linkErrors?.() ?? []);
      try {
        out = refused.length ? { errors: refused } : await render({ ask: async (request, options) => {
          const response = await store.ask(request, signal, options);
          return response.ok ? { response } : { errors: response.errors };
        } });
      } catch (e) {
        // Superseded: by a newer render, or by a catalog that replaced the one asked (whose 'change'
        // renders again).
        if (signal.aborted || e?.name === 'AbortError') return;
        out = { errors: [{ code: 'internal_error', file: 'page', path: '', message: String(e?.message ?? e) }] };
        console.warn(e);
      }
      if (signal.aborted) return;
      run = null;
      clearTimeout(busy);
      working.hidden = true;
      results.removeAttribute('aria-busy');
      markFields(fields, [...(out?.errors ?? []), ...noted]);
      if (out?.errors) {
        // The last good answer stays, dimmed, under the errors: whole.
        drawWaiting(results);
        const kept = results.childElementCount > 0 && results.dataset.state !== 'empty';
        alert.show(out.errors, undefined, kept ? 'The answer below is the last one for valid inputs.' : '');
        results.dataset.state = 'error';
        drawn();
      } else {
        alert.hide();
        const focused = document.activeElement;
        // Drawn in place, what is on screen first (in-place.js).
        drawAnswer(results, partsOf(out?.nodes), () => {
          drawn();
          showChosenSections(results);
        });
        showChosenSections(results);
        if (focused?.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
        results.dataset.state = 'ready';
      }
      said.textContent = out?.errors ? `${title}: not answered, ${out.errors.length === 1 ? 'one problem' : `${out.errors.length} problems`} listed above.` : summaryOf(title, results);
      results.dataset.seq = String(Number(results.dataset.seq ?? 0) + 1);
    },
  };
  const changed = () => screen.onChange(screen);
  for (const node of [own, first]) {
    if (node) onEdit(node, changed);
    node?.addEventListener('submit', (e) => e.preventDefault());
  }
  return screen;
}
