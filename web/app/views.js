// The page's views, in tab order: the one list that the tabs, links (?view=) and the
// <gpufleet-calculator view=...> element (embed.js) all read.
import { own } from './link.js';

export const VIEWS = [
  { id: 'fit', title: 'Fit & memory' },
  { id: 'deployments', title: 'Deployments' },
  { id: 'compare', title: 'Compare & migrate' },
  { id: 'plan', title: 'Fleet plan' },
  { id: 'autoscale', title: 'Auto-scaling' },
  { id: 'spot', title: 'Spot' },
  { id: 'regions', title: 'Regions' },
  { id: 'catalog', title: 'Catalog' },
];

/** The views of earlier versions, which links and embeds still name: the view that answers them now. */
export const OLD_VIEWS = {
  precisions: 'fit', memory: 'fit', throughput: 'deployments', recommend: 'deployments', decide: 'deployments',
  migrate: 'compare', workloads: 'compare', placement: 'plan',
};

/** Whether a link's ?view= names an earlier version's view (old-links.js reads such a link). */
export const isOldView = (view) => own(OLD_VIEWS, view) !== undefined;

/** The view a link opens: the one its ?view= names, else the first. */
export const firstView = (view) => (VIEWS.some((v) => v.id === view) ? view : VIEWS[0].id);
