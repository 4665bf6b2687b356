// Number formatting: every number is shown with its unit.

const nf = (max, min = 0) => new Intl.NumberFormat('en-US', { maximumFractionDigits: max, minimumFractionDigits: min });
const NF = { 0: nf(0), 1: nf(1), 2: nf(2), 3: nf(3), 4: nf(4) };
const USD = nf(2, 2);

const known = (v) => typeof v === 'number' && Number.isFinite(v);
export const DASH = '—';

export const num = (v, digits = 2) => (known(v) ? NF[digits].format(v) : DASH);
export const gb = (v) => (known(v) ? `${num(v, 2)} GB` : DASH);
export const pct = (v) => (known(v) ? `${num(v, 1)}%` : DASH);
export const signedPct = (v) => (known(v) ? `${v > 0 ? '+' : ''}${num(v, 1)}%` : DASH);
export const usd = (v) => (known(v) ? `${v < 0 ? '-' : ''}$${USD.format(Math.abs(v))}` : DASH);
export const usdMonth = (v) => (known(v) ? `${usd(v)}/month` : DASH);
/** Hourly rates keep the catalog's 4 decimals. */
export const usdHour = (v) => (known(v) ? `$${nf(4, 2).format(v)}/h` : DASH);
export const ratio = (v) => (known(v) ? `${num(v, 2)}x` : DASH);
export const hours = (v) => (known(v) ? `${num(v, 1)} h` : DASH);
export const gpus = (v) => (known(v) ? `${num(v, 3)} GPU${v === 1 ? '' : 's'}` : DASH);
export const score = (v, unit) => (known(v) ? `${num(v, 1)} ${unit ?? ''}`.trim() : DASH);
export const label = (s) => String(s ?? '').replaceAll('_', ' ');
