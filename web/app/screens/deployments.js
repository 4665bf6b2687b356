// Deployments: ranked deployments for the workload form's model, task and demand (instance x
// count x layout, utilization, monthly cost, $ per 1M tokens, cost against speed with its Pareto
// frontier), filtered by provider, kind, family and budget; the accelerator rules (decide.js)
// explain the kind of accelerator under them.
import { h, nextId, foldedLater } from '../dom.js';
import { longTable } from '../long-table.js';
import { live, drawnLater, whenIdle } from '../in-place.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { demandControl } from '../demand-fields.js';
import { numberControl, serves } from '../controls.js';
import { controlSet, priorityControl, providersControl, kindsControl, checkedList } from '../more-controls.js';
import { requestBlock } from '../parts.js';
import { deployPanel } from '../deploy-panel.js';
import { workloadBlock } from '../workload-block.js';
import { layoutText, bandCount } from '../deployment.js';
import { section } from '../sections.js';
import { deploymentCells, deploymentHead, riskBadge, reasons } from '../deployment-table.js';
import { renderDecide } from './decide.js';
import { calibrationWarning } from '../sized.js';
import { scatterChart, paretoFrontier } from '../scatter-chart.js';

/** Family checkboxes; none checked = every family. URL: families=G6,G6e */
function familiesControl() {
  const list = h('div', { class: 'checks' });
  const wrap = h('fieldset', { class: 'field families' }, h('legend', null, 'Families (none checked = all)'), list);
  let wanted = [];
  const boxes = () => [...list.querySelectorAll('input[type=checkbox]')];
  const set = (names) => { for (const b of boxes()) b.checked = names.includes(b.value); };
  const link = checkedList('families', wrap, 'Families', boxes);
  return {
    wrap, key: 'families', fields: link.fields, linkErrors: link.linkErrors,
    fill(store) {
      const keep = boxes().length ? boxes().filter((b) => b.checked).map((b) => b.value) : wanted;
      list.replaceChildren(...store.families.map((fam) => {
        const id = nextId('rec-family');
        return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, value: fam, testid: `rec-family-${fam}` }), h('label', { for: id }, fam));
      }));
      set(keep);
    },
    fromParams(p) { wanted = link.fromParams(p); },
    toParams(p) { const v = this.value(); if (v.length) p.set('families', v.join(',')); },
    value: () => boxes().filter((b) => b.checked).map((b) => b.value),
  };
}

export function createDeploymentsScreen(store, form) {
  form.addDemand(demandControl);
  const priority = priorityControl('rec');
  const families = familiesControl();
  const providers = providersControl('rec', 'Providers (none checked = all)');
  const budget = numberControl({ id: 'rec-budget', key: 'budget', path: '/max_usd_per_month', label: 'Budget (max per month)', unit: 'USD/month', min: 0, step: 100, optional: true, placeholder: 'no limit' });
  const kinds = kindsControl('rec');
  /** What the CLI's `recommend` sends for the same inputs: defaults left out. */
  const request = () => {
    const { demand, ...w } = form.workload();
    const r = { question: 'recommend', ...w, priority: priority.value(), ...(demand ? { demand } : {}) };
    if (families.value().length) r.families = families.value();
    if (providers.value().length) r.providers = providers.value();
    if (kinds.value().length) r.kinds = kinds.value();
    const max = budget.value();
    if (max !== undefined) r.max_usd_per_month = max;
    return form.pay(r);
  };
  /** Which kind of accelerator, by the usual rules, for the same workload and way to pay. */
  const decideRequest = (r) => {
    const d = form.pay({ question: 'decide', model: r.model, workload: r.workload, precision: r.precision, batch: r.workload === 'batch_inference' });
    if (GOALS.has(r.priority)) d.goal = r.priority;
    return d;
  };
  return createScreen(store, {
    id: 'deployments',
    title: 'Deployments',
    intro: 'Which instances serve or train this model for the demand, how many, and what they cost, ranked by your priority.',
    form,
    uses: ['model', 'task', 'format', 'shape', 'demand', 'pay'],
    inputsTitle: 'Workload',
    controls: controlSet([kinds, priority, providers, families, budget]),
    lead: [kinds],
    async render({ ask }) {
      const sent = request();
      const asked = decideRequest(sent);
      const rec = await ask(sent);
      if (rec.errors) return { errors: rec.errors };
      // The accelerator rules (decide, answered by the core's Web Worker) follow the ranking into
      // their folded card: asked when the page is idle after the ranking is drawn, so that neither
      // their message nor the worker's thread competes with it.
      const decided = new Promise((resolve) => whenIdle(resolve)).then(() => ask(asked, { background: true }));
      decided.catch(() => {});  // superseded with this render, whichever way it ends
      // Its folded card is placed now (its summary's height), so that nothing moves when it fills.
      const details = live(h('details', { class: 'card decide-details', testid: 'decide-details' },
        h('summary', null, h('h3', null, 'Why this kind of accelerator: GPU, Trainium, Inferentia or CPU'))));
      decided.then((dec) => {
        if (dec.response) details.append(...[renderDecide(dec.response.result), decideDeploy(ask, asked, dec.response.result)].flat(Infinity).filter(Boolean), requestBlock(asked, 'decide-request'));
        else details.remove();
      }, () => {});
      return {
        nodes: [renderRecommend(rec.response.result), rec.response.result.candidates.length ? deployPanel(ask, sent) : null, requestBlock(sent, 'rec-request'), details],
      };
    },
  });
}

