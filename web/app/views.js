// The page's views, in tab order: the one list that the tabs, links (?view=) and the
// <gpufleet-calculator view=...> element (embed.js) all read.
export const VIEWS = [
  { id: 'fit', title: 'Fit & memory' },
  { id: 'precisions', title: 'Precisions' },
  { id: 'memory', title: 'Model memory' },
  { id: 'throughput', title: 'Speed & cost per token' },
  { id: 'recommend', title: 'Recommend' },
  { id: 'migrate', title: 'Migrate' },
  { id: 'plan', title: 'Plan' },
  { id: 'placement', title: 'Placement' },
  { id: 'decide', title: 'Decide' },
  { id: 'workloads', title: 'Workloads' },
  { id: 'catalog', title: 'Catalog' },
];
