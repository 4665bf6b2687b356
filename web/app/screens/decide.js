// GPU, Trainium, Inferentia or CPU? The accelerator rules (the catalog's decision trees): the tree
// and branch that apply, and per option its suitability, cheapest instance, monthly cost,
// complexity, risk and reasons (shown inside Deployments).
import { h, table, facts, card } from '../dom.js';
import * as f from '../format.js';
import { workloadBlock } from '../workload-block.js';
import { riskBadge, reasons } from '../deployment-table.js';
import { layoutText, memoryText, countText } from '../deployment.js';
import { barChart } from '../charts.js';

function optionRows(o) {
  const c = o.cheapest_instance;
  return [h('tr', { testid: `decide-opt-${o.kind}`, class: 'main-row' },
    h('th', { scope: 'row' }, o.name, o.recommended ? [h('br'), h('span', { class: 'pill risk-low' }, 'recommended')] : null),
    h('td', { testid: `decide-${o.kind}-suitable` }, o.suitable ? 'yes' : 'no'),
    h('td', null, c ? `${f.num(c.instance_count, 0)} × ` : null, h('span', { testid: `decide-${o.kind}-instance` }, c ? c.instance : 'no deployment runs'),
      c ? [h('br'), h('span', { class: 'muted small' }, `${layoutText(c.layout)}, ${f.gpus(c.gpus)}`)] : null),
    h('td', { class: 'num', testid: `decide-${o.kind}-monthly` }, c ? f.usdMonth(c.cost.usd_per_month) : f.DASH),
    h('td', { class: 'num' }, c ? [memoryText(c), h('br'), h('span', { class: 'muted small' }, f.pct(c.memory_utilization_pct))] : f.DASH),
    h('td', { class: 'num', testid: `decide-${o.kind}-speed` }, c ? f.score(c.performance.score, c.performance.unit) : f.DASH),
    h('td', { testid: `decide-${o.kind}-complexity` }, f.label(o.migration_complexity)),
    h('td', { testid: `decide-${o.kind}-risk` }, riskBadge(o.risk_level))),
  h('tr', { class: 'detail-row', testid: `decide-${o.kind}-reasons` },
    h('td', { colspan: 8 }, h('span', { class: 'sr-only' }, 'Reasons: '), reasons(o.reasons ?? []),
      c ? h('details', { class: 'why-details' }, h('summary', null, 'Cost basis'), h('p', null, c.cost.basis)) : null))];
}

function costChart(priced) {
  return card('Monthly cost of each option', barChart({
    title: 'Cheapest instance of each kind: monthly cost',
    summary: priced.map((o) => `${o.name} ${f.usdMonth(o.cheapest_instance.cost.usd_per_month)}`).join(', '),
    xLabel: 'Monthly cost (USD/month)', format: (v) => (v >= 1000 ? `$${f.num(v / 1000, v >= 10000 ? 0 : 1)}k` : `$${f.num(v, 0)}`), testid: 'decide-chart', width: 480,
    rows: priced.map((o) => ({ label: o.name, parts: [{ value: o.cheapest_instance.cost.usd_per_month, cls: o.recommended ? 'c3' : o.suitable ? 'c1' : 'c5', name: o.cheapest_instance.instance }], valueText: f.usd(o.cheapest_instance.cost.usd_per_month) })),
    legendItems: [{ cls: 'c3', name: 'Recommended' }, { cls: 'c1', name: 'Suitable' }, { cls: 'c5', name: 'Not suitable' }],
    data: {
      caption: 'Cheapest instance of each kind (USD/month)', records: priced, head: ['Option', 'Instance', 'Monthly cost (USD)', 'Suitable'],
      rows: priced.map((o) => [o.name, countText(o.cheapest_instance), f.num(o.cheapest_instance.cost.usd_per_month, 2), o.suitable ? 'yes' : 'no']),
    },
  }));
}

export function renderDecide(r) {
  const priced = r.options.filter((o) => Number.isFinite(o.cheapest_instance?.cost?.usd_per_month));
  return [
    h('section', { class: 'card verdict fits' },
      h('h3', null, 'Decision'),
      facts([
        ['Decision tree', r.decision_tree, 'decide-tree'],
        ['Branch', r.branch, 'decide-branch'],
        ['Recommended', h('strong', { testid: 'decide-kind' }, f.label(r.recommended_kind))],
        ['Families', r.recommended_families?.join(', ') || f.DASH, 'decide-families'],
      ], 'facts compact'),
      r.prices_disagree ? h('p', { class: 'note', testid: 'decide-prices-disagree' }, r.prices_disagree) : null,
      h('p', { class: 'muted small' }, `Source: ${r.source}`)),
    h('section', { class: 'card' },
      h('h3', null, 'Options'),
      table({
        caption: 'Each kind of accelerator: suitability, cheapest deployment that runs the workload, cost, complexity and risk', testid: 'decide-options', className: 'data', records: r.options,
        head: ['Option', 'Suitable', 'Cheapest deployment', 'Monthly cost', 'Memory per accelerator', 'Speed', 'Migration complexity', 'Risk'],
        rows: r.options.map(optionRows),
      })),
    h('div', { class: 'grid-2' },
      priced.length ? costChart(priced) : null,
      card('Workload sized', workloadBlock(r.request, 'decide-workload'))),
  ];
}
