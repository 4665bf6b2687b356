// Seed 004's migration report (Migrate and Workloads screens): assessment, recommendation, best
// by priority, alternatives with savings, performance ratio, risk, complexity and reasons.
import { h, table, facts, card } from './dom.js';
import * as f from './format.js';
import { riskBadge, reasons, memoryBlock, costBlock, placementLine } from './parts.js';
import { waysOut } from './screens/fit.js';
import { reasonsRow } from './screens/recommend.js';

export function renderReport(r, prefix = 'mig') {
  const rec = r.recommendation;
  const cur = r.current;
  return [
    h('section', { class: ['card', 'verdict', rec?.action === 'stay' ? 'fits' : 'accent'] },
      h('h3', null, 'Recommendation'),
      h('p', { class: 'verdict-title', testid: `${prefix}-summary` }, rec?.summary ?? 'no recommendation'),
      rec ? facts([
        ['Action', f.label(rec.action), `${prefix}-action`],
        ['Instance', `${rec.instance_count ?? 1} × ${rec.instance} (${f.gpus(rec.gpus_used)})`, `${prefix}-rec-instance`],
        ['Monthly cost', `${f.usdMonth(rec.usd_per_month)} (${f.label(rec.pricing)})`, `${prefix}-rec-monthly`],
        ['Savings', `${f.signedPct(rec.savings_pct)} · ${f.usdMonth(rec.savings_usd_per_month)}`, `${prefix}-rec-savings`],
        ['Performance', f.ratio(rec.performance_ratio), `${prefix}-rec-ratio`],
        ['Risk', riskBadge(rec.risk_level)],
        ['Migration complexity', f.label(rec.migration_complexity)],
        ['Priority', f.label(rec.priority)],
      ], 'facts compact') : null,
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Assessment: '), h('span', { testid: `${prefix}-assessment` }, r.assessment)),
      r.warnings?.length ? h('ul', { class: 'warnings', testid: `${prefix}-warnings` }, r.warnings.map((w) => h('li', null, w))) : null),
    r.best_by_priority ? h('section', { class: 'card' },
      h('h3', null, 'Best by priority'),
      facts(Object.entries(r.best_by_priority).map(([k, v]) => [f.label(k), v ?? f.DASH, `${prefix}-best-${k}`]), 'facts compact')) : null,
    h('section', { class: 'card' },
      h('h3', null, `Alternatives (${r.alternatives.length})`),
      table({
        caption: 'Alternatives to the current setup, best first for the priority', testid: `${prefix}-alternatives`, className: 'data',
        head: ['#', 'Instance', 'GPU', 'GPUs used / bought', 'Memory used', 'Monthly cost', 'Savings', 'Performance', 'Risk', 'Complexity'],
        rows: r.alternatives.map((a, i) => altRow(a, i, prefix)),
      }),
      r.excluded?.length ? h('div', null, h('h4', null, 'Excluded'),
        h('ul', { class: 'reasons' }, r.excluded.map((x) => h('li', null, h('strong', null, x.family), ': ', x.reason)))) : null),
    h('div', { class: 'grid-2' },
      card('Current setup',
        h('p', null, h('strong', { testid: `${prefix}-current-instance` }, cur.instance), ` · ${placementLine(cur.placement)}`),
        facts([
          ['Memory used', `${f.gb(cur.fit.per_gpu_gb)} of ${f.gb(cur.fit.capacity_per_gpu_gb)} per GPU (${f.pct(cur.fit.utilization_pct)})`],
          ['Performance', `${f.score(cur.performance.score, cur.performance.unit)} (${cur.performance.bound} bound)`],
        ], 'facts compact'),
        costBlock(cur.cost, `${prefix}-current-cost`),
        h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Performance basis: '), cur.performance.basis),
        reasons(cur.reasons),
        r.ways_out ? waysOut(r.ways_out) : null),
      card('Memory needed', memoryBlock(r.memory, `${prefix}-memory`))),
  ];
}

function altRow(a, i, prefix) {
  const p = a.placement;
  const bought = (p.gpus_per_instance ?? 0) * (p.instance_count ?? 1);
  const saves = a.savings_pct;
  return [h('tr', { testid: `${prefix}-alt-${i}`, class: 'main-row' },
    h('td', { class: 'num' }, String(i + 1)),
    h('th', { scope: 'row' }, h('span', { testid: `${prefix}-alt-instance-${i}` }, a.instance), h('br'),
      h('span', { class: 'muted small' }, `${p.instance_count > 1 ? `${p.instance_count} instances · ` : ''}${f.label(a.sizing)}`)),
    h('td', null, p.gpu_type),
    h('td', { class: 'num' }, `${f.num(p.gpus_used, 3)} / ${f.num(bought, 3)} GPUs`),
    h('td', { class: 'num' }, f.pct(a.fit.utilization_pct)),
    h('td', { class: 'num' }, f.usdMonth(a.cost.usd_per_month), h('br'), h('span', { class: 'muted small' }, `${f.usdHour(a.cost.usd_per_hour)} ${f.label(a.cost.pricing)}`)),
    h('td', { class: ['num', saves > 0 ? 'good' : saves < 0 ? 'bad' : null], testid: `${prefix}-alt-savings-${i}` }, f.signedPct(saves), h('br'),
      h('span', { class: 'small' }, f.usdMonth(a.savings_usd_per_month))),
    h('td', { class: 'num', testid: `${prefix}-alt-ratio-${i}` }, f.ratio(a.performance.ratio_to_current)),
    h('td', null, riskBadge(a.risk_level)),
    h('td', null, f.label(a.migration_complexity))),
  reasonsRow(a, 9, `${prefix}-detail-${i}`)];
}
