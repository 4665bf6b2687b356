// The page's views, in tab order: the one list that the tabs, links (?view=) and the
// <gpufleet-calculator view=...> element (embed.js) all read.
export const VIEWS = [
  { id: 'fit', title: 'Fit & memory' },
  { id: 'deployments', title: 'Deployments' },
  { id: 'compare', title: 'Compare & migrate' },
  { id: 'plan', title: 'Fleet plan' },
  { id: 'catalog', title: 'Catalog' },
];

/** The views of earlier versions, which links and embeds still name: the view that answers them now. */
export const OLD_VIEWS = {
  precisions: 'fit', memory: 'fit', throughput: 'deployments', recommend: 'deployments', decide: 'deployments',
  migrate: 'compare', workloads: 'compare', placement: 'plan',
};
