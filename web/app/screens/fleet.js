// Fleet plan: a plan of environments and workloads (plan.js) and several models on the GPUs of one
// instance (placement.js), one under the other; each keeps its own inputs and link keys.
import { h } from '../dom.js';
import { createPlanScreen } from './plan.js';
import { createPlacementScreen } from './placement.js';

export function createFleetScreen(store) {
  const parts = [createPlanScreen(store), createPlacementScreen(store)];
  const view = {
    id: 'plan', title: 'Fleet plan', uses: [], formSlot: null,
    panel: h('div', { class: 'screen-group' }, parts.map((s) => s.panel)),
    onChange: () => {},
    fill(s) { for (const part of parts) part.fill(s); },
    fromParams(p) { for (const part of parts) part.fromParams(p); },
    toParams(p) { for (const part of parts) part.toParams(p); },
    render: () => Promise.all(parts.map((part) => part.render())),
  };
  for (const part of parts) part.onChange = () => view.onChange(view);
  return view;
}
