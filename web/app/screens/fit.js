// Fit & memory: the deployment where the model runs (an instance family or type, or the cheapest
// instance with a GPU), its memory per GPU against capacity, FITS / CANNOT FIT MODEL / CANNOT RUN
// with the ways out, and the cost; under it, for a concrete model, every GPU that holds it and the
// weights in every format (later-screens.js). On one GPU alone: the memory question, line by line.
import { h, facts, card, table } from '../dom.js';
import { live, drawnLater } from '../in-place.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { usageBar, statusBadge, costBlock, memoryBlock, memoryLines, sourceNote, placementLine, requestBlock } from '../parts.js';
import { deploymentFacts, speedBasis, layoutText, memoryText, countText } from '../deployment.js';
import { GROUPS, groupOf } from '../memory-groups.js';
import { barChart } from '../charts.js';
import { deployPanel } from '../deploy-panel.js';
import { demandControl } from '../demand-fields.js';
import { kindChoice } from '../kind-choice.js';
import { sizedRequest, renderSized } from '../sized.js';
import { section } from '../sections.js';

const later = () => import('../later-screens.js');

export function createFitScreen(store, form) {
  // The demand is in the form from the start: with a request rate, the answer leads with the
  // deployment sized for it, of the kind chosen at the top.
  form.addDemand(demandControl);
  const kind = kindChoice('fit');
  const screen = createScreen(store, {
    id: 'fit',
    title: 'Fit & memory',
    intro: 'Which accelerator, how many and what it costs for your traffic; does the model fit where it runs?',
    form,
    uses: ['model', 'task', 'format', 'shape', 'demand', 'place', 'pay'],
    controls: { controls: [kind], fill: (s) => kind.fill(s), fromParams: (p) => kind.fromParams(p), toParams: (p) => kind.toParams(p) },
    lead: [kind],
    inputsTitle: 'Workload',
    async render({ ask }) {
      const sizing = sizedRequest(form, kind.value());
      const sized = sizing ? ask(sizing) : null;
      const answer = await fitAnswer(ask);
      if (answer.errors || !sized) return answer;
      const got = await sized;
      if (got.errors) return { errors: got.errors };
      return { nodes: [section('sized', renderSized(got.response.result, sizing)), ...answer.nodes] };
    },
  });
  async function fitAnswer(ask) {
      const where = form.place(store);
      // One GPU alone, or the cheapest instance with a GPU: answered by the later views' module.
      const m = where.gpu ? await later() : null;
      screen.memorySettings?.(where.gpu !== undefined);
      if (m) return m.memoryOnGpu(ask, form, where, screen, store);
      if (where.any) return (await later()).fitOnAny(ask, form, store, where);
      const request = form.pay({ question: 'fit', ...form.workload(), instance: where.instance, ...(where.gpus === undefined ? {} : { gpus: where.gpus }) });
      const { response, errors } = await ask(request);
      if (errors) return { errors };
      const deploy = response.result.status === 'FITS' ? deployPanel(ask, request) : null;
      return { nodes: [renderFit(response.result, !form.model.given()), deploy, fitMore(ask, form, response.result, store), requestBlock(request, 'fit-request')] };
  }
  return screen;
}

/** What follows the answer (later-screens.js): the workload sized, every GPU that holds a concrete
 *  model, the weights in every format. Asked when it comes near the screen: neither the answer nor
 *  the first download waits for it. */
export function fitMore(ask, form, r, store) {
  const more = live(h('div', { class: 'fit-more', testid: 'fit-more' }));
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    later().then((m) => m.fitMore(ask, form, r, store)).then((nodes) => more.replaceChildren(...nodes)).catch(() => {});
  }, { rootMargin: '200px' });
  seen.observe(more);
  return more;
}

/** `example`: the model is the form's example, not one chosen: pricing an instance then leads,
 *  and a verdict that it does not fit is said as a note, not as an alarm. */
