// "Find a model by name": a name as a person types it (a Hugging Face id with or without its
// organisation, -Instruct or -Chat, spaces, dashes and case, "llama3 8b") is resolved by the core
// (the catalog question's model_name, the resolver the CLI's --model uses), never by the page:
// a name the catalog has chooses its model; another shows the nearest models, ranked, and the way
// out for a model the catalog lacks (its config.json).
import { h } from './dom.js';

/** The find box of the model field `prefix`. `choose(key)` picks a catalog model, `useConfig()`
 *  the "your own config.json" choice; `ask` is set once the catalog is there (fill). */
export function modelFind(prefix, { choose, useConfig }) {
  const input = h('input', {
    id: `${prefix}-find`, type: 'search', list: `${prefix}-names`, autocomplete: 'off', spellcheck: false,
    testid: `${prefix}-find`, placeholder: 'meta-llama/Llama-3.1-8B-Instruct, llama3 8b…', 'aria-describedby': `${prefix}-find-status`,
  });
  const names = h('datalist', { id: `${prefix}-names` });
  // A short line, announced politely: what the typed name chose, or that none matched.
  const status = h('p', { id: `${prefix}-find-status`, class: 'find-status hint', role: 'status', testid: `${prefix}-find-status` });
  const offers = h('div', { class: 'find-offers', testid: `${prefix}-find-offers`, hidden: true });
  let ask = null;
  let asked = 0;

  const offer = (label, testid, pick) => {
    const b = h('button', { type: 'button', class: 'find-offer', testid }, label);
    b.addEventListener('click', () => { pick(); offers.hidden = true; offers.replaceChildren(); status.textContent = ''; });
    return b;
  };
  const show = (found, typed) => {
    offers.replaceChildren();
    offers.hidden = true;
    if (found.key) {
      status.textContent = `“${typed}” is ${found.name}.`;
      input.value = '';
      choose(found.key);
      return;
    }
    status.textContent = `“${typed}” is not in the catalog.${found.suggestions.length ? ' Nearest:' : ''}`;
    offers.append(
      ...found.suggestions.map((s) => offer(s.name, `${prefix}-find-suggestion-${s.key}`, () => { input.value = ''; choose(s.key); })),
      offer('Not in the catalog: paste its config.json', `${prefix}-find-config`, () => useConfig()));
    offers.hidden = false;
  };
  input.addEventListener('input', (e) => e.stopPropagation());
  input.addEventListener('change', async (e) => {
    e.stopPropagation();
    const typed = input.value.trim();
    const mine = ++asked;
    if (!typed || !ask) return;
    const response = await ask({ question: 'catalog', section: 'model_name', model_name: typed });
    if (mine !== asked) return; // a newer name was typed meanwhile
    if (!response.ok) { status.textContent = response.errors?.[0]?.message ?? 'The name could not be looked up.'; return; }
    show(response.result.model_name, typed);
  });
  const wrap = h('div', { class: 'field model-find' }, h('label', { for: input.id }, 'Find a model by name'), input, names, status, offers);
  return {
    wrap, input,
    /** The catalog's model names offered as the box is typed in, and the core to ask. */
    fill(models, askCore) {
      ask = askCore;
      names.replaceChildren(...models.map((m) => h('option', { value: m.name })));
    },
  };
}
