// The answer's sections an embed can choose (compact=verdict,cost: docs/page.md, Embedding): the
// one list that the views' renders (which mark their cards with it), embed-mode.js, embed.js and
// docs/page.md's table (scripts/gen-embed-sections.mjs) read.
export const SECTIONS = [
  { id: 'verdict', views: ['fit', 'deployments', 'compare', 'plan', 'spot', 'regions'], text: 'the verdict: fits or not and on what (Fit), the top pick (Deployments), the recommendation (Compare), the plan\'s total (Fleet plan), the spot plan (Spot), the placement or why there is none (Regions)' },
  { id: 'sized', views: ['fit'], text: 'the deployment sized for the requests per second, when the demand gives them' },
  { id: 'cost', views: ['fit'], text: 'the cost table: per hour and month, on demand, spot and each way to commit' },
  { id: 'chart', views: ['fit', 'deployments', 'plan', 'autoscale', 'batch'], text: 'the chart: memory per GPU against its capacity (Fit), cost against performance (Deployments), cost by environment and by provider (Fleet plan), the replicas hour by hour (Auto-scaling), the jobs\' Gantt chart and the total (Batch jobs)' },
  { id: 'memory', views: ['fit'], text: 'the memory per GPU: weights, overhead and what covers it' },
  { id: 'deployment', views: ['fit', 'autoscale'], text: 'the deployment: layout, speed and price of the setup (Fit), the replica, its price and cold start (Auto-scaling)' },
  { id: 'table', views: ['deployments', 'compare', 'plan', 'autoscale', 'spot', 'regions', 'catalog'], text: 'the main table: the ranked candidates (Deployments), the alternatives (Compare), the cost per workload and environment (Fleet plan), each policy (Auto-scaling), the pools (Spot), the candidate regions (Regions), the instances (Catalog)' },
  { id: 'workload', views: ['deployments', 'compare'], text: 'the workload sized' },
  { id: 'excluded', views: ['deployments'], text: 'the families left out, each with its reason' },
  { id: 'best', views: ['compare'], text: 'the best alternative for each priority' },
  { id: 'current', views: ['compare'], text: 'the deployment today' },
  { id: 'alternatives', views: ['plan'], text: 'each workload on the other providers\' equivalent instances' },
  { id: 'providers', views: ['plan'], text: 'the whole plan on each provider' },
  { id: 'mix', views: ['plan'], text: 'the cheapest provider mix' },
  { id: 'recommended', views: ['autoscale'], text: 'the autoscaler settings advised, with the KEDA ScaledObject' },
  { id: 'base', views: ['autoscale'], text: 'the committed base' },
  { id: 'baseline', views: ['spot'], text: 'the plan against all on demand and all spot' },
  { id: 'jobs', views: ['spot', 'batch'], text: 'a training run on each pool (Spot), each job and its plans (Batch jobs)' },
  { id: 'chosen', views: ['regions'], text: 'the regions chosen, each with its share and round trip' },
  { id: 'info', views: ['catalog'], text: 'the catalog in use and its validation' },
  { id: 'models', views: ['catalog'], text: 'the model sizes and the concrete models' },
  { id: 'precisions', views: ['catalog'], text: 'the precision formats' },
  { id: 'sources', views: ['catalog'], text: 'the sources of the catalog\'s figures' },
];

const IDS = SECTIONS.map((s) => s.id);

/** The section ids a compact value names ("verdict,cost"), known ones only, in the list's order;
 *  [] when it names none. */
export function chosenSections(value) {
  const asked = String(value ?? '').split(',').map((s) => s.trim().toLowerCase());
  return IDS.filter((id) => asked.includes(id));
}

/** Marks `node` (a card of an answer) as the section `id`; returns it. */
export function section(id, node) {
  if (!IDS.includes(id)) throw new Error(`unknown section ${id}`);
  if (node) node.dataset.section = id;
  return node;
}
