// Number formatting: every number is shown with its unit.

// A formatter costs far more to make than to use: each is made on first use, then kept.
const formatters = new Map();
const nf = (max, min = 0) => {
  const key = max * 8 + min;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat('en-US', { maximumFractionDigits: max, minimumFractionDigits: min })));
  return f;
};

const known = (v) => typeof v === 'number' && Number.isFinite(v);
export const DASH = '—';

export const num = (v, digits = 2) => (known(v) ? nf(digits).format(v) : DASH);
export const gb = (v) => (known(v) ? `${num(v, 2)} GB` : DASH);
export const pct = (v) => (known(v) ? `${num(v, 1)}%` : DASH);
export const signedPct = (v) => (known(v) ? `${v > 0 ? '+' : ''}${num(v, 1)}%` : DASH);
export const usd = (v) => (known(v) ? `${v < 0 ? '-' : ''}$${nf(2, 2).format(Math.abs(v))}` : DASH);
export const usdMonth = (v) => (known(v) ? `${usd(v)}/month` : DASH);
/** Hourly rates keep the catalog's 4 decimals. */
export const usdHour = (v) => (known(v) ? `$${nf(4, 2).format(v)}/h` : DASH);
export const ratio = (v) => (known(v) ? `${num(v, 2)}x` : DASH);
export const hours = (v) => (known(v) ? `${num(v, 1)} h` : DASH);
export const gpus = (v) => (known(v) ? `${num(v, 3)} GPU${v === 1 ? '' : 's'}` : DASH);
export const score = (v, unit) => (known(v) ? `${num(v, 1)} ${unit ?? ''}`.trim() : DASH);
export const label = (s) => String(s ?? '').replaceAll('_', ' ');
