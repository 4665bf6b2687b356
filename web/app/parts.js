// Pieces of answers shared by the screens: usage bar, cost block, placement, reasons, badges.
import { h, svg, facts, table } from './dom.js';
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

/** "1 × p5.48xlarge (8 × NVIDIA H100), uses 2 of 8 GPUs". */
export function placementLine(p) {
  const bought = (p.gpus_per_instance ?? 0) * (p.instance_count ?? 1);
  return `${p.instance_count ?? 1} × ${p.instance} · ${f.num(p.gpus_used, 3)} of ${f.num(bought, 3)} × ${p.gpu_type} used`;
}

/** A commitment's term as the menus say it: "1y" -> "1 year". */
const years = (term) => String(term ?? '').replace(/^(\d+)y$/, (_, n) => `${n} year${n === '1' ? '' : 's'}`);

export function costBlock(cost, prefix = 'cost') {
  if (!cost) return null;
  const rows = [
    ['Rate', `${f.usdHour(cost.usd_per_hour)} (${f.pay(cost)})`, `${prefix}-rate`],
    // The core's schedule ends with the hours a month ("8 h/day x 22 days = 176 h/month").
    ['Hours', cost.schedule || `${f.hours(cost.monthly_hours)} a month`, `${prefix}-hours`],
    ['Monthly cost', f.usdMonth(cost.usd_per_month), `${prefix}-monthly`],
    ['On-demand', `${f.usdHour(cost.on_demand_usd_per_hour)} · ${f.usdMonth(cost.on_demand_usd_per_month)}`],
    ['Spot', cost.spot_usd_per_hour == null ? 'no spot price known'
      : `${f.usdHour(cost.spot_usd_per_hour)} · ${f.usdMonth(cost.spot_usd_per_month)} (saves ${f.pct(cost.spot_savings_pct)})`],
    cost.spot_interruption_notice_s != null ? ['Spot notice', `${f.num(cost.spot_interruption_notice_s, 0)} s`] : null,
  ];
  // A price the catalog flags: said beside the rate, before any figure (the core priced it elsewhere).
  const flags = cost.price_flags?.length
    ? h('p', { class: 'note warn', testid: `${prefix}-price-flag` }, h('strong', null, 'Suspect price: '),
      `${cost.price_flags.map((x) => x.name).join('; ')}. Not used: ${cost.priced_from_region ? `priced as in ${cost.priced_from_region}.` : 'no trustworthy price in any region.'}`)
    : null;
  return h('div', null,
    flags,
    facts(rows),
    h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Cost basis: '), h('span', { testid: `${prefix}-basis` }, cost.basis)),
    cost.note ? h('p', { class: 'note', testid: `${prefix}-note` }, f.sentence(cost.note)) : null,
    cost.commitments?.length ? h('div', { class: 'commitments' }, table({
      caption: 'Ways to pay with a commitment',
      head: ['Way', 'Monthly cost (730 h billed)', 'Break-even utilization', 'Discount', 'Upfront', 'Source'],
      rows: cost.commitments.map((c) => h('tr', null,
        h('td', null, `${c.name ?? f.label(c.way)}, ${years(c.term)}, ${c.upfront === 'none' ? 'no' : c.upfront} upfront`),
        h('td', { class: 'num' }, f.usdMonth(c.usd_per_month)),
        h('td', { class: 'num' }, f.pct(c.break_even_utilization_pct)),
        h('td', { class: 'num' }, c.discount_pct == null ? (c.up_to_pct == null ? 'unknown' : `up to ${f.pct(c.up_to_pct)}`) : f.pct(c.discount_pct)),
        h('td', { class: 'num' }, c.upfront_usd ? f.usd(c.upfront_usd) : ''),
        h('td', { class: 'small' }, c.source ? h('details', null, h('summary', null, 'source'), h('p', null, c.source)) : ''))),
    })) : null);
}

/** Weights and overhead: per GPU (the architecture-aware model; memoryLines() has its lines), or
 *  the rule of thumb's weights x multiplier for the whole model. */
export function memoryBlock(memory, prefix = 'memory') {
  if (!memory) return null;
  const perGpu = Array.isArray(memory.per_gpu);
  const each = perGpu ? ' per GPU' : '';
  return h('div', null,
    facts([
      [`Weights${each}`, f.gb(memory.weights_gb), `${prefix}-weights`],
      [`Overhead (${memory.overhead_covers})`, f.gb(memory.overhead_gb), `${prefix}-overhead`],
      [`Total${each}`, f.gb(memory.total_gb), `${prefix}-total`],
      memory.multiplier == null ? null : ['Multiplier', `${f.num(memory.multiplier, 3)}x, ${multiplierSource(memory.multiplier_source)}`, `${prefix}-multiplier`],
    ]),
    h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Memory basis: '), h('span', { testid: `${prefix}-basis` }, memory.basis)));
}

/** The catalog key a multiplier came from, said for a person (the key stays in the catalog). */
export function multiplierSource(key) {
  const k = String(key ?? '');
  if (k.endsWith('.memory_overhead_multiplier')) return 'the size class\u2019s rule of thumb for training memory';
  const what = { inference_multiplier: 'serving', fine_tuning_multiplier: 'fine-tuning', training_multiplier: 'training' }[k.split('.').pop()];
  return what ? `the catalog\u2019s rule of thumb for ${what} memory` : 'the catalog\u2019s rule of thumb';
}

/** The memory model's lines on each GPU (GB), each with its arithmetic. */
export function memoryLines(lines, testid) {
  return table({
    caption: 'On each GPU', testid, head: ['Part', 'GB', 'Basis'], export: false,
    rows: lines.map((l) => h('tr', null, h('th', { scope: 'row' }, l.label), h('td', { class: 'num' }, f.num(f.gibToGb(l.gib), 2)), h('td', { class: 'small basis-cell' }, l.basis))),
  });
}

/** The request as sent, for `gpufleet analyze -` (the CLI answers it the same). */
export function requestBlock(request, testid) {
  return h('details', { class: 'request-json' },
    h('summary', null, 'Request (JSON for gpufleet analyze)'),
    h('pre', { testid }, JSON.stringify(request)));
}

export function sourceNote(p) {
  if (!p?.source) return null;
  return h('details', { class: 'source' }, h('summary', null, `Price and spec source (${p.source_date ?? 'undated'})`), h('p', null, p.source));
}

