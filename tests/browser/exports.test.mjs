// The page's CSV and JSON downloads are the answer's data: read back with a CSV parser (csv-parse,
// independent of the page's writer), every column is a key of the CLI's --json answer to the same
// request and every numeric cell parses as the number that answer holds (Fit, Recommend, Memory).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { setup, openData, cli, downloadOf, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

/** The value at a dotted column name ("cost.usd_per_month") of an answer record. */
const at = (record, column) => column.split('.').reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), record);

/** Downloads a table's CSV (its buttons may sit in a closed <details>) and parses it to objects. */
async function csvOf(page, testid) {
  await openData(page, testid);
  const button = screen(page).getByTestId(`${testid}-csv`);
  await button.evaluate((b) => { const d = b.closest('details'); if (d) d.open = true; });
  const { name, text } = await downloadOf(page, () => button.click());
  assert.match(name, /\.csv$/);
  assert.ok(text.endsWith('\r\n'), 'CRLF line ends');
  return parse(text, { columns: true, record_delimiter: '\r\n' });
}

/** Each CSV row against the answer record it exports (matched by `key`, or in order): every
 *  column names a field of the record, a number is that number, a plain value its text. */
function assertRows(rows, records, key) {
  assert.equal(rows.length, records.length, 'one row per answer record');
  let numbers = 0;
  rows.forEach((row, i) => {
    const record = key ? records.find((r) => String(at(r, key)) === row[key]) : records[i];
    assert.ok(record, `row ${i}: its record in the answer`);
    for (const [column, cell] of Object.entries(row)) {
      const v = at(record, column);
      if (typeof v === 'number') {
        assert.ok(cell !== '' && Number.isFinite(Number(cell)), `row ${i} ${column}: "${cell}" is a number`);
        assert.equal(Number(cell), v, `row ${i} ${column}`);
        numbers += 1;
      } else if (v === null || v === undefined) assert.equal(cell, '', `row ${i} ${column}: null or absent is an empty cell`);
      else if (Array.isArray(v)) assert.ok(cell.length > 0 || v.length === 0, `row ${i} ${column}`);
      else assert.equal(cell, String(v), `row ${i} ${column}`);
    }
  });
  assert.ok(numbers >= rows.length, 'numeric cells were compared');
}

test('export: Recommend candidates as CSV are the answer\'s candidates, numbers unformatted; JSON is the answer', async () => {
  const request = { question: 'recommend', model: { size: 'small' }, workload: 'inference', precision: 'fp16', priority: 'cost', use_spot: false, hours_per_month: 720 };
  const page = await env.page('index.html?view=recommend&size=small&workload=inference&precision=fp16&priority=cost');
  const expected = cli(request).result.candidates;
  const rows = await csvOf(page, 'rec-table');
  for (const column of ['instance', 'instance_count', 'memory_per_gpu_gb', 'usd_per_month', 'cost.usd_per_month', 'layout.tensor_parallel']) {
    assert.ok(column in rows[0], `column ${column}`);
  }
  assertRows(rows, expected);
  assert.ok(rows.every((r) => /^\d+$/.test(r.instance_count)), 'counts are integers');
  const json = await downloadOf(page, () => screen(page).getByTestId('rec-table-json').click());
  assert.deepEqual(JSON.parse(json.text), expected);
});

test('export: Fit memory lines as CSV are the answer\'s per-GPU memory lines', async () => {
  const request = { question: 'fit', model: { size: 'medium' }, workload: 'training', precision: 'bf16', instance: 'p5.48xlarge', gpus: 4, hours_per_month: 720, use_spot: false };
  const page = await env.page('index.html?view=fit&size=medium&workload=training&precision=bf16&instance=p5.48xlarge&gpus=4');
  const expected = cli(request).result.memory.per_gpu;
  const rows = await csvOf(page, 'fit-chart-data');
  assert.deepEqual(Object.keys(rows[0]), Object.keys(expected[0]));
  assertRows(rows, expected);
});

test('export: Memory breakdown and "GPUs that hold it" as CSV are the memory answer\'s lines and GPUs', async () => {
  const request = { question: 'memory', model: { name: 'llama-3-8b' }, mode: 'inference', weight_format: 'bf16', gpu: 'A100-40GB', context: 8192 };
  const page = await env.page('index.html?view=fit&model=llama-3-8b&precision=bf16&input=8192&instance=gpu:A100-40GB');
  const r = cli(request).result;
  const lines = await csvOf(page, 'mem-breakdown');
  assert.ok(['key', 'gib', 'bytes'].every((c) => c in lines[0]), 'unit in the column names');
  assertRows(lines, r.per_gpu);
  const gpus = await csvOf(page, 'mem-gpu-table');
  assert.deepEqual(Object.keys(gpus[0]), ['gpu', 'capacity_gib', 'used_gib', 'fits']);
  assertRows(gpus, r.gpus, 'gpu');
});

test('export: Spot pools as CSV are the spot answer\'s pools (the request the page sent, asked of the CLI)', async () => {
  const page = await env.page('index.html?view=spot&model=llama-3.1-8b&rps=20&types=g5.xlarge,g6.xlarge&regions=us-east-1,us-east-2,us-west-2');
  await screen(page).getByTestId('spot-pools').waitFor();
  const request = JSON.parse(await screen(page).getByTestId('spot-request').textContent());
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const rows = await csvOf(page, 'spot-pools');
  assert.ok(rows.length >= 2);
  assertRows(rows, expected.result.pools);
});
