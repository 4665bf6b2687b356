// Tabs with ARIA roles: arrow keys, Home and End move between tabs (automatic activation).
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
  const tablist = h('div', { role: 'tablist', 'aria-label': 'Questions', class: 'tablist' }, tabs);

  const select = (i, { focus = false, notify = true } = {}) => {
    tabs.forEach((t, j) => {
      const on = i === j;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      panels[j].hidden = !on;
    });
    if (focus) tabs[i].focus();
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
