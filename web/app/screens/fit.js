// Fit & memory: memory breakdown, per-GPU use against capacity, FITS / CANNOT FIT MODEL with the
// ways out, and the cost basis.
import { h, facts, card, table } from '../dom.js';
import * as f from '../format.js';
import { createScreen, ask } from '../screen.js';
import { controlSet, modelControl, workloadControl, precisionControl, instanceControl, gpusControl, hoursControl, spotControl } from '../controls.js';
import { usageBar, statusBadge, costBlock, memoryBlock, sourceNote, placementLine } from '../parts.js';
import { pricingControl, scheduleControl } from '../billing.js';
import { barChart } from '../charts.js';

export function createFitScreen(store) {
  const model = modelControl('fit');
  const workload = workloadControl('fit');
  const precision = precisionControl('fit');
  const instance = instanceControl('fit');
  const gpus = gpusControl('fit');
  const hours = hoursControl('fit');
  const spot = spotControl('fit');
  const pricing = pricingControl('fit', { spot });
  const schedule = scheduleControl('fit', hours);
  const controls = controlSet([model, workload, precision, instance, gpus, spot, pricing, schedule, hours]);

  return createScreen({
    id: 'fit',
    title: 'Fit & memory',
    intro: 'Does the model fit in GPU memory on this instance, and what does it cost?',
    controls,
    render() {
      const request = {
        question: 'fit', model: model.value(), workload: workload.value(), precision: precision.value(),
        instance: instance.value(), gpus: gpus.value(), hours_per_month: hours.value(), use_spot: spot.value(),
      };
      for (const k of ['gpus', 'hours_per_month']) if (request[k] === null) delete request[k];
      pricing.apply(request);
      schedule.apply(request);
      const { response, errors } = ask(store, request);
      if (errors) return { errors };
      return { nodes: renderFit(response.result) };
    },
  });
}

export function renderFit(r) {
  const p = r.placement;
  const fit = r.fit;
  const fits = r.status === 'FITS';
  const summary = h('section', { class: ['card', 'verdict', fits ? 'fits' : 'nofit'] },
    h('h3', { class: 'sr-only' }, 'Verdict'),
    h('div', { class: 'verdict-head' },
      statusBadge(r.status, 'fit-status'),
      h('div', null,
        h('p', { class: 'verdict-title' }, h('span', { testid: 'fit-resolved-instance' }, p.instance), ` · ${f.num(fit.gpus, 3)} × ${p.gpu_type}`),
        h('p', { class: 'muted' }, `${r.request.model.label}, ${f.label(r.request.workload)} at ${r.request.precision.toUpperCase()}`))),
    p.note ? h('p', { class: 'note' }, p.note) : null,
    h('div', { class: 'per-gpu' },
      h('p', { class: 'per-gpu-line' },
        h('strong', { testid: 'fit-per-gpu-gb' }, f.gb(fit.per_gpu_gb)), ' per GPU of ',
        h('strong', { testid: 'fit-capacity-gb' }, f.gb(fit.capacity_per_gpu_gb)), ` (${p.memory_per_gpu_basis})`),
      usageBar(fit.utilization_pct, { testid: 'fit-bar', label: 'Per-GPU memory used' }),
      facts([
        ['Per-GPU use', f.pct(fit.utilization_pct), 'fit-utilization'],
        ['GPUs used', f.gpus(fit.gpus), 'fit-gpus-used'],
        ['GPUs needed', f.gpus(fit.gpus_needed), 'fit-gpus-needed'],
        ['Placement', placementLine(p)],
      ], 'facts compact')),
    r.ways_out ? waysOut(r.ways_out) : null);

  return [
    summary,
    card('Memory per GPU against its capacity', memoryChart(r)),
    h('div', { class: 'grid-2' },
      card('Memory', h('div', { testid: 'fit-memory' }, memoryBlock(r.memory, 'fit-memory'))),
      card('Cost', costBlock(r.cost, 'fit-cost'), sourceNote(p))),
  ];
}

export function waysOut(w) {
  const rows = [];
  for (const lp of w.lower_precision ?? []) rows.push(['Lower precision', `${lp.precision.toUpperCase()}: ${f.gb(lp.total_gb)} in total`]);
  if (w.more_gpus) rows.push(['More GPUs', placementLine(w.more_gpus)]);
  for (const lg of w.larger_gpus ?? []) rows.push(['More memory per GPU', `${lg.instance} (${lg.gpu_type}, ${f.gb(lg.memory_per_gpu_gb)} per GPU)`]);
  return h('div', { class: 'ways-out', testid: 'fit-ways-out' },
    h('h4', null, 'Ways out'),
    h('p', { testid: 'fit-ways-out-summary' }, w.summary),
    rows.length ? table({ caption: 'Options', head: ['Way out', 'Setup'], rows: rows.map(([a, b]) => h('tr', null, h('th', { scope: 'row' }, a), h('td', null, b))) }) : null);
}

/** Weights and overhead on each GPU used (split evenly), against the GPU's usable memory. */
export function memoryChart(r) {
  const n = r.fit.gpus;
  const shown = Math.min(8, Math.max(1, Math.ceil(n)));
  const share = n > 0 ? 1 / n : 1;
  const weights = r.memory.weights_gb * share;
  const overhead = r.memory.overhead_gb * share;
  const cap = r.fit.capacity_per_gpu_gb;
  const gpu = r.placement.gpu_type;
  const rows = Array.from({ length: shown }, (_, i) => ({
    label: n < 1 ? `GPU 1 (${f.num(n, 3)} of it)` : `GPU ${i + 1}`,
    parts: [{ value: weights, cls: 'c1', name: 'weights' }, { value: overhead, cls: 'c2', name: `overhead (${r.memory.overhead_covers})` }],
    marker: cap, markerLabel: `usable memory ${f.gb(cap)}`,
  }));
  return [
    barChart({
      title: `Memory on each ${gpu}: weights + overhead against ${f.gb(cap)} usable`,
      summary: `${f.gb(r.fit.per_gpu_gb)} per GPU on ${f.num(n, 3)} GPU(s), ${f.pct(r.fit.utilization_pct)} of capacity`,
      xLabel: 'Memory per GPU (GB)', rows, format: (v) => `${f.num(v, v >= 100 ? 0 : 1)} GB`, testid: 'fit-chart',
      legendItems: [{ cls: 'c1', name: 'Weights' }, { cls: 'c2', name: `Overhead (${r.memory.overhead_covers})` }, { cls: 'marker', name: 'Usable memory per GPU' }],
      data: {
        caption: 'Memory per GPU (GB)',
        head: ['GPU', 'Weights (GB)', 'Overhead (GB)', 'Total (GB)', 'Usable (GB)', 'Use (%)'],
        rows: rows.map((row) => [row.label, f.num(weights, 2), f.num(overhead, 2), f.num(weights + overhead, 2), f.num(cap, 2), f.num(r.fit.utilization_pct, 1)]),
      },
    }),
    n > shown ? h('p', { class: 'muted small' }, `The first ${shown} of ${f.num(n, 3)} GPUs are drawn; each holds the same share.`) : null,
  ];
}
