// One unit rule in every view: sizes in GB (10^9 bytes), each labelled; GiB or MiB only beside
// such a figure as a named tool prints it (format.js toolSize, class "tool-size").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, assertNear, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

/** The view's answer and inputs, every text node: where GiB and MiB appear, and how many GB
 *  figures there are. Left out: quoted sources and the core's arithmetic of an engine (vLLM's KV
 *  pool, PyTorch's allocations: the memory model's bases and speed bases), which are in the GiB
 *  that engine logs, and are shown as written (a disclosure, a basis list or cell). */
const units = (page) => page.locator('[role=tabpanel]:not([hidden])').evaluate((panel) => {
  const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
  const binary = [];
  let gb = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('details, ul.basis, .basis-cell')) continue;
    if (/\d\s*GB\b/.test(n.data)) gb += 1;
    if (/\b[GM]iB\b/.test(n.data)) binary.push({ text: n.data, tool: n.parentElement.closest('.tool-size')?.textContent ?? null });
  }
  return { gb, binary };
});

const VIEWS = [
  ['Fit & memory on an instance', 'index.html?view=fit&model=llama-3.1-8b&instance=g6e.xlarge', 'fit'],
  ['Fit & memory on one GPU alone', 'index.html?view=fit&model=llama-3.1-8b&instance=gpu:A100-80GB', 'fit'],
  ['Deployments', 'index.html?view=deployments&model=llama-3.1-8b&rps=5', 'deployments'],
  ['Compare & migrate', 'index.html?view=compare&model=llama-3.1-8b&instance=p4d.24xlarge', 'compare'],
  ['Fleet plan', 'index.html?view=plan', 'placement'],
  ['Catalog', 'index.html?view=catalog', 'catalog'],
];
for (const [name, url, result] of VIEWS) {
  test(`${name}: sizes in GB; GiB and MiB only as a tool prints them, beside a GB figure`, async () => {
    const page = await env.page(url);
    await page.locator(`[data-testid="${result}-result"][data-state="ready"]`).first().waitFor();
    // What Fit asks when it comes near the screen.
    if (result === 'fit' && await page.getByTestId('fit-more').count()) {
      await page.getByTestId('fit-more').scrollIntoViewIfNeeded();
      await page.getByTestId('prec-chart').waitFor();
    }
    const { gb, binary } = await units(page);
    assert.ok(gb > 0, 'sizes in GB are shown');
    for (const b of binary) {
      assert.ok(b.tool, `"${b.text.trim()}" is not beside a tool's figure`);
      assert.match(b.tool, / [GM]iB (in|as) /, `"${b.tool}" names the tool`);
    }
  });
}

test('Fit: the memory per GPU, its lines and the deployment say the same figure in GB', async () => {
  const page = await env.page('index.html?view=fit&model=llama-3.1-8b&instance=g6e.xlarge');
  const request = JSON.parse(await text(page, 'fit-request'));
  const r = cli(request).result;
  const s = screen(page);
  assertNear(await text(s, 'fit-per-gpu-gb'), r.fit.per_gpu_gb, 0.005, 'per GPU');
  assertNear(await text(s, 'fit-capacity-gb'), r.fit.capacity_per_gpu_gb, 0.005, 'capacity');
  assert.match(await text(s, 'fit-dep-memory'), /^[\d.,]+ GB of [\d.,]+ GB \(/);
  assertNear(await text(s, 'fit-dep-memory'), r.deployment.memory_per_gpu_gb, 0.005, 'deployment memory per GPU');
  const lines = await s.getByTestId('fit-memory-lines').locator('tbody tr td.num').allTextContents();
  const sum = lines.reduce((t, x) => t + Number(x.replace(/,/g, '')), 0);
  assert.ok(Math.abs(sum - r.deployment.memory_per_gpu_gb) < 0.01 * lines.length + 0.01, `lines ${sum} GB against ${r.deployment.memory_per_gpu_gb} GB`);
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
