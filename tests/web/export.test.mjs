// The page's CSV export: RFC 4180 quoting, and no cell a spreadsheet would run as a formula.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../web/app/table-export.js';

test('toCsv quotes commas, quotes and line breaks (RFC 4180)', () => {
  assert.equal(toCsv([['a,b', 'say "hi"', 'x\ny']]), '"a,b","say ""hi""","x\ny"\r\n');
});

test('toCsv neutralises formula-like text with an apostrophe, numbers stay numbers', () => {
  const row = ['=HYPERLINK("http://x")', '+cmd', '-2+3', '@SUM(A1)', '\tx', '-12.5', '+3', '42', '-', 'plain'];
  assert.equal(toCsv([row]), `"'=HYPERLINK(""http://x"")",'+cmd,'-2+3,'@SUM(A1),'\tx,-12.5,+3,42,-,plain\r\n`);
});
