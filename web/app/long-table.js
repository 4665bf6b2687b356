// Less drawn per answer (a change's DOM build, style, layout and paint scale with its elements),
// with every figure still there when wanted: a table of many rows (the ranked candidates, the spot
// pools) drawn a screenful at a time, the first rows with the answer and the others when asked
// ("Show all N"), when the table's end comes near the screen, or before printing (a folded
// disclosure's content is built when first opened: foldedLater in dom.js).
import { h, table } from './dom.js';

/** Rows drawn with the answer: what a 1280 x 800 screen shows of a table under its answer's
 *  verdict, and more. */
export const FIRST_ROWS = 10;

/** table() with `count` rows, row i's nodes from `row(i)`: the first `first` now, the rest later.
 *  The button's testid is the table's with `-all`; `what` names the rows ("candidates"). */
export function longTable(options, { count, row, what = 'rows', first = FIRST_ROWS }) {
  const now = Math.min(count, first);
  const block = table({ ...options, rows: Array.from({ length: now }, (_, i) => row(i)) });
  if (count <= now) return block;
  const body = block.querySelector('tbody');
  const button = h('button', { type: 'button', class: 'small-button', testid: `${options.testid}-all` }, `Show all ${count} ${what}`);
  const line = h('p', { class: 'table-more muted small' }, `The first ${now} of ${count} ${what}. `, button);
  let near = null;
  const rest = () => {
    if (!line.isConnected) return;
    near?.disconnect();
    removeEventListener('beforeprint', rest);
    const nodes = [];
    for (let i = now; i < count; i++) nodes.push(row(i));
    body.append(...nodes.flat(Infinity).filter(Boolean));
    const focused = document.activeElement === button;
    line.remove();
    if (focused) body.closest('.table-scroll')?.focus({ preventScroll: true });
  };
  button.addEventListener('click', rest);
  addEventListener('beforeprint', rest);
  if (typeof IntersectionObserver === 'function') {
    near = new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) rest(); }, { rootMargin: '0px 0px 600px 0px' });
    near.observe(line);
  }
  (block.querySelector('.table-scroll') ?? block).after(line);
  return block;
}
