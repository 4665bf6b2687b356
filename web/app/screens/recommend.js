// Recommend: ranked candidates for a model and workload, filtered by family, budget and pricing.
import { h, table, nextId } from '../dom.js';
import * as f from '../format.js';
import { createScreen, ask } from '../screen.js';
import { controlSet, modelControl, workloadControl, precisionControl, priorityControl, hoursControl, spotControl, numberControl, providersControl, kindsControl } from '../controls.js';
import { riskBadge, reasons, memoryBlock } from '../parts.js';
import { pricingControl, scheduleControl } from '../billing.js';
import { scatterChart, paretoFrontier } from '../charts.js';

/** Family checkboxes; none checked = every family. URL: families=G6,G6e */
function familiesControl() {
  const list = h('div', { class: 'checks' });
  const wrap = h('fieldset', { class: 'field families' }, h('legend', null, 'Families (none checked = all)'), list);
  let wanted = [];
  const boxes = () => [...list.querySelectorAll('input[type=checkbox]')];
  const set = (names) => { for (const b of boxes()) b.checked = names.includes(b.value); };
  return {
    wrap, key: 'families',
    fill(store) {
      const keep = boxes().length ? boxes().filter((b) => b.checked).map((b) => b.value) : wanted;
      list.replaceChildren(...store.families.map((fam) => {
        const id = nextId('rec-family');
        return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, value: fam, testid: `rec-family-${fam}` }), h('label', { for: id }, fam));
      }));
      set(keep);
    },
    fromParams(p) { wanted = (p.get('families') ?? '').split(',').filter(Boolean); set(wanted); },
    toParams(p) { const v = this.value(); if (v.length) p.set('families', v.join(',')); },
    value: () => boxes().filter((b) => b.checked).map((b) => b.value),
  };
}

export function createRecommendScreen(store) {
  const model = modelControl('rec');
  const workload = workloadControl('rec');
  const precision = precisionControl('rec');
  const priority = priorityControl('rec');
  const families = familiesControl();
  const providers = providersControl('rec');
  const spot = spotControl('rec');
  const budget = numberControl({ id: 'rec-budget', key: 'budget', label: 'Budget (max per month)', unit: 'USD/month', min: 0, step: 100, optional: true, placeholder: 'no limit' });
  const hours = hoursControl('rec');
  const kinds = kindsControl('rec');
  const pricing = pricingControl('rec', { spot });
  const schedule = scheduleControl('rec', hours);
  return createScreen({
    id: 'recommend',
    title: 'Recommend',
    intro: 'Which instances hold this model, ranked by your priority.',
    controls: controlSet([model, workload, precision, priority, providers, kinds, families, spot, pricing, budget, schedule, hours]),
    render() {
      const request = {
        question: 'recommend', model: model.value(), workload: workload.value(), precision: precision.value(),
        priority: priority.value(), use_spot: spot.value(), hours_per_month: hours.value(),
      };
      if (request.hours_per_month === null) delete request.hours_per_month;
      const fams = families.value();
      if (fams.length) request.families = fams;
      const provs = providers.value();
      if (provs.length) request.providers = provs;
      if (kinds.value().length) request.kinds = kinds.value();
      pricing.apply(request);
      schedule.apply(request);
      const max = budget.value();
      if (max !== undefined) request.max_usd_per_month = max;
      const { response, errors } = ask(store, request);
      if (errors) return { errors };
      return { nodes: renderRecommend(response.result) };
    },
  });
}

export function candidateRow(c, i, prefix) {
  const p = c.placement;
  const bought = (p.gpus_per_instance ?? 0) * (p.instance_count ?? 1);
  return [h('tr', { testid: `${prefix}-row-${i}`, class: 'main-row' },
    h('td', { class: 'num' }, String(i + 1)),
    h('th', { scope: 'row' }, h('span', { testid: `${prefix}-instance-${i}` }, c.instance), h('br'),
      h('span', { class: 'muted small' }, `${p.instance_count > 1 ? `${p.instance_count} instances · ` : ''}${f.label(c.sizing)}`)),
    h('td', null, p.gpu_type),
    h('td', { class: 'num' }, `${f.num(p.gpus_used, 3)} / ${f.num(bought, 3)} GPUs`),
    h('td', { class: 'num' }, f.pct(c.fit.utilization_pct)),
    h('td', { class: 'num', testid: `${prefix}-monthly-${i}` }, f.usdMonth(c.cost.usd_per_month), h('br'),
      h('span', { class: 'muted small' }, `${f.usdHour(c.cost.usd_per_hour)} ${f.label(c.cost.pricing)}`)),
    h('td', { class: 'num' }, f.score(c.performance.score, c.performance.unit), h('br'),
      h('span', { class: 'muted small', testid: `${prefix}-per-token-${i}` },
        c.performance.usd_per_million_tokens == null
          ? `${c.performance.bound} bound`
          : `${f.usd(c.performance.usd_per_million_tokens)} per 1M tokens · ${c.performance.bound} bound`)),
    h('td', { class: 'num' }, c.savings_pct == null ? f.DASH : `${f.signedPct(c.savings_pct)} (${f.usdMonth(c.savings_usd_per_month)})`),
    h('td', null, riskBadge(c.risk_level))),
  reasonsRow(c, 8, `${prefix}-detail-${i}`)];
}

