// The page's CSV export: RFC 4180 quoting, and no cell a spreadsheet would run as a formula.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv, recordsData } from '../../web/app/table-export.js';

test('toCsv quotes commas, quotes and line breaks (RFC 4180)', () => {
  assert.equal(toCsv([['a,b', 'say "hi"', 'x\ny']]), '"a,b","say ""hi""","x\ny"\r\n');
});

test('toCsv neutralises formula-like text with an apostrophe, numbers stay numbers', () => {
  const row = ['=HYPERLINK("http://x")', '+cmd', '-2+3', '@SUM(A1)', '\tx', '-12.5', '+3', '42', '-', 'plain'];
  assert.equal(toCsv([row]), `"'=HYPERLINK(""http://x"")",'+cmd,'-2+3,'@SUM(A1),'\tx,-12.5,+3,42,-,plain\r\n`);
});

test('recordsData: one column per answer key (nested keys dotted), values as they are, absent and null empty', () => {
  const records = [
    { instance: 'a', instance_count: 2, cost: { usd_per_month: 1234.5, note: null }, reasons: ['x', 'y'], runs: true },
    { instance: 'b', instance_count: 1, cost: { usd_per_month: -1e-7 }, layout: [{ tp: 2 }] },
  ];
  const { head, rows } = recordsData(records);
  assert.deepEqual(head, ['instance', 'instance_count', 'cost.usd_per_month', 'cost.note', 'reasons', 'runs', 'layout']);
  assert.deepEqual(rows, [['a', 2, 1234.5, '', 'x; y', true, ''], ['b', 1, -1e-7, '', '', '', '[{"tp":2}]']]);
  assert.equal(toCsv([head, ...rows]).split('\r\n')[2], 'b,1,-1e-7,,,,"[{""tp"":2}]"', 'a negative number is not taken for a formula');
});