export function renderFit(r, example = false) {
  const p = r.placement;
  const d = r.deployment;
  const fit = r.fit;
  const fits = r.status === 'FITS';
  const aside = example && !fits;
  const dev = f.device(p.accelerator_kind);
  const summary = h('section', { class: ['card', 'verdict', fits ? 'fits' : aside ? 'accent' : 'nofit'] },
    h('h3', { class: 'sr-only' }, 'Verdict'),
    aside ? h('p', { class: 'note', testid: 'fit-example' }, `${r.request.model.label} is the example model: choose yours above.`) : null,
    h('div', { class: 'verdict-head' },
      aside ? h('span', { class: 'badge', testid: 'fit-status' }, r.status) : statusBadge(r.status, 'fit-status'),
      h('div', null,
        h('p', { class: 'verdict-title' }, h('span', { testid: 'fit-resolved-instance' }, p.instance), ` · ${f.num(fit.gpus, 3)} × ${p.gpu_type}`),
        h('p', { class: 'muted' }, `${r.request.model.label}, ${f.label(r.request.workload)} at ${r.request.precision.toUpperCase()}`))),
    p.note ? h('p', { class: 'note' }, p.note) : null,
    d.runs ? null : h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Why not: '), h('span', { testid: 'fit-refusal' }, d.refusal)),
    h('div', { class: 'per-gpu' },
      h('p', { class: 'per-gpu-line' },
        h('strong', { testid: 'fit-per-gpu-gb' }, f.gb(fit.per_gpu_gb)), ` per ${dev} of `,
        h('strong', { testid: 'fit-capacity-gb' }, f.gb(fit.capacity_per_gpu_gb)), ' (', h('span', { class: 'tool-size' }, p.memory_per_gpu_basis), ')'),
      usageBar(fit.utilization_pct, { testid: 'fit-bar', label: `Per-${dev} memory used` }),
      facts([
        [`Per-${dev} use`, f.pct(fit.utilization_pct), 'fit-utilization'],
        [`${dev}s used`, f.gpus(fit.gpus, p.accelerator_kind), 'fit-gpus-used'],
        ['Layout', layoutText(d.layout), 'fit-layout'],
        ['Placement', placementLine(p)],
        fit.fit_band ? ['At the measured error', f.sentence(fit.fit_band.text), 'fit-band'] : null,
      ], 'facts compact'),
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Expected error (memory): '), h('span', { testid: 'fit-expected-error' }, r.expected_error.text))),
    r.ways_out ? waysOut(r.ways_out) : null);

  const cost = drawnLater(() => section('cost', card('Cost', costBlock(r.cost, 'fit-cost'), sourceNote(p))));
  return [
    aside ? cost : null,
    section('verdict', summary),
    section('chart', card(`Memory per ${dev} against its capacity`, memoryChart(r),
      r.memory.per_gpu?.length ? memoryLines(r.memory.per_gpu, 'fit-memory-lines') : null)),
    drawnLater(() => h('div', { class: 'grid-2' },
      section('memory', card('Memory', h('div', { testid: 'fit-memory' }, memoryBlock(r.memory, 'fit-memory')))),
      section('deployment', card('Deployment', deploymentFacts(d, 'fit-dep'),
        r.band ? h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'At the measured error: '), h('span', { testid: 'fit-capacity-band' }, capacityBand(r.band))) : null,
        d.basis ? h('details', { class: 'why-details' }, h('summary', null, 'Speed basis'), speedBasis(d.basis)) : null)))),
    aside ? null : cost,
  ];
}

/** "1,723-4,780 output tokens/s; 1 x g6e.xlarge, $1,339.92/month, ... at the measured error (...)". */
function capacityBand(b) {
  const speed = b.output_tokens_per_s ?? b.tokens_per_s;
  const unit = b.output_tokens_per_s ? 'output tokens/s' : 'tokens/s';
  const range = speed?.low == null ? '' : `${f.num(speed.low, 0)}${speed.high == null ? ' or more' : `-${f.num(speed.high, 0)}`} ${unit}; `;
  return range + b.text;
}

/** One way out: "2 × p5.48xlarge (16 GPUs × NVIDIA H100), TP 2 · PP 1 · 8 replicas, ...". */
const wayOutLine = (d) => `${countText(d)} (${f.gpus(d.gpus, d.accelerator_kind)} × ${d.gpu_type}), ${layoutText(d.layout)}, ${memoryText(d)} per ${f.device(d.accelerator_kind)}, ${f.usdMonth(d.usd_per_month)}`;

export function waysOut(w) {
  const rows = [
    ...(w.formats ?? []).map((fmt) => ['Smaller weight format', `${f.label(fmt).toUpperCase()} on the same GPUs`]),
    w.more_gpus ? ['More GPUs', wayOutLine(w.more_gpus)] : null,
    ...(w.other_families ?? []).map((d) => ['Another family', wayOutLine(d)]),
  ].filter(Boolean);
  return h('div', { class: 'ways-out', testid: 'fit-ways-out' },
    h('h4', null, 'Ways out'),
    h('p', { testid: 'fit-ways-out-summary' }, w.summary),
    rows.length ? table({ caption: 'Options', head: ['Way out', 'Setup'], rows: rows.map(([a, b]) => h('tr', null, h('th', { scope: 'row' }, a), h('td', null, b))) }) : null);
}

