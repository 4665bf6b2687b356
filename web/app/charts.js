// Small SVG charts of our own (no charting library: the whole page stays under its size budget
// and the strict CSP holds). Every chart is an <svg role="img"> with a <title>, axis labels with
// units, a legend in HTML, and the data behind it as a table in a <details>.
import { h, svg, table, nextId, foldedLater } from './dom.js';

export const W = 640;

/** A round step for about `parts` intervals up to max: 1, 2, 2.5 or 5 x 10^k. */
function niceStep(max, parts = 4) {
  if (!(max > 0)) return 1;
  const raw = max / parts;
  const e = 10 ** Math.floor(Math.log10(raw));
  const m = raw / e;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * e;
}

export function axis(max, parts) {
  const step = niceStep(max, parts);
  const top = Math.max(step, Math.ceil(max / step - 1e-9) * step);
  const ticks = [];
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { top, ticks };
}

export const short = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function frame({ title, summary, width, height, testid, children }) {
  const titleId = nextId('chart-title');
  return svg('svg', {
    class: 'chart-svg', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': titleId,
    'data-testid': testid, preserveAspectRatio: 'xMinYMin meet',
  }, svg('title', { id: titleId }, summary ? `${title}. ${summary}` : title), children);
}

export function legend(items) {
  if (!items?.length) return null;
  return h('ul', { class: 'legend' }, items.map((i) => h('li', null,
    h('span', { class: ['swatch', i.cls], 'aria-hidden': 'true' }), i.name)));
}

/** The data behind a chart, as a table (with its own CSV and JSON downloads), folded: built when
 *  first opened. */
export function dataTable({ caption, head, rows, testid, records }) {
  return foldedLater(h('details', { class: 'chart-data', testid: testid ? `${testid}-details` : null },
    h('summary', null, 'Data behind the chart')), () => table({
    caption, testid, head, records,
    rows: rows.map((r) => h('tr', null, r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', { class: 'num' }, c))))),
  }));
}

/**
 * Horizontal (stacked) bars. rows: [{label, parts: [{value, cls, name}], marker, markerLabel}];
 * format(v) labels ticks and totals; xLabel names the axis with its unit.
 */
export function barChart({ title, summary, xLabel, rows, format, legendItems, testid, data, width = W }) {
  const labelW = width < W ? 130 : 160;
  const right = width < W ? 84 : 96;
  const top = 8;
  const barH = 20;
  const gap = 12;
  const plotW = width - labelW - right;
  const totals = rows.map((r) => r.parts.reduce((s, p) => s + (Number.isFinite(p.value) ? p.value : 0), 0));
  const max = Math.max(0, ...totals, ...rows.map((r) => (Number.isFinite(r.marker) ? r.marker : 0)));
  const { top: axisMax, ticks } = axis(max, 4);
  const x = (v) => labelW + (v / axisMax) * plotW;
  const plotBottom = top + rows.length * (barH + gap) - gap + 6;
  const height = plotBottom + 44;
  const nodes = [];
  for (const t of ticks) {
    nodes.push(svg('line', { class: 'chart-grid', x1: x(t), x2: x(t), y1: top - 4, y2: plotBottom }));
    nodes.push(svg('text', { class: 'chart-tick', x: x(t), y: plotBottom + 16, 'text-anchor': 'middle' }, format(t)));
  }
  rows.forEach((r, i) => {
    const y = top + i * (barH + gap);
    nodes.push(svg('text', { class: 'chart-label', x: labelW - 8, y: y + barH / 2 + 4, 'text-anchor': 'end' },
      svg('title', null, r.label), short(r.label, 24)));
    const hasMarker = Number.isFinite(r.marker);
    // The capacity as a track behind the bar, so that used and free read at a glance.
    if (hasMarker) nodes.push(svg('rect', { class: 'chart-track', x: labelW, y, width: Math.max(0, x(r.marker) - labelW), height: barH, rx: 2 }));
    let at = 0;
    for (const p of r.parts) {
      if (!(p.value > 0)) continue;
      nodes.push(svg('rect', { class: ['chart-bar', p.cls].filter(Boolean).join(' '), x: x(at), y, width: Math.max(0.5, x(at + p.value) - x(at)), height: barH, rx: 2 },
        svg('title', null, `${r.label}: ${p.name ? `${p.name} ` : ''}${format(p.value)}`)));
      at += p.value;
    }
    const end = r.valueText ?? (totals[i] > 0 || r.parts.length ? format(totals[i]) : '');
    nodes.push(svg('text', { class: 'chart-value', x: x(hasMarker ? Math.max(at, r.marker) : at) + 6, y: y + barH / 2 + 4 }, end));
    if (hasMarker) {
      nodes.push(svg('line', { class: 'chart-marker', x1: x(r.marker), x2: x(r.marker), y1: y - 3, y2: y + barH + 3 },
        svg('title', null, r.markerLabel ?? format(r.marker))));
    }
  });
  nodes.push(svg('line', { class: 'chart-axis', x1: labelW, x2: labelW, y1: top - 4, y2: plotBottom }));
  nodes.push(svg('text', { class: 'chart-axis-label', x: labelW + plotW / 2, y: plotBottom + 36, 'text-anchor': 'middle' }, xLabel));
  return h('figure', { class: 'chart', testid: testid ? `${testid}-figure` : null },
    h('figcaption', null, title),
    h('div', { class: 'chart-scroll', tabindex: '0', role: 'region', 'aria-label': `Chart: ${title}` }, frame({ title, summary, width, height, testid, children: nodes })),
    legend(legendItems),
    data ? dataTable({ ...data, testid: testid ? `${testid}-data` : null }) : null);
}

/** Colour classes for series, in order. */
export const SERIES = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
