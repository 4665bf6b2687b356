// What an embedding page asks of the calculator (docs/page.md, Embedding): `theme` (light or
// dark; the host's <gpufleet-calculator> sends a change of its own theme by postMessage) and
// `compact` (answer: the answer without the inputs; summary: its first card only; or chosen
// sections, "verdict,cost": sections.js). Both stay in the link the page keeps in its address bar.
import { chosenSections } from './sections.js';

export const EMBED_KEYS = ['theme', 'compact'];
const THEMES = ['light', 'dark'];
const COMPACT = ['answer', 'summary'];

/** Applies the link's compact mode to `root` (the <html> element; prerendered.js, in the head,
 *  applies its theme before the first paint), and follows the host's theme. */
export function applyEmbedOptions(root, params, embed) {
  const compact = params.get('compact');
  const sections = chosenSections(compact);
  if (embed && COMPACT.includes(compact)) root.dataset.compact = compact;
  else if (embed && sections.length) {
    root.dataset.compact = 'sections';
    root.dataset.sections = sections.join(' ');
  }
  if (!embed || window.parent === window) return;
  // A theme change of the host page, from the element that embeds this page.
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (data?.type === 'gpufleet:theme' && THEMES.includes(data.theme)) root.dataset.theme = data.theme;
  });
}

/** The embed options of the link, kept in `p` (the page's new link). */
export function keepEmbedOptions(from, p) {
  for (const k of EMBED_KEYS) if (from.has(k)) p.set(k, from.get(k));
}

/** In a sections embed, hides what `results` (a view's answer, just drawn) holds outside the
 *  chosen sections: each other section, and each part of the answer holding none of them. */
export function showChosenSections(results, root = document.documentElement) {
  if (root.dataset.compact !== 'sections') return;
  const chosen = (root.dataset.sections ?? '').split(' ');
  const shown = (node) => chosen.includes(node.dataset.section);
  for (const node of results.querySelectorAll('[data-section]')) node.toggleAttribute('data-left-out', !shown(node));
  for (const node of results.children) {
    if (!node.dataset.section) node.toggleAttribute('data-left-out', ![...node.querySelectorAll('[data-section]')].some(shown));
  }
}
