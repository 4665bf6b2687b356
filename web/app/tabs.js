// Tabs with ARIA roles: arrow keys, Home and End move between tabs (automatic activation).
// Wide screens wrap the list; narrow ones scroll it sideways, with a cue (a fade and an arrow
// button) on each side that has more tabs, and the chosen tab scrolled into view.
import { h } from './dom.js';

export function createTabs(screens, { selected, onSelect }) {
  const tabs = [];
  const panels = [];
  for (const s of screens) {
    tabs.push(h('button', {
      type: 'button', role: 'tab', id: `tab-${s.id}`, 'aria-controls': `panel-${s.id}`, testid: `tab-${s.id}`,
    }, s.title));
    panels.push(h('section', { role: 'tabpanel', id: `panel-${s.id}`, 'aria-labelledby': `tab-${s.id}`, tabindex: '0' }, s.panel));
  }
  const list = h('div', { role: 'tablist', 'aria-label': 'Questions', class: 'tablist' }, tabs);
  // The cues are for pointers; keyboards move with the arrow keys (the chosen tab scrolls in).
  const cue = (side, label) => h('button', {
    type: 'button', class: `tabs-cue ${side}`, testid: `tabs-more-${side}`, tabindex: '-1', 'aria-hidden': 'true', hidden: true,
    onclick: () => list.scrollBy({ left: (side === 'end' ? 1 : -1) * list.clientWidth * 0.8, behavior: 'smooth' }),
  }, label);
  const before = cue('start', '‹');
  const after = cue('end', '›');
  const tablist = h('div', { class: 'tabs-frame' }, before, list, after);
  const cues = () => {
    const more = list.scrollWidth - list.clientWidth;
    before.hidden = !(more > 1 && list.scrollLeft > 1);
    after.hidden = !(more > 1 && list.scrollLeft < more - 1);
  };
  list.addEventListener('scroll', cues, { passive: true });
  new ResizeObserver(cues).observe(list);

  const select = (i, { focus = false, notify = true } = {}) => {
    tabs.forEach((t, j) => {
      const on = i === j;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      panels[j].hidden = !on;
    });
    if (focus) tabs[i].focus();
    if (list.scrollWidth > list.clientWidth) tabs[i].scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (notify) onSelect(screens[i].id);
  };
  tabs.forEach((t, i) => {
    t.addEventListener('click', () => select(i));
    t.addEventListener('keydown', (e) => {
      const n = tabs.length;
      const to = { ArrowRight: (i + 1) % n, ArrowLeft: (i - 1 + n) % n, Home: 0, End: n - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      select(to, { focus: true });
    });
  });
  select(Math.max(0, screens.findIndex((s) => s.id === selected)), { notify: false });
  return { tablist, panels, select };
}
