// The answer's sections an embed can choose (compact=verdict,cost: docs/page.md, Embedding): the
// one list that the views' renders (which mark their cards with it), embed-mode.js, embed.js and
// docs/page.md's table (scripts/gen-embed-sections.mjs) read.
export const SECTIONS = [
  { id: 'verdict', views: ['fit', 'deployments'], text: 'the verdict: fits or not and on what (Fit), or the top pick (Deployments)' },
  { id: 'sized', views: ['fit'], text: 'the deployment sized for the requests per second, when the demand gives them' },
  { id: 'cost', views: ['fit'], text: 'the cost table: per hour and month, on demand, spot and each way to commit' },
  { id: 'chart', views: ['fit', 'deployments'], text: 'the chart: memory per GPU against its capacity (Fit), cost against performance (Deployments)' },
  { id: 'memory', views: ['fit'], text: 'the memory per GPU: weights, overhead and what covers it' },
  { id: 'deployment', views: ['fit'], text: 'the deployment: layout, speed and price of the setup' },
  { id: 'table', views: ['deployments'], text: 'the ranked candidates table' },
  { id: 'workload', views: ['deployments'], text: 'the workload sized' },
  { id: 'excluded', views: ['deployments'], text: 'the families left out, each with its reason' },
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
