// Number formatting: every number is shown with its unit.

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
export const gb = (v) => (known(v) ? `${num(v, 2)} GB` : DASH);
export const gib = (v) => (known(v) ? `${num(v, 2)} GiB` : DASH);
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
export const gpus = (v) => (known(v) ? `${num(v, 3)} GPU${v === 1 ? '' : 's'}` : DASH);
export const score = (v, unit) => (known(v) ? `${num(v, 1)} ${unit ?? ''}`.trim() : DASH);
export const label = (s) => String(s ?? '').replaceAll('_', ' ');

/** The source documents the catalogs cite as "seed 00N", by their titles. */
const SOURCES = { '000': 'the GPU Selection Guide', '001': 'the TextNLP GPU Requirements Assessment', '002': 'the Compute Resource Selection guide', '003': 'the GPU Deployment Strategy Analysis', '004': 'the GPU Fleet Optimizer guide' };
/** A catalog or analyzer string said for a person: documents by title, no config keys. */
export const plain = (s) => String(s ?? '')
  .replace(/\b(seed)('s)? (00\d)(’s|'s)?/gi, (m, w, p1, n, p2) => (SOURCES[n] ?? 'a source document') + (p1 || p2 ? '’s' : ''))
  .replace(/\b(?:[a-z_]+\.)*([a-z_]+?)_multiplier\b/g, (m, w) => `${w.replace(/_/g, ' ')} multiplier`)
  .replace(/\bmemory_planning\b/g, 'memory planning');
