// Just enough of a DOM for the page's controls and screens to be built, restored from a link,
// changed and asked under node (tests/web/links.test.mjs): elements with attributes, children,
// text, events that bubble, <select>/<option> values, checkboxes, and querySelector for the
// selectors the page uses (tag, #id, .class, [attr], [attr=value], descendants). Nothing is laid
// out or painted. install() puts document, Node, CSS and friends on globalThis.

class StandInNode {
  constructor(ownerDocument) {
    this.ownerDocument = ownerDocument;
    this.parentNode = null;
    this.childNodes = [];
    this.listeners = new Map();
  }
  get parentElement() { return this.parentNode instanceof StandInElement ? this.parentNode : null; }
  get nextSibling() {
    const siblings = this.parentNode?.childNodes ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  before(...nodes) { for (const n of nodes) this.parentNode?.insertBefore(n, this); }
  replaceChild(node, old) {
    this.insertBefore(node, old);
    return this.removeChild(old);
  }
  get previousElementSibling() {
    const siblings = this.parentNode?.children ?? [];
    return siblings[siblings.indexOf(this) - 1] ?? null;
  }
  get isConnected() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n === this.ownerDocument?.documentElement;
  }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(''); }
  set textContent(text) { this.replaceChildren(String(text)); }
  addEventListener(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(fn);
  }
  removeEventListener(type, fn) {
    const list = this.listeners.get(type) ?? [];
    if (list.includes(fn)) list.splice(list.indexOf(fn), 1);
  }
  /** Listeners of the node, then of its ancestors while the event bubbles and is not stopped. */
  dispatchEvent(event) {
    Object.defineProperty(event, 'target', { value: this, configurable: true });
    for (let n = this; n; n = event.bubbles ? n.parentNode : null) {
      Object.defineProperty(event, 'currentTarget', { value: n, configurable: true });
      for (const fn of [...(n.listeners.get(event.type) ?? [])]) fn.call(n, event);
      if (event.cancelBubble) break;
    }
    return !event.defaultPrevented;
  }
  #adopt(child) {
    const node = child instanceof StandInNode ? child : this.ownerDocument.createTextNode(String(child));
    node.parentNode?.removeChild(node);
    node.parentNode = this;
    return node;
  }
  append(...children) {
    for (const c of children) this.childNodes.push(this.#adopt(c));
    for (let n = this; n; n = n.parentNode) if (n.localName === 'select') n.noneSelected = false;
  }
  appendChild(child) { this.append(child); return child; }
  prepend(...children) { this.childNodes.unshift(...children.map((c) => this.#adopt(c))); }
  insertBefore(child, before) {
    const node = this.#adopt(child);
    const at = this.childNodes.indexOf(before);
    this.childNodes.splice(at < 0 ? this.childNodes.length : at, 0, node);
    return child;
  }
  removeChild(child) {
    const at = this.childNodes.indexOf(child);
    if (at >= 0) this.childNodes.splice(at, 1);
    child.parentNode = null;
    return child;
  }
  remove() { this.parentNode?.removeChild(this); }
  after(...nodes) {
    const parent = this.parentNode;
    const next = parent?.childNodes[parent.childNodes.indexOf(this) + 1] ?? null;
    for (const n of nodes) parent?.insertBefore(n, next);
  }
  replaceChildren(...children) {
    for (const c of this.childNodes) c.parentNode = null;
    this.childNodes = [];
    this.append(...children);
  }
  replaceWith(...nodes) {
    const parent = this.parentNode;
    if (!parent) return;
    const at = parent.childNodes.indexOf(this);
    parent.removeChild(this);
    const adopted = nodes.map((n) => { parent.insertBefore(n, null); return parent.childNodes.pop(); });
    parent.childNodes.splice(at, 0, ...adopted);
  }
  get firstChild() { return this.childNodes[0] ?? null; }
  get children() { return this.childNodes.filter((c) => c instanceof StandInElement); }
  get childElementCount() { return this.children.length; }
  get firstElementChild() { return this.children[0] ?? null; }
  get lastElementChild() { return this.children.at(-1) ?? null; }
  contains(node) {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
  /** Every element under this node, in document order. */
  *descendants() {
    for (const c of this.children) {
      yield c;
      yield* c.descendants();
    }
  }
  querySelectorAll(selector) {
    const chains = selector.split(',').map((s) => s.trim().split(/\s+/).map(compound));
    return [...this.descendants()].filter((el) => chains.some((chain) => matchesChain(el, chain, this)));
  }
  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }
}

class StandInText extends StandInNode {
  constructor(ownerDocument, text) { super(ownerDocument); this.data = text; }
  get nodeType() { return 3; }
  get nodeName() { return '#text'; }
  get textContent() { return this.data; }
  set textContent(text) { this.data = String(text); }
}

/** One compound selector (tag, #id, .class, [attr], [attr=value]) as a predicate. */
function compound(text) {
  const parts = text.match(/^[a-z0-9-]+|#(?:\\.|[^.#[\]:])+|\.[\w-]+|\[[^\]]+\]|:[\w-]+/gi) ?? [];
  if (parts.join('') !== text) throw new Error(`dom-stand-in: selector ${JSON.stringify(text)} is not supported`);
  return (el) => parts.every((p) => {
    if (p[0] === '#') return el.id === p.slice(1).replace(/\\(.)/g, '$1');
    if (p[0] === '.') return el.classList.contains(p.slice(1));
    if (p[0] === '[') {
      const [, name, value] = p.match(/^\[([\w-]+)(?:=["']?(.*?)["']?)?\]$/);
      return value === undefined ? el.hasAttribute(name) : el.getAttribute(name) === value;
    }
    if (p === ':last-of-type') return el.parentNode?.children.filter((c) => c.tagName === el.tagName).at(-1) === el;
    if (p[0] === ':') throw new Error(`dom-stand-in: ${p} is not supported`);
    return el.localName === p.toLowerCase();
  });
}

function matchesChain(el, chain, root) {
  if (!chain.at(-1)(el)) return false;
  let i = chain.length - 2;
  for (let n = el.parentNode; n && n !== root && i >= 0; n = n.parentNode) {
    if (n instanceof StandInElement && chain[i](n)) i--;
  }
  return i < 0;
}

/** Properties that reflect an attribute (string values). */
const REFLECTED = ['id', 'type', 'name', 'href', 'src', 'title', 'placeholder', 'min', 'max', 'step', 'for', 'rel', 'target', 'accept', 'list', 'autocomplete', 'inputmode', 'role', 'lang'];

class StandInElement extends StandInNode {
  constructor(ownerDocument, tag, namespace = null) {
    super(ownerDocument);
    this.localName = tag.toLowerCase();
    this.tagName = namespace ? tag : tag.toUpperCase();
    this.namespaceURI = namespace;
    this.attributes = new Map();
    this.dataset = {};
    this.style = {};
    this.hidden = false;
    this.disabled = false;
    this.checked = false;
    this.open = false;
    this.files = null;
    if (this.localName !== 'select' && this.localName !== 'option') this.ownValue = '';
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
    if (name === 'value' && this.localName !== 'option' && this.localName !== 'select') this.ownValue = String(value);
  }
  get nodeType() { return 1; }
  get nodeName() { return this.tagName; }
  getAttributeNames() { return [...this.attributes.keys()]; }
  hasAttributes() { return this.attributes.size > 0; }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  hasAttribute(name) { return this.attributes.has(name); }
  removeAttribute(name) { this.attributes.delete(name); }
  toggleAttribute(name, on = !this.hasAttribute(name)) { if (on) this.setAttribute(name, ''); else this.removeAttribute(name); return on; }
  get className() { return this.getAttribute('class') ?? ''; }
  set className(v) { this.setAttribute('class', v); }
  get classList() {
    const el = this;
    const list = () => el.className.split(/\s+/).filter(Boolean);
    return {
      contains: (c) => list().includes(c),
      add: (...cs) => el.setAttribute('class', [...new Set([...list(), ...cs])].join(' ')),
      remove: (...cs) => el.setAttribute('class', list().filter((c) => !cs.includes(c)).join(' ')),
      toggle: (c, on = !list().includes(c)) => { if (on) this.add(c); else this.remove(c); return on; },
    };
  }
  get options() { return this.localName === 'select' ? [...this.descendants()].filter((e) => e.localName === 'option') : undefined; }
  get selectedIndex() { return this.options.findIndex((o) => o.selected); }
  get value() {
    if (this.localName === 'option') return this.getAttribute('value') ?? this.textContent;
    if (this.localName === 'select') {
      // A value no option has leaves none selected (it reads '') until options change.
      if (this.noneSelected) return '';
      const options = this.options;
      return (options.find((o) => o.selected) ?? options[0])?.value ?? '';
    }
    return this.ownValue;
  }
  set value(v) {
    if (this.localName === 'option') { this.setAttribute('value', v); return; }
    if (this.localName === 'select') {
      let found = false;
      for (const o of this.options) { o.selected = !found && o.value === String(v); found ||= o.selected; }
      this.noneSelected = !found;
      return;
    }
    this.ownValue = v === null || v === undefined ? '' : String(v);
  }
  focus() { this.ownerDocument.activeElement = this; }
  blur() { if (this.ownerDocument.activeElement === this) this.ownerDocument.activeElement = this.ownerDocument.body; }
  click() { this.dispatchEvent(new Event('click', { bubbles: true })); }
  closest(selector) {
    const test = compound(selector);
    for (let n = this; n instanceof StandInElement; n = n.parentNode) if (test(n)) return n;
    return null;
  }
  getBoundingClientRect() { return { x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0 }; }
  scrollIntoView() {}
  getContext() { return null; }
}
for (const name of REFLECTED) {
  Object.defineProperty(StandInElement.prototype, name === 'for' ? 'htmlFor' : name, {
    get() { return this.getAttribute(name) ?? ''; },
    set(v) { this.setAttribute(name, v); },
  });
}
class StandInDocument extends StandInNode {
  constructor() {
    super(null);
    this.ownerDocument = this;
    this.documentElement = new StandInElement(this, 'html');
    this.body = new StandInElement(this, 'body');
    this.documentElement.append(this.body);
    this.activeElement = this.body;
    this.baseURI = 'http://stand-in.test/';
  }
  createElement(tag) { return new StandInElement(this, tag); }
  createElementNS(namespace, tag) { return new StandInElement(this, tag, namespace); }
  createTextNode(text) { return new StandInText(this, text); }
  getElementById(id) { return this.documentElement.querySelector(`#${CSS.escape(id)}`); }
  querySelectorAll(selector) { return this.documentElement.querySelectorAll(selector); }
  querySelector(selector) { return this.documentElement.querySelector(selector); }
}

/** A fresh document on globalThis (document, Node, Element, CSS, ...); returns it. */
export function install() {
  const document = new StandInDocument();
  // The window's own events (beforeprint, pagehide): addEventListener and dispatchEvent on globalThis.
  const win = new EventTarget();
  Object.assign(globalThis, {
    addEventListener: win.addEventListener.bind(win),
    removeEventListener: win.removeEventListener.bind(win),
    dispatchEvent: win.dispatchEvent.bind(win),
    document,
    Node: Object.assign(StandInNode, { ELEMENT_NODE: 1, TEXT_NODE: 3 }),
    Element: StandInElement,
    HTMLElement: StandInElement,
    HTMLDetailsElement: class {},
    CSS: { escape: (s) => String(s).replace(/[^\w-]/g, (c) => `\\${c}`) },
  });
  return document;
}
