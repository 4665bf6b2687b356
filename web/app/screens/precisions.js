// The weights of a model in every format, with the families that run each natively (Fit & memory).
import { h, table, svg } from '../dom.js';
import * as f from '../format.js';
import { barChart } from '../charts.js';

export function renderPrecisions(r) {
  const max = Math.max(...r.precisions.map((p) => p.weights_gb), 1);
  const rows = r.precisions.map((p) => h('tr', { testid: `prec-row-${p.precision}` },
    h('th', { scope: 'row' }, p.name),
    h('td', { class: 'num' }, `${f.num(p.bytes_per_parameter, 2)} B`),
    h('td', { class: 'bar-cell' }, h('span', { class: 'num-strong', testid: `prec-weights-${p.precision}` }, f.gb(p.weights_gb)), svg('svg', { class: 'mini-bar', viewBox: '0 0 100 6', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
      svg('rect', { class: 'usage-track', x: 0, y: 0, width: 100, height: 6, rx: 1 }),
      svg('rect', { class: 'usage-fill', x: 0, y: 0, width: ((p.weights_gb / max) * 100).toFixed(3), height: 6, rx: 1 }))),
    h('td', { class: 'tags-cell', testid: `prec-families-${p.precision}` }, tags(p.native_on_families)),
    h('td', null, p.native_architectures.join(', ')),
    h('td', null, p.description)));
  return [
    h('section', { class: 'card' },
      h('h3', null, `Weights in every format: ${r.model.label}, `, h('span', { class: 'muted' }, `${f.num(r.model.parameters_billion, 3)} billion parameters`)),
      table({
        caption: 'Weights by precision', testid: 'prec-table', records: r.precisions,
        head: ['Precision', 'Bytes per parameter', 'Weights', 'Native on families', 'Native architectures', 'Notes'],
        rows,
      }),
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Basis: '), h('span', { testid: 'prec-basis' }, r.basis)),
      barChart({
        title: `Weights of ${r.model.label} by precision`,
        summary: r.precisions.map((p) => `${p.name} ${f.gb(p.weights_gb)}`).join(', '),
        xLabel: 'Weights (GB)', format: f.gbTick, testid: 'prec-chart',
        rows: r.precisions.map((p) => ({ label: `${p.name} (${f.num(p.bytes_per_parameter, 2)} B/param)`, parts: [{ value: p.weights_gb, cls: 'c1', name: 'weights' }] })),
        data: {
          caption: 'Weights by precision (GB)', records: r.precisions,
          head: ['Precision', 'Bytes per parameter', 'Weights (GB)', 'Against the largest (%)'],
          rows: r.precisions.map((p) => [p.name, f.num(p.bytes_per_parameter, 2), f.num(p.weights_gb, 2), f.num((p.weights_gb / max) * 100, 1)]),
        },
      }),
      h('p', { class: 'muted small' }, 'Weights only; the answer above adds the workload\'s other memory (KV cache, activations, gradients, optimizer states).')),
  ];
}

export function tags(list) {
  if (!list?.length) return h('span', { class: 'muted' }, 'none');
  return h('ul', { class: 'tags' }, list.map((t) => h('li', null, t)));
}
