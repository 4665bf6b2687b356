// Pieces of answers shared by the screens: usage bar, cost block, placement, reasons, badges.
import { h, svg, facts, basis, table } from './dom.js';
import * as f from './format.js';

/** Per-GPU memory use against capacity: an SVG bar (attributes only, no inline styles). */
export function usageBar(pct, { label = 'GPU memory used', testid } = {}) {
  const value = Number.isFinite(pct) ? Math.max(0, pct) : 0;
  const scale = Math.max(100, value);
  const fill = (value / scale) * 100;
  const cap = (100 / scale) * 100;
  const over = value > 100;
  return h('div', { class: 'usage' },
    svg('svg', { class: 'usage-bar', viewBox: '0 0 100 8', preserveAspectRatio: 'none', role: 'img', 'aria-label': `${label}: ${f.pct(pct)} of capacity`, 'data-testid': testid },
      svg('rect', { class: 'usage-track', x: 0, y: 0, width: 100, height: 8, rx: 1 }),
      svg('rect', { class: over ? 'usage-fill over' : value > 90 ? 'usage-fill warn' : 'usage-fill', x: 0, y: 0, width: fill.toFixed(3), height: 8, rx: 1 }),
      over ? svg('line', { class: 'usage-cap', x1: cap.toFixed(3), x2: cap.toFixed(3), y1: 0, y2: 8 }) : null),
    h('div', { class: 'usage-scale', 'aria-hidden': 'true' }, h('span', null, '0%'), h('span', null, over ? `capacity at 100%, need ${f.pct(pct)}` : '100%')));
}

export function statusBadge(status, testid) {
  const fits = status === 'FITS';
  return h('span', { class: ['badge', fits ? 'ok' : 'bad'], testid }, status ?? '—');
}

export function riskBadge(level) {
  return h('span', { class: ['pill', `risk-${level}`] }, f.label(level ?? '—'));
}

export function reasons(list) {
  if (!list?.length) return null;
  return h('ul', { class: 'reasons' }, list.map((r) => h('li', null, r)));
}

/** "1 × p5.48xlarge (8 × NVIDIA H100), uses 2 of 8 GPUs". */
export function placementLine(p) {
  const bought = (p.gpus_per_instance ?? 0) * (p.instance_count ?? 1);
  return `${p.instance_count ?? 1} × ${p.instance} · ${f.num(p.gpus_used, 3)} of ${f.num(bought, 3)} × ${p.gpu_type} used`;
}

export function costBlock(cost, prefix = 'cost') {
  if (!cost) return null;
  const rows = [
    ['Rate', `${f.usdHour(cost.usd_per_hour)} (${f.label(cost.pricing)})`, `${prefix}-rate`],
    ['Hours', `${f.hours(cost.monthly_hours)}${cost.schedule ? ` (${cost.schedule})` : ''}`],
    ['Monthly cost', f.usdMonth(cost.usd_per_month), `${prefix}-monthly`],
    ['On-demand', `${f.usdHour(cost.on_demand_usd_per_hour)} · ${f.usdMonth(cost.on_demand_usd_per_month)}`],
    ['Spot', cost.spot_usd_per_hour == null ? 'no spot price known'
      : `${f.usdHour(cost.spot_usd_per_hour)} · ${f.usdMonth(cost.spot_usd_per_month)} (saves ${f.pct(cost.spot_savings_pct)})`],
    cost.spot_interruption_notice_s != null ? ['Spot notice', `${f.num(cost.spot_interruption_notice_s, 0)} s`] : null,
  ];
  return h('div', null,
    facts(rows),
    h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Cost basis: '), h('span', { testid: `${prefix}-basis` }, cost.basis)),
    cost.note ? h('p', { class: 'note' }, cost.note) : null,
    cost.commitments?.length ? table({
      caption: 'Commitments',
      head: ['Term', 'Discount', 'Monthly cost (730 h billed)', 'Break-even utilization', 'Source'],
      rows: cost.commitments.map((c) => h('tr', null,
        h('td', null, f.label(c.term)),
        h('td', { class: 'num' }, f.pct(c.discount_pct)),
        h('td', { class: 'num' }, f.usdMonth(c.usd_per_month)),
        h('td', { class: 'num' }, f.pct(c.break_even_utilization_pct)),
        h('td', { class: 'small' }, c.source ?? ''))),
    }) : null);
}

export function memoryBlock(memory, prefix = 'memory') {
  if (!memory) return null;
  return h('div', null,
    facts([
      ['Weights', f.gb(memory.weights_gb), `${prefix}-weights`],
      [`Overhead (${memory.overhead_covers})`, f.gb(memory.overhead_gb), `${prefix}-overhead`],
      ['Total', f.gb(memory.total_gb), `${prefix}-total`],
      ['Multiplier', `${f.num(memory.multiplier, 3)}x, from ${memory.multiplier_source}`, `${prefix}-multiplier`],
    ]),
    h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Memory basis: '), h('span', { testid: `${prefix}-basis` }, memory.basis)));
}

export function sourceNote(p) {
  if (!p?.source) return null;
  return h('details', { class: 'source' }, h('summary', null, `Price and spec source (${p.source_date ?? 'undated'})`), h('p', null, p.source));
}

export { basis };
