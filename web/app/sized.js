// The deployment sized for the demand, at the top of the landing view: with a request rate, the
// cheapest deployment of the kind chosen (the `recommend` answer's first candidate: which
// instance, how many, what it costs). Deployments ranks every candidate.
import { h, facts } from './dom.js';
import * as f from './format.js';
import { layoutText, bandCount } from './deployment.js';
import { serves } from './controls.js';
import { KIND_NAMES } from './names.js';
import { own } from './link.js';

/** The recommend request for the form's workload and demand on `kind`, or null without a rate. */
export function sizedRequest(form, kind) {
  const w = form.workload();
  const rps = w.demand?.requests_per_s;
  if (!serves(w.workload) || typeof rps !== 'number' || !(rps > 0) || !kind) return null;
  return form.pay({ question: 'recommend', ...w, kinds: [kind], limit: 1 });
}

/** A pick's first line says when its speed has no measured error (not calibrated on this kind). */
export const calibrationWarning = (c) => (c.uncalibrated
  ? `Speed not measured on ${f.device(c.accelerator_kind)}s: no measured error for it (${c.notes?.[0] ?? 'an estimate from datasheet peaks'}).`
  : null);

export function renderSized(r, request) {
  const c = r.candidates[0];
  const rps = request.demand.requests_per_s;
  const kind = own(KIND_NAMES, request.kinds[0]) ?? request.kinds[0];
  const title = `For ${f.num(rps, 4)} requests per second: the cheapest ${kind} deployment`;
  if (!c) {
    return h('section', { class: 'card verdict nofit', testid: 'fit-sized' }, h('h3', null, title),
      h('p', { testid: 'fit-sized-none' }, `No ${kind} deployment of the catalog serves this demand${r.excluded.length ? ':' : '.'}`),
      r.excluded.length ? h('ul', { class: 'reasons' }, r.excluded.slice(0, 5).map((x) => h('li', null, `${x.family}: ${x.reason}`))) : null);
  }
  const warning = calibrationWarning(c);
  return h('section', { class: ['card', 'verdict', warning ? 'accent' : 'fits'], testid: 'fit-sized' },
    h('h3', null, title),
    h('p', { class: 'verdict-title' },
      warning ? h('span', { class: 'uncalibrated', testid: 'fit-sized-uncalibrated' }, `${warning} `) : null,
      h('span', { testid: 'fit-sized-count' }, f.num(c.instance_count, 0)), ' × ',
      h('span', { testid: 'fit-sized-instance' }, c.instance),
      bandCount(c) ? h('span', { testid: 'fit-sized-band' }, ` (${bandCount(c)})`) : null,
      ` (${f.gpus(c.gpus, c.accelerator_kind)} × ${c.gpu_type}) · `,
      h('span', { testid: 'fit-sized-monthly' }, f.usdMonth(c.cost.usd_per_month))),
    facts([
      ['Layout', layoutText(c.layout), 'fit-sized-layout'],
      ['Latency', `p95 time to first token ${f.ms(c.p95_time_to_first_token_ms)}, ${f.ms(c.time_per_output_token_ms)} per output token`, 'fit-sized-latency'],
      ['Utilization', f.pct(c.utilization_pct), 'fit-sized-util'],
      ['Per 1M output tokens', f.usdFine(c.usd_per_million_output_tokens)],
      c.band ? ['At the measured error', c.band.text, 'fit-sized-band-text'] : null,
    ], 'facts compact'),
    h('p', { class: 'muted small' }, `Ranked by ${r.ranking}; Deployments lists every candidate. The answer below is one copy where it runs.`));
}
