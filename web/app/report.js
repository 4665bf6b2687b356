// Seed 004's migration report (Migrate and Workloads screens): assessment, recommendation, best
// by priority, alternatives with savings, performance ratio, risk, complexity and reasons.
import { h, table, facts, card } from './dom.js';
import * as f from './format.js';
import { costBlock } from './parts.js';
import { section } from './sections.js';
import { drawnLater } from './in-place.js';
import { workloadBlock } from './workload-block.js';
import { serves } from './controls.js';
import { deploymentFacts, layoutText } from './deployment.js';
import { deploymentCells, deploymentHead, DEPLOYMENT_KEY_COLUMNS, riskBadge, reasons } from './deployment-table.js';
import { waysOut } from './screens/fit.js';
import { reasonsRow } from './screens/deployments.js';

/** `kind`: the accelerator kind of the instance recommended (its alternative's). */
function recommendationFacts(rec, prefix, kind) {
  if (rec.action !== 'migrate') {
    return facts([['Action', f.label(rec.action), `${prefix}-action`], ['Instance', rec.instance, `${prefix}-rec-instance`]], 'facts compact');
  }
  return facts([
    ['Action', f.label(rec.action), `${prefix}-action`],
    ['Instance', `${rec.instance_count ?? 1} × ${rec.instance} (${f.gpus(rec.gpus_used, kind)})`, `${prefix}-rec-instance`],
    ['Layout', layoutText(rec.layout), `${prefix}-rec-layout`],
    ['Monthly cost', `${f.usdMonth(rec.usd_per_month)} (${f.pay(rec)})`, `${prefix}-rec-monthly`],
    ['Savings', `${f.signedPct(rec.savings_pct)} · ${f.usdMonth(rec.savings_usd_per_month)}`, `${prefix}-rec-savings`],
    ['Performance', f.ratio(rec.performance_ratio), `${prefix}-rec-ratio`],
    ['Per 1M tokens', `${f.usdFine(rec.usd_per_million_tokens)} (today ${f.usdFine(rec.current_usd_per_million_tokens)})`, `${prefix}-rec-per-token`],
    ['Risk', riskBadge(rec.risk_level)],
    ['Migration complexity', f.label(rec.migration_complexity)],
    ['Priority', f.label(rec.priority)],
  ], 'facts compact');
}

function currentCard(r, prefix) {
  const cur = r.current;
  return card('Current setup',
    h('p', null, h('strong', { testid: `${prefix}-current-instance` }, cur.instance), ` · ${cur.gpu_type}`),
    deploymentFacts(cur, `${prefix}-current`),
    costBlock(cur.cost, `${prefix}-current-cost`),
    reasons(cur.reasons?.filter((x) => x !== cur.refusal)),
    r.ways_out ? waysOut(r.ways_out) : null);
}

export function renderReport(r, prefix = 'mig') {
  const rec = r.recommendation;
  const serving = serves(r.request?.workload);
  return [
    section('verdict', h('section', { class: ['card', 'verdict', rec?.action === 'stay' ? 'fits' : 'accent'] },
      h('h3', null, 'Recommendation'),
      h('p', { class: 'verdict-title', testid: `${prefix}-summary` }, f.sentence(rec?.summary ?? 'no recommendation')),
      rec ? recommendationFacts(rec, prefix, r.alternatives?.find((a) => a.instance === rec.instance)?.accelerator_kind) : null,
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Assessment: '), h('span', { testid: `${prefix}-assessment` }, r.assessment)),
      r.warnings?.length ? h('ul', { class: 'warnings', testid: `${prefix}-warnings` }, r.warnings.map((w) => h('li', null, w))) : null)),
    r.best_by_priority ? section('best', h('section', { class: 'card', testid: `${prefix}-best` },
      // The alternatives' best: today's deployment is never one of them, even where it is best.
      h('h3', null, 'Best alternative for each priority'),
      h('p', { class: 'muted small' }, 'Among the alternatives below, not counting where it runs today.'),
      facts(Object.entries(r.best_by_priority).map(([k, v]) => [f.label(k), v ?? f.DASH, `${prefix}-best-${k}`]), 'facts compact'))) : null,
    drawnLater(() => section('table', h('section', { class: 'card' },
      h('h3', null, `Alternatives (${r.alternatives.length})`),
      table({
        caption: 'Alternatives to the current setup, best first for the priority', testid: `${prefix}-alternatives`, className: 'data',
        head: ['#', ...withSavings(deploymentHead(serving, r.alternatives), 'Savings'), 'Speed vs current', 'Risk', 'Complexity'],
        rows: r.alternatives.map((a, i) => altRow(a, i, prefix)),
      }),
      r.excluded?.length ? h('div', null, h('h4', null, 'Excluded'),
        h('ul', { class: 'reasons' }, r.excluded.map((x) => h('li', null, h('strong', null, x.family), ': ', x.reason)))) : null))),
    drawnLater(() => h('div', { class: 'grid-2' },
      section('current', currentCard(r, prefix)),
      section('workload', card('Workload sized', workloadBlock(r.request, `${prefix}-workload`))))),
  ];
}

/** A deployment's columns with the savings beside its key columns. */
const withSavings = (columns, savings) => [...columns.slice(0, DEPLOYMENT_KEY_COLUMNS), savings, ...columns.slice(DEPLOYMENT_KEY_COLUMNS)];

function altRow(a, i, prefix) {
  const saves = a.savings_pct;
  return [h('tr', { testid: `${prefix}-alt-${i}`, class: 'main-row' },
    h('td', { class: 'num' }, String(i + 1)),
    withSavings(deploymentCells(a, i, `${prefix}-alt`),
      h('td', { class: ['num', saves > 0 ? 'good' : saves < 0 ? 'bad' : null], testid: `${prefix}-alt-savings-${i}` }, f.signedPct(saves), h('br'),
        h('span', { class: 'small' }, f.usdMonth(a.savings_usd_per_month)))),
    h('td', { class: 'num', testid: `${prefix}-alt-ratio-${i}` }, f.ratio(a.performance.ratio_to_current)),
    h('td', null, riskBadge(a.risk_level)),
    h('td', null, f.label(a.migration_complexity))),
  reasonsRow(a, 5 + deploymentHead(true).length, `${prefix}-detail-${i}`)];
}