/** Decide's pick as files, or its cheapest NVIDIA GPU deployment when the rules pick another kind
 *  (the files are written for NVIDIA GPUs); none for training, which deploy does not write. */
function decideDeploy(ask, asked, r) {
  if (asked.workload !== 'inference' && asked.workload !== 'batch_inference') return null;
  const pick = r.options.findIndex((o) => o.recommended);
  if (r.options[pick]?.kind === 'gpu' && r.options[pick].cheapest_instance) return deployPanel(ask, asked);
  const gpu = r.options.findIndex((o) => o.kind === 'gpu' && o.cheapest_instance);
  if (gpu < 0) return null;
  const picked = r.options[pick]?.name ?? 'another kind';
  return deployPanel(ask, asked, { candidate: gpu },
    `The rules pick ${picked}; these files are for the cheapest NVIDIA GPU deployment (${r.options[gpu].cheapest_instance.instance}), the kind the files are written for.`);
}

/** Priorities that are also goals of the accelerator rules. */
const GOALS = new Set(['cost', 'performance', 'balanced']);

export function candidateRow(c, i, prefix) {
  return [h('tr', { testid: `${prefix}-row-${i}`, class: 'main-row' },
    h('td', { class: 'num' }, String(i + 1)),
    deploymentCells(c, i, prefix),
    h('td', null, riskBadge(c.risk_level))),
  reasonsRow(c, 2 + deploymentHead(true).length, `${prefix}-detail-${i}`)];
}

/** The reasons, the cost basis and the speed notes, under the row they explain. */
export function reasonsRow(c, span, testid) {
  // An empty first cell instead of a rowspan: the detail row can then be left out (print)
  // without shifting the rows under it.
  return h('tr', { class: 'detail-row', testid },
    h('td'),
    h('td', { colspan: span - 1 },
      h('span', { class: 'sr-only' }, 'Reasons: '), reasons(c.reasons),
      foldedLater(h('details', { class: 'why-details' }, h('summary', null, 'Cost basis and speed notes')), () => [
        h('p', null, c.cost.basis),
        h('p', null, `Bound: ${c.bound || f.DASH}${c.uncalibrated ? ' (uncalibrated)' : ''}`),
        c.notes?.map((n) => h('p', null, f.sentence(n)))])));
}

function topPick(top, r) {
  if (!top) {
    return h('section', { class: 'card verdict nofit' }, h('h3', null, 'No candidate'),
      h('p', { testid: 'rec-none' }, 'No instance meets these filters; see the excluded families below.'));
  }
  const warning = calibrationWarning(top);
  return h('section', { class: ['card', 'verdict', warning ? 'accent' : 'fits'] },
    h('h3', null, 'Top pick'),
    h('p', { class: 'verdict-title' },
      warning ? h('span', { class: 'uncalibrated', testid: 'rec-top-uncalibrated' }, `${warning} `) : null,
      h('span', { testid: 'rec-top-count' }, `${f.num(top.instance_count, 0)} ×`), ' ', h('span', { testid: 'rec-top-instance' }, top.instance),
      bandCount(top) ? h('span', { testid: 'rec-top-band' }, ` (${bandCount(top)})`) : null, ' · ',
      h('span', { testid: 'rec-top-monthly' }, f.usdMonth(top.cost.usd_per_month)), ' · ', `${layoutText(top.layout)} · ${f.pct(top.memory_utilization_pct)} of ${f.device(top.accelerator_kind)} memory`),
    top.band ? h('p', { class: 'muted small', testid: 'rec-top-band-text' }, bandText(top.band)) : null,
    h('p', { class: 'muted', testid: 'rec-ranking' }, `Ranking: ${r.ranking}. ${r.pricing_note}.`));
}

