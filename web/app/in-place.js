// A new answer drawn in place: the nodes built for it are matched, position by position, with those
// shown, and only what differs is written (a text's characters, an attribute), so that the browser
// styles, lays out and paints again only the figures that changed: a whole answer's nodes replaced
// cost more than the answer itself (issue 38, docs/performance.md). And what is on screen first: the
// answer's parts outside the window are drawn when the page is next idle (within a frame or two,
// before anyone scrolls there), so that the frame after a change holds only what it shows.
//
// A node that carries behaviour (an event listener, an observer, a closure that fills or reads it
// later) is `live`: it is never kept for a new one, whose behaviour belongs to the new answer; the
// new node replaces it, with everything under it.

const lives = new WeakSet();

/** Marks `node` as carrying behaviour of its own answer; returns it. */
export function live(node) {
  lives.add(node);
  return node;
}

/** Form fields keep their state in properties that attributes do not show. */
const FIELDS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'BUTTON']);

const keeps = (old, node) => old === node || old.nodeType === node.nodeType && old.nodeName === node.nodeName
  && old.namespaceURI === node.namespaceURI && !lives.has(old) && !lives.has(node) && !FIELDS.has(old.nodeName);

/** Makes `parent`'s children look like those of `fresh` (built for the new answer, not in the
 *  document), which it empties: each node on screen of the same kind is kept and brought up to
 *  date, any other replaced by the new one. */
export function patchChildren(parent, fresh) {
  let old = parent.firstChild;
  let node = fresh.firstChild;
  while (node) {
    const nextNode = node.nextSibling;
    if (!old) {
      parent.append(node);
    } else if (keeps(old, node)) {
      update(old, node);
      old = old.nextSibling;
    } else {
      const next = old.nextSibling;
      parent.replaceChild(node, old);
      old = next;
    }
    node = nextNode;
  }
  while (old) {
    const next = old.nextSibling;
    old.remove();
    old = next;
  }
}

function update(old, node) {
  // A node a view keeps from one answer to the next (the Catalog's browser) stays as it is.
  if (old === node) return;
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.data !== node.data) old.data = node.data;
    return;
  }
  if (old.hasAttributes() || node.hasAttributes()) {
    for (const name of old.getAttributeNames()) if (!node.hasAttribute(name)) old.removeAttribute(name);
    for (const name of node.getAttributeNames()) {
      const value = node.getAttribute(name);
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    }
  }
  if (old.firstChild || node.firstChild) patchChildren(old, node);
}

/** Answers whose parts outside the window wait for the page's next idle time: parent -> draw(). */
const waiting = new Map();

/** Whether each part of an answer lay outside the window at the last frame (an
 *  IntersectionObserver's, so that no layout is forced to know it; not one of a hidden view): node
 *  -> true. */
const outside = new WeakMap();
/** Whether each answer's place (the parent of its parts) was on screen at the last frame. */
const seen = new WeakMap();
const watcher = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (seen.has(e.target)) seen.set(e.target, e.isIntersecting);
      else outside.set(e.target, !e.isIntersecting && e.boundingClientRect.height > 0);
    }
  })
  : null;

/** `old`, a part of an answer, leaves the page. */
function drop(old) {
  watcher?.unobserve(old);
  old.remove();
}

/** Watches `parent` and the parts of its answer that it does not watch yet. */
function watch(parent) {
  if (!seen.has(parent)) {
    seen.set(parent, false);
    watcher?.observe(parent);
  }
  for (const node of parent.children) {
    if (!outside.has(node)) {
      outside.set(node, false);
      watcher?.observe(node);
    }
  }
}

/** A part of an answer built when it is drawn (`build()` returns its node, or null): one outside
 *  the window is not even built in the frame after a change. Inside another node (dom.js append) it
 *  is built at once. */
export const drawnLater = (build) => build;

/** The node of an answer's part (a node, or drawnLater's build; one that fails says so there). */
function built(part) {
  if (typeof part !== 'function') return part;
  try {
    return part();
  } catch (e) {
    console.error(e);
    const said = document.createElement('p');
    said.className = 'error';
    said.textContent = `This part of the answer could not be drawn: ${String(e?.message ?? e)}`;
    return said;
  }
}

/** Puts `part` where `old` is (`old` null: at the end of `parent`). */
function place(parent, old, part) {
  const node = built(part);
  if (!old) {
    if (node) parent.append(node);
  } else if (!node) drop(old);
  else if (keeps(old, node)) update(old, node);
  else {
    old.before(node);
    drop(old);
  }
}

/** Draws `parts` (a new answer's nodes, or drawnLater's builds) in place of `parent`'s children:
 *  those replacing a part on screen (or the whole answer, when none was shown) now, the others
 *  when the page is next idle; `done` runs once every part is drawn. An answer drawn over one still
 *  waiting replaces it. */
export function drawAnswer(parent, parts, done = () => {}) {
  const before = waiting.get(parent);
  if (before) {
    waiting.delete(parent);
    before.cancel();
  }
  const olds = [...parent.childNodes];
  // Parts wait only in a view on screen at the last frame (one just shown draws at once: its
  // parts' places are not known yet).
  const shown = seen.get(parent) === true;
  const off = olds.map((node) => shown && outside.get(node) === true);
  const later = [];
  let i = 0;
  for (; i < parts.length; i++) {
    const old = olds[i] ?? null;
    // New parts after the last one shown follow it: below the window when it is.
    if (old ? off[i] : off.at(-1)) later.push([old, parts[i]]);
    else place(parent, old, parts[i]);
  }
  for (; i < olds.length; i++) {
    if (off[i]) later.push([olds[i], null]);
    else drop(olds[i]);
  }
  watch(parent);
  if (!later.length) return done();
  const draw = () => {
    waiting.delete(parent);
    for (const [old, part] of later) place(parent, old, part);
    watch(parent);
    done();
  };
  const cancel = whenIdle(draw);
  waiting.set(parent, { cancel, draw });
}

/** Runs `fn` when the page is next idle (after the frame being made is painted); returns a cancel. */
export function whenIdle(fn) {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 250 });
    return () => cancelIdleCallback(id);
  }
  // No idle callbacks (Safari): the task after the next frame.
  let timer = 0;
  const frame = requestAnimationFrame(() => { timer = setTimeout(fn, 0); });
  return () => { cancelAnimationFrame(frame); clearTimeout(timer); };
}

/** Holds what waits of the answer in `parent` while a new answer is computed: the new one replaces
 *  it (or, refused, draws it: drawWaiting), and no idle time before then is spent on it. */
export function holdWaiting(parent) {
  const w = waiting.get(parent);
  if (!w) return;
  w.cancel();
  w.cancel = () => {};
}

/** Draws at once what waits of the answer in `parent` (every answer's when none is named). */
export function drawWaiting(parent = null) {
  for (const [p, w] of [...waiting]) {
    if (parent && p !== parent) continue;
    w.cancel();
    w.draw();
  }
}
addEventListener('beforeprint', () => drawWaiting());
