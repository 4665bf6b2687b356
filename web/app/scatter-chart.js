// The scatter chart and its Pareto frontier: used by later screens only, so a module of its own
// beside charts.js (the Fit screen's bar chart), fetched with the later screens' chunk.
import { h, svg } from './dom.js';
import { W, axis, short, frame, legend, dataTable } from './charts.js';

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