/** The GPUs drawn: up to 8, each holding the same share. */
function gpuRows(n, row) {
  const shown = Math.min(8, Math.max(1, Math.ceil(n)));
  return Array.from({ length: shown }, (_, i) => row(n < 1 ? `GPU 1 (${f.num(n, 3)} of it)` : `GPU ${i + 1}`));
}

const drawnNote = (n, shown) => (n > shown ? h('p', { class: 'muted small' }, `The first ${shown} of ${f.num(n, 3)} GPUs are drawn; each holds the same.`) : null);

export function memoryChart(r) {
  return Array.isArray(r.memory.per_gpu) && r.memory.per_gpu.length ? linesChart(r) : seedChart(r);
}

/** The memory model's lines on each GPU of the layout (GB), against the GPU's memory. */
function linesChart(r) {
  const n = r.fit.gpus;
  const lines = r.memory.per_gpu.map((l) => ({ ...l, gb: f.gibToGb(l.gib) }));
  const cap = r.deployment.capacity_per_gpu_gb;
  const gpu = r.placement.gpu_type;
  const total = lines.reduce((s, l) => s + l.gb, 0);
  const rows = gpuRows(n, (label) => ({
    label, parts: lines.map((l) => ({ value: l.gb, cls: groupOf(l.key).cls, name: l.label })),
    marker: cap, markerLabel: `memory ${f.gb(cap)}`,
  }));
  const present = GROUPS.filter((g) => lines.some((l) => groupOf(l.key) === g));
  return [
    barChart({
      title: `Memory on each ${gpu}: ${f.gb(total)} against ${f.gb(cap)}`,
      summary: lines.map((l) => `${l.label} ${f.gb(l.gb)}`).join(', '),
      xLabel: 'Memory per GPU (GB)', rows, format: f.gbTick, testid: 'fit-chart',
      legendItems: [...present.map((g) => ({ cls: g.cls, name: g.name })), { cls: 'marker', name: 'Memory per GPU' }],
      data: {
        caption: 'Memory per GPU (GB)', records: r.memory.per_gpu,
        head: ['GPU', ...lines.map((l) => `${l.label} (GB)`), 'Total (GB)', 'Capacity (GB)', 'Use (%)'],
        rows: rows.map((row) => [row.label, ...lines.map((l) => f.num(l.gb, 2)), f.num(total, 2), f.num(cap, 2), f.num(r.deployment.memory_utilization_pct, 1)]),
      },
    }),
    drawnNote(n, rows.length),
  ];
}

/** The rule of thumb's weights and overhead (the whole model) split evenly over the GPUs used (GB). */
function seedChart(r) {
  const n = r.fit.gpus;
  const share = n > 0 ? 1 / n : 1;
  const weights = r.memory.weights_gb * share;
  const overhead = r.memory.overhead_gb * share;
  const cap = r.fit.capacity_per_gpu_gb;
  const gpu = r.placement.gpu_type;
  const rows = gpuRows(n, (label) => ({
    label,
    parts: [{ value: weights, cls: 'c1', name: 'weights' }, { value: overhead, cls: 'c2', name: `overhead (${r.memory.overhead_covers})` }],
    marker: cap, markerLabel: `usable memory ${f.gb(cap)}`,
  }));
  return [
    barChart({
      title: `Memory on each ${gpu}: weights + overhead against ${f.gb(cap)} usable`,
      summary: `${f.gb(r.fit.per_gpu_gb)} per GPU on ${f.num(n, 3)} GPU(s), ${f.pct(r.fit.utilization_pct)} of capacity`,
      xLabel: 'Memory per GPU (GB)', rows, format: f.gbTick, testid: 'fit-chart',
      legendItems: [{ cls: 'c1', name: 'Weights' }, { cls: 'c2', name: `Overhead (${r.memory.overhead_covers})` }, { cls: 'marker', name: 'Usable memory per GPU' }],
      data: {
        caption: 'Memory per GPU (GB)', records: [r.memory],
        head: ['GPU', 'Weights (GB)', 'Overhead (GB)', 'Total (GB)', 'Usable (GB)', 'Use (%)'],
        rows: rows.map((row) => [row.label, f.num(weights, 2), f.num(overhead, 2), f.num(weights + overhead, 2), f.num(cap, 2), f.num(r.fit.utilization_pct, 1)]),
      },
    }),
    drawnNote(n, rows.length),
  ];
}