/** A band in words with where its error comes from: "7–14 × g6e.xlarge, ... (throughput 90 % within
 *  47 %, 18 cases). Leave one source out: ...", or why there is none. */
export function bandText(band) {
  const from = band.expected_error?.from;
  return from ? `At the measured error: ${band.text}. ${f.sentence(from)}.` : f.sentence(band.text);
}

function excludedList(excluded) {
  return h('ul', { class: 'reasons', testid: 'rec-excluded' }, excluded.map((x) => h('li', null,
    h('strong', null, x.family), ': ', x.reason, x.way_out ? h('span', { class: 'muted' }, ` (way out: ${x.way_out})`) : null)));
}

function renderRecommend(r) {
  const serving = serves(r.request.workload);
  return [
    section('verdict', topPick(r.candidates[0], r)),
    r.candidates.length ? section('chart', h('section', { class: 'card' }, h('h3', null, 'Cost against performance'), costPerformanceChart(r.candidates))) : null,
    drawnLater(() => section('table', h('section', { class: 'card' },
      h('h3', null, `Candidates (${r.candidates.length})`),
      longTable({
        caption: `Ranked: ${r.ranking}`, testid: 'rec-table', className: 'data', records: r.candidates,
        head: ['#', ...deploymentHead(serving, r.candidates), 'Risk'],
      }, { count: r.candidates.length, row: (i) => candidateRow(r.candidates[i], i, 'rec'), what: 'candidates' })))),
    drawnLater(() => h('div', { class: 'grid-2' },
      section('workload', h('section', { class: 'card' }, h('h3', null, 'Workload sized'), workloadBlock(r.request, 'rec-workload'))),
      r.excluded.length ? section('excluded', h('section', { class: 'card' }, h('h3', null, 'Excluded families'), excludedList(r.excluded))) : null)),
  ];
}

/** Every candidate: monthly cost (x) against performance score (y); the Pareto frontier (no
 *  other candidate is at most as costly and at least as fast) is joined and labelled. */
export function costPerformanceChart(candidates) {
  const cost = (c) => c.cost.usd_per_month;
  const speed = (c) => c.performance.score;
  const usable = candidates.filter((c) => Number.isFinite(cost(c)) && Number.isFinite(speed(c)));
  const onFront = paretoFrontier(usable, cost, speed);
  const unit = usable[0]?.performance.unit ?? '';
  const label = (c) => `${c.instance_count > 1 ? `${c.instance_count} × ` : ''}${c.instance}`;
  const points = usable.map((c, i) => ({ x: cost(c), y: speed(c), label: label(c), highlight: onFront[i] }));
  const kUsd = (v) => (v >= 1000 ? `$${f.num(v / 1000, v >= 10000 ? 0 : 1)}k` : `$${f.num(v, 0)}`);
  return scatterChart({
    title: `Monthly cost against performance score (${unit}), ${usable.length} candidates${usable.length < candidates.length
      ? ` (${candidates.length - usable.length} of the ${candidates.length} without a price or a speed: in the table only)` : ''}`,
    summary: `Pareto frontier: ${points.filter((p) => p.highlight).map((p) => p.label).join(', ')}`,
    xLabel: 'Monthly cost (USD/month)', yLabel: `Performance score (${unit})`,
    points, xFormat: kUsd, yFormat: (v) => f.num(v, v >= 100 ? 0 : 1), testid: 'rec-chart',
    legendItems: [{ cls: 'point', name: 'Candidate' }, { cls: 'frontier', name: 'Pareto frontier: no other is both cheaper and faster' }],
    data: {
      caption: `Candidates by cost and performance (${unit})`, records: usable,
      head: ['Candidate', 'Monthly cost (USD)', `Performance score (${unit})`, 'On the Pareto frontier'],
      rows: usable.map((c, i) => [label(c), f.num(cost(c), 2), f.num(speed(c), 1), onFront[i] ? 'yes' : 'no']),
    },
  });
}
