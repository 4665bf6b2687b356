// Less drawn per answer (a change's DOM build, style, layout and paint scale with its elements),
// with every figure still there when wanted: a table of many rows (the ranked candidates, the spot
// pools) drawn a screenful at a time, the first rows with the answer and the others when asked
// ("Show all N"), when the table's end comes near the screen, or before printing (a folded
// disclosure's content is built when first opened: foldedLater in dom.js).
import { h, table } from './dom.js';
import { live } from './in-place.js';

/** Rows drawn with the answer: what a 1280 x 800 screen shows of a table under its answer's
 *  verdict, and more. */
export const FIRST_ROWS = 10;

/** Tables (by testid) whose every row was asked for or scrolled to: their next answers draw every
 *  row at once, so that a change does not shorten the page under someone reading its end. */
const whole = new Set();
/** The tables drawn in part: [{line, rest}]; those of answers since replaced are dropped. */
let partial = [];
addEventListener('beforeprint', () => partial.forEach((t) => t.rest()));

/** table() with `count` rows, row i's nodes from `row(i)`: the first `first` now, the rest later.
 *  The button's testid is the table's with `-all`; `what` names the rows ("candidates"). */
export function longTable(options, { count, row, what = 'rows', first = FIRST_ROWS }) {
  const now = whole.has(options.testid) ? count : Math.min(count, first);
  const block = table({ ...options, rows: Array.from({ length: now }, (_, i) => row(i)) });
  if (count <= now) return block;
  const button = h('button', { type: 'button', class: 'small-button', testid: `${options.testid}-all` }, `Show all ${count} ${what}`);
  const line = live(h('p', { class: 'table-more muted small' }, `The first ${now} of ${count} ${what}. `, button));
  let near = null;
  const rest = () => {
    near?.disconnect();
    partial = partial.filter((t) => t.line !== line);
    if (!line.isConnected) return;
    // The table on screen before the line: an answer drawn in place keeps the one it replaced.
    const body = line.previousElementSibling.querySelector('tbody');
    const nodes = [];
    for (let i = now; i < count; i++) nodes.push(row(i));
    body.append(...nodes.flat(Infinity).filter(Boolean));
    const focused = document.activeElement === button;
    line.remove();
    if (focused) body.closest('.table-scroll')?.focus({ preventScroll: true });
  };
  const asked = () => { whole.add(options.testid); rest(); };
  button.addEventListener('click', asked);
  if (typeof IntersectionObserver === 'function') {
    near = new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) asked(); }, { rootMargin: '0px 0px 400px 0px' });
    near.observe(line);
  }
  // Tables of answers replaced since (never printed, never scrolled to) are let go.
  partial = partial.filter((t) => t.line.isConnected || (t.rest(), false));
  partial.push({ line, rest });
  (block.querySelector('.table-scroll') ?? block).after(line);
  return block;
}
