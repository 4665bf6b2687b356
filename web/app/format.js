// Number formatting: every number is shown with its unit.
import { own } from './link.js';

// en-US digits: thousands grouped with commas, at most `max` decimals and at least `min`, rounded
// half away from zero: what Intl.NumberFormat('en-US') prints (tests/web/format.test.mjs compares
// them), written out because a page's first Intl.NumberFormat costs 20-45 ms in a fresh renderer
// (ICU data), the largest single step before the first answer (scripts/bench.sh).
export function formatNumber(v, max, min = 0) {
  const negative = v < 0 || Object.is(v, -0);
  const abs = Math.abs(v);
  // The shortest decimal digits that name the double (0.015, not 0.01499...), rounded as decimals.
  const [mantissa, exponent] = abs.toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(exponent) + 1;  // digits before the decimal point
  let whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  let fraction = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
  if (fraction.length > max) {
    const up = fraction[max] >= '5';
    fraction = fraction.slice(0, max);
    if (up) {
      const all = [...(whole + fraction)];
      let i = all.length - 1;
      while (i >= 0 && all[i] === '9') all[i--] = '0';
      if (i >= 0) all[i] = String(Number(all[i]) + 1);
      else all.unshift('1');
      whole = all.slice(0, all.length - fraction.length).join('');
      fraction = all.slice(all.length - fraction.length).join('');
    }
  }
  let end = fraction.length;
  while (end > min && fraction[end - 1] === '0') end--;
  fraction = fraction.slice(0, end).padEnd(min, '0');
  let grouped = whole;
  for (let i = whole.length - 3; i > 0; i -= 3) grouped = `${grouped.slice(0, i)},${grouped.slice(i)}`;
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
const known = (v) => typeof v === 'number' && Number.isFinite(v);
export const DASH = '—';

export const num = (v, digits = 2) => (known(v) ? formatNumber(v, digits) : DASH);
// Sizes shown to people are GB (10^9 bytes), each with its unit; the core's GiB figures (*_gib)
// are said in GB here. GiB or MiB appear only beside such a figure, as a tool prints it (toolSize).
const sizeDigits = (v) => (Math.abs(v) > 0 && Math.abs(v) < 0.1 ? 3 : 2);
export const gb = (v) => (known(v) ? `${num(v, sizeDigits(v))} GB` : DASH);
/** A GiB figure (2^30 bytes) as a number of GB. */
export const gibToGb = (v) => (known(v) ? (v * 2 ** 30) / 1e9 : v);
export const gbOfGib = (v) => gb(gibToGb(v));
/** A chart's tick in GB. */
export const gbTick = (v) => `${num(v, v >= 100 ? 0 : 1)} GB`;
/** Bytes as a tool prints them, to compare with it: "15,360 MiB in nvidia-smi". */
export const toolSize = (bytes, unit, tool) => (known(bytes)
  ? `${num(bytes / 2 ** (unit === 'MiB' ? 20 : 30), unit === 'MiB' ? 0 : 2)} ${unit} in ${tool}` : DASH);
export const ms = (v) => (known(v) ? `${num(v, 1)} ms` : DASH);
export const pct = (v) => (known(v) ? `${num(v, 1)}%` : DASH);
export const signedPct = (v) => (known(v) ? `${v > 0 ? '+' : ''}${num(v, 1)}%` : DASH);
export const usd = (v) => (known(v) ? `${v < 0 ? '-' : ''}$${formatNumber(Math.abs(v), 2, 2)}` : DASH);
export const usdMonth = (v) => (known(v) ? `${usd(v)}/month` : DASH);
/** Hourly rates keep the catalog's 4 decimals. */
export const usdHour = (v) => (known(v) ? `$${formatNumber(v, 4, 2)}/h` : DASH);
/** Cents are too coarse for a million tokens: 4 decimals, as hourly rates. */
export const usdFine = (v) => (known(v) ? `$${formatNumber(v, 4, 2)}` : DASH);
export const ratio = (v) => (known(v) ? `${num(v, 2)}x` : DASH);
export const hours = (v) => (known(v) ? `${num(v, 1)} h` : DASH);
/** One device of the core's accelerator kind, as people call it: AWS's Neuron chips are no GPUs. */
const DEVICES = { trainium: ['Trainium chip', 'Trainium chips'], inferentia: ['Inferentia chip', 'Inferentia chips'], cpu: ['CPU host', 'CPU hosts'] };
export const device = (kind) => (own(DEVICES, kind) ?? ['GPU'])[0];
/** "2 GPUs", "16 Trainium chips": `kind` is an answer's accelerator_kind (GPUs when absent). */
export const gpus = (v, kind) => {
  const [one, many] = own(DEVICES, kind) ?? ['GPU', 'GPUs'];
  return known(v) ? `${num(v, 3)} ${v === 1 ? one : many}` : DASH;
};
/** A table's word for its devices: GPU, unless a row is another kind of accelerator. */
export const deviceOf = (rows) => (rows.some((r) => r?.accelerator_kind && r.accelerator_kind !== 'gpu') ? 'accelerator' : 'GPU');
export const score = (v, unit) => (known(v) ? `${num(v, 1)} ${unit ?? ''}`.trim() : DASH);
export const label = (s) => String(s ?? '').replaceAll('_', ' ');
/** A phrase of the core's (written to follow a label, as the CLI prints it: "Note: no spot price
 *  known ...") shown as a sentence of its own: its first letter capitalised. */
export const sentence = (s) => { const t = String(s ?? ''); return t.charAt(0).toUpperCase() + t.slice(1); };

let payNames = new Map();
let providerNames = {};
/** The catalog in use's ways to pay (the core's menus: `pricing_modes`, `ways_to_pay`) and
 *  providers (`provider_names`), named. */
export function setPayNames(data) {
  payNames = new Map([...(data?.pricing_modes ?? []), ...(data?.ways_to_pay ?? [])].map((m) => [m.key, m.name]));
  providerNames = data?.provider_names ?? {};
}
/** A provider as the catalog names it ("Google Cloud"), never its key. */
export const provider = (key) => own(providerNames, key) ?? String(key ?? '').toUpperCase();
/** How a cost is paid, by the menus' name, never a key: the provider's way that a commitment
 *  used (`way`), else the way to pay asked for (`pricing`). */
export const pay = (cost) => payNames.get(cost?.way) ?? payNames.get(cost?.pricing) ?? label(cost?.pricing);

// The order of Intl.Collator('en', {numeric: true}) for names (catalog models: "Llama 3.1 8B"
// before "Llama 3.1 70B"), written out for the same reason as formatNumber: a fresh renderer's
// first collation loads ICU's data, 7-19 ms before the first answer. Runs of digits compare by
// value; other characters as the root collation orders them (space, punctuation, symbols, digits,
// letters without case); then lower case before upper case. tests/web/format.test.mjs compares it
// with Intl on the catalog's names and on random ones (names whose numbers differ only in leading
// zeros may come in another order).
const PUNCT = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
const rank = (c) => {
  if (c === ' ' || c === '\t') return [0, 0];
  const p = PUNCT.indexOf(c);
  if (p >= 0) return [1, p];
  if (c >= '0' && c <= '9') return [3, c.charCodeAt(0)];
  const lower = c.toLowerCase();
  if (lower >= 'a' && lower <= 'z') return [4, lower.charCodeAt(0)];
  return [5, c.codePointAt(0)];
};
const isDigit = (c) => c >= '0' && c <= '9';
export function compareNames(a, b) {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (isDigit(a[i]) && isDigit(b[j])) {
      let ei = i; while (ei < a.length && isDigit(a[ei])) ei++;
      let ej = j; while (ej < b.length && isDigit(b[ej])) ej++;
      const x = a.slice(i, ei).replace(/^0+(?=.)/, '');
      const y = b.slice(j, ej).replace(/^0+(?=.)/, '');
      if (x.length !== y.length) return x.length - y.length;
      if (x !== y) return x < y ? -1 : 1;
      i = ei; j = ej;
      continue;
    }
    const [ca, pa] = rank(a[i]);
    const [cb, pb] = rank(b[j]);
    if (ca !== cb) return ca - cb;
    if (pa !== pb) return pa - pb;
    i++; j++;
  }
  if (i < a.length || j < b.length) return i < a.length ? 1 : -1;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (a[k] !== b[k]) {
      const la = a[k] === a[k].toLowerCase(), lb = b[k] === b[k].toLowerCase();
      if (la !== lb) return la ? -1 : 1;
    }
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
