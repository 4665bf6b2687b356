// The page's number formatting (web/app/format.js) prints what Intl.NumberFormat('en-US') prints:
// grouping, decimals, rounding, signs, for hand-picked edge cases and random values of every size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatNumber, num, usd, usdHour, compareNames } from '../../web/app/format.js';

const intl = (v, max, min = 0) => new Intl.NumberFormat('en-US', { maximumFractionDigits: max, minimumFractionDigits: min }).format(v);
const settings = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 2], [2, 2], [6, 0]];

test('edge cases print as Intl.NumberFormat prints them', () => {
  const values = [0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, 0.005, 0.015, 0.125, 999.995, 999.9951, 1000, 1234.5678,
    -1234.5678, 999999.999, 1e6, 123456789.123, 0.0001, -0.0001, 1e20, 9.99e20, 1e21, 1.5e25, -3e22, 72.5, 4673.25];
  for (const v of values) {
    for (const [max, min] of settings) assert.equal(formatNumber(v, max, min), intl(v, max, min), `${v} max ${max} min ${min}`);
  }
});

test('random values of every magnitude print as Intl.NumberFormat prints them', () => {
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 20000; i++) {
    const v = (random() - 0.3) * 10 ** Math.floor(random() * 16 - 5);
    const [max, min] = settings[i % settings.length];
    assert.equal(formatNumber(v, max, min), intl(v, max, min), `${v} max ${max} min ${min}`);
  }
});

test('the page formatters use it', () => {
  assert.equal(num(1234567.891, 1), '1,234,567.9');
  assert.equal(usd(-4673.25), '-$4,673.25');
  assert.equal(usdHour(6.4906), '$6.4906/h');
  assert.equal(usdHour(6.5), '$6.50/h');
});

test('names sort as Intl.Collator("en", {numeric: true}) sorts them', () => {
  const collator = new Intl.Collator('en', { numeric: true });
  const names = [];
  JSON.parse(readFileSync(new URL('../../config/model_config.json', import.meta.url), 'utf8'),
    (k, v) => { if (k === 'name' && typeof v === 'string') names.push(v); return v; });
  assert.ok(names.length > 10);
  assert.deepEqual([...names].sort(compareNames), [...names].sort(collator.compare));
  // Random names of letters in both cases, digits (no leading zeros: there the two may differ),
  // spaces and the punctuation of model names.
  const alphabet = 'aAbBzZ129 .-_()/';
  let seed = 7;
  const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let round = 0; round < 2000; round++) {
    const list = Array.from({ length: 6 }, () => Array.from({ length: 1 + random(7) }, () => alphabet[random(alphabet.length)]).join(''));
    assert.deepEqual([...list].sort(compareNames), [...list].sort(collator.compare), list.join(' | '));
  }
});
