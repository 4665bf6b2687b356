// Small SVG charts of our own (no charting library: the whole page stays under its size budget
// and the strict CSP holds). Every chart is an <svg role="img"> with a <title>, axis labels with
// units, a legend in HTML, and the data behind it as a table in a <details>.
import { h, svg, table, nextId } from './dom.js';

const W = 640;

/** A round step for about `parts` intervals up to max: 1, 2, 2.5 or 5 x 10^k. */
function niceStep(max, parts = 4) {
  if (!(max > 0)) return 1;
  const raw = max / parts;
  const e = 10 ** Math.floor(Math.log10(raw));
  const m = raw / e;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * e;
}

function axis(max, parts) {
  const step = niceStep(max, parts);
  const top = Math.max(step, Math.ceil(max / step - 1e-9) * step);
  const ticks = [];
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { top, ticks };
}

const short = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function frame({ title, summary, width, height, testid, children }) {
  const titleId = nextId('chart-title');
  return svg('svg', {
    class: 'chart-svg', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': titleId,
    'data-testid': testid, preserveAspectRatio: 'xMinYMin meet',
  }, svg('title', { id: titleId }, summary ? `${title}. ${summary}` : title), children);
}

function legend(items) {
  if (!items?.length) return null;
  return h('ul', { class: 'legend' }, items.map((i) => h('li', null,
    h('span', { class: ['swatch', i.cls], 'aria-hidden': 'true' }), i.name)));
}

/** The data behind a chart, as a table (with its own CSV and JSON downloads). */
function dataTable({ caption, head, rows, testid }) {
  return h('details', { class: 'chart-data' },
    h('summary', null, 'Data behind the chart'),
    table({
      caption, testid, head,
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

/**
 * A scatter of points [{x, y, label, highlight}]; highlighted points are joined in x order (a
 * frontier) and labelled.
 */
export function scatterChart({ title, summary, xLabel, yLabel, points, xFormat, yFormat, legendItems, testid, data }) {
  const left = 74;
  const right = 24;
  const top = 14;
  const bottom = 52;
  const height = 360;
  const plotW = W - left - right;
  const plotH = height - top - bottom;
  // Costs spread over orders of magnitude: a log axis (1-2-5 ticks) when they span 20x or more.
  const xsPos = points.map((p) => p.x).filter((v) => v > 0);
  const lo = Math.min(...xsPos);
  const hi = Math.max(...xsPos);
  const log = xsPos.length === points.length && hi / lo >= 20;
  let X;
  let xTicks;
  if (log) {
    const a = 10 ** Math.floor(Math.log10(lo));
    const b = 10 ** Math.ceil(Math.log10(hi));
    X = (v) => left + ((Math.log10(v) - Math.log10(a)) / (Math.log10(b) - Math.log10(a))) * plotW;
    xTicks = [];
    for (let e = a; e <= b; e *= 10) for (const m of [1, 2, 5]) if (e * m <= b * 1.0001) xTicks.push(e * m);
  } else {
    const xs = axis(Math.max(0, ...points.map((p) => p.x)), 5);
    X = (v) => left + (v / xs.top) * plotW;
    xTicks = xs.ticks;
  }
  const ys = axis(Math.max(0, ...points.map((p) => p.y)), 4);
  const Y = (v) => top + plotH - (v / ys.top) * plotH;
  const nodes = [];
  for (const t of xTicks) {
    nodes.push(svg('line', { class: 'chart-grid', x1: X(t), x2: X(t), y1: top, y2: top + plotH }));
    nodes.push(svg('text', { class: 'chart-tick', x: X(t), y: top + plotH + 16, 'text-anchor': 'middle' }, xFormat(t)));
  }
  for (const t of ys.ticks) {
    nodes.push(svg('line', { class: 'chart-grid', x1: left, x2: left + plotW, y1: Y(t), y2: Y(t) }));
    nodes.push(svg('text', { class: 'chart-tick', x: left - 6, y: Y(t) + 4, 'text-anchor': 'end' }, yFormat(t)));
  }
  nodes.push(svg('line', { class: 'chart-axis', x1: left, x2: left, y1: top, y2: top + plotH }));
  nodes.push(svg('line', { class: 'chart-axis', x1: left, x2: left + plotW, y1: top + plotH, y2: top + plotH }));
  nodes.push(svg('text', { class: 'chart-axis-label', x: left + plotW / 2, y: height - 10, 'text-anchor': 'middle' }, log ? `${xLabel}, log scale` : xLabel));
  nodes.push(svg('text', { class: 'chart-axis-label', x: 14, y: top + plotH / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${top + plotH / 2})` }, yLabel));
  const front = points.filter((p) => p.highlight).sort((a, b) => a.x - b.x || a.y - b.y);
  if (front.length > 1) {
    nodes.push(svg('polyline', { class: 'chart-frontier', points: front.map((p) => `${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(' ') }));
  }
  // Others first, so that frontier points are drawn on top.
  for (const p of [...points.filter((q) => !q.highlight), ...front]) {
    nodes.push(svg('circle', {
      class: p.highlight ? 'chart-point frontier' : 'chart-point', cx: X(p.x).toFixed(1), cy: Y(p.y).toFixed(1), r: p.highlight ? 6 : 4.5,
      'data-label': p.label, 'data-frontier': p.highlight ? '1' : '0',
    }, svg('title', null, `${p.label}: ${xFormat(p.x)}, ${yFormat(p.y)}${p.highlight ? ' (Pareto frontier)' : ''}`)));
  }
  // Frontier labels where they collide with no other label (every point is in the data table).
  const boxes = [];
  const free = (b) => b.x1 >= 2 && b.x2 <= W - 2 && b.y1 >= 0 && b.y2 <= top + plotH
    && !boxes.some((o) => b.x1 < o.x2 && b.x2 > o.x1 && b.y1 < o.y2 && b.y2 > o.y1);
  for (const p of front) {
    const px = X(p.x);
    const py = Y(p.y);
    const text = short(p.label, 26);
    const w = text.length * 6.4;
    for (const [dx, dy, anchor] of [[9, -8, 'start'], [9, 14, 'start'], [-9, -8, 'end'], [-9, 14, 'end'], [9, -22, 'start'], [-9, -22, 'end']]) {
      const x1 = anchor === 'start' ? px + dx : px + dx - w;
      const b = { x1, x2: x1 + w, y1: py + dy - 10, y2: py + dy + 3 };
      if (!free(b)) continue;
      boxes.push(b);
      nodes.push(svg('text', { class: 'chart-point-label', x: (px + dx).toFixed(1), y: (py + dy).toFixed(1), 'text-anchor': anchor }, text));
      break;
    }
  }
  return h('figure', { class: 'chart', testid: testid ? `${testid}-figure` : null },
    h('figcaption', null, title),
    h('div', { class: 'chart-scroll', tabindex: '0', role: 'region', 'aria-label': `Chart: ${title}` }, frame({ title, summary, width: W, height, testid, children: nodes })),
    legend(legendItems),
    data ? dataTable({ ...data, testid: testid ? `${testid}-data` : null }) : null);
}

/** Candidates no other beats: none at most as costly and at least as fast, better in one. */
export function paretoFrontier(items, cost, speed) {
  return items.map((a, i) => !items.some((b, j) => j !== i
    && cost(b) <= cost(a) && speed(b) >= speed(a) && (cost(b) < cost(a) || speed(b) > speed(a))));
}

/** Colour classes for series, in order. */
export const SERIES = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