/** The reasons and the cost and performance basis, under the row they explain. */
export function reasonsRow(c, span, testid) {
  // An empty first cell instead of a rowspan: the detail row can then be left out (print)
  // without shifting the rows under it.
  return h('tr', { class: 'detail-row', testid },
    h('td'),
    h('td', { colspan: span - 1 },
      h('span', { class: 'sr-only' }, 'Reasons: '), reasons(c.reasons),
      h('details', { class: 'why-details' }, h('summary', null, 'Cost and performance basis'),
        h('p', null, c.cost.basis), h('p', null, c.performance.basis))));
}

function renderRecommend(r) {
  const top = r.candidates[0];
  return [
    top ? h('section', { class: 'card verdict fits' },
      h('h3', null, 'Top pick'),
      h('p', { class: 'verdict-title' }, h('span', { testid: 'rec-top-instance' }, top.instance), ' · ',
        h('span', { testid: 'rec-top-monthly' }, f.usdMonth(top.cost.usd_per_month)), ' · ', `${f.pct(top.fit.utilization_pct)} of GPU memory`),
      h('p', { class: 'muted' }, `${r.ranking}. ${r.pricing_note}.`))
      : h('section', { class: 'card verdict nofit' }, h('h3', null, 'No candidate'), h('p', { testid: 'rec-none' }, 'No instance meets these filters; see the excluded families below.')),
    r.candidates.length ? h('section', { class: 'card' }, h('h3', null, 'Cost against performance'), costPerformanceChart(r.candidates)) : null,
    h('section', { class: 'card' },
      h('h3', null, `Candidates (${r.candidates.length})`),
      table({
        caption: `Ranked: ${r.ranking}`, testid: 'rec-table', className: 'data',
        head: ['#', 'Instance', 'GPU', 'GPUs used / bought', 'Memory used', 'Monthly cost', 'Performance', 'Savings', 'Risk'],
        rows: r.candidates.map((c, i) => candidateRow(c, i, 'rec')),
      })),
    h('div', { class: 'grid-2' },
      h('section', { class: 'card' }, h('h3', null, 'Memory needed'), memoryBlock(r.memory, 'rec-memory')),
      r.excluded.length ? h('section', { class: 'card' }, h('h3', null, 'Excluded families'),
        h('ul', { class: 'reasons', testid: 'rec-excluded' }, r.excluded.map((x) => h('li', null, h('strong', null, x.family), ': ', x.reason)))) : null),
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
  const label = (c) => `${c.placement.instance_count > 1 ? `${c.placement.instance_count} × ` : ''}${c.instance}`;
  const points = usable.map((c, i) => ({ x: cost(c), y: speed(c), label: label(c), highlight: onFront[i] }));
  const kUsd = (v) => (v >= 1000 ? `$${f.num(v / 1000, v >= 10000 ? 0 : 1)}k` : `$${f.num(v, 0)}`);
  return scatterChart({
    title: `Monthly cost against performance score (${unit}), ${usable.length} candidates`,
    summary: `Pareto frontier: ${points.filter((p) => p.highlight).map((p) => p.label).join(', ')}`,
    xLabel: 'Monthly cost (USD/month)', yLabel: `Performance score (${unit})`,
    points, xFormat: kUsd, yFormat: (v) => f.num(v, v >= 100 ? 0 : 1), testid: 'rec-chart',
    legendItems: [{ cls: 'point', name: 'Candidate' }, { cls: 'frontier', name: 'Pareto frontier: no other is both cheaper and faster' }],
    data: {
      caption: `Candidates by cost and performance (${unit})`,
      head: ['Candidate', 'Monthly cost (USD)', `Performance score (${unit})`, 'On the Pareto frontier'],
      rows: usable.map((c, i) => [label(c), f.num(cost(c), 2), f.num(speed(c), 1), onFront[i] ? 'yes' : 'no']),
    },
  });
}
