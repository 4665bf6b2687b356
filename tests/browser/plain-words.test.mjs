// Plain language: what the page shows says things as people read them. Ways to pay, providers and
// suspect prices by name (never a key or an anomaly code), AWS's Neuron chips not counted as GPUs,
// no figure said twice, no field paths or file names as labels; each compared with the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const CODES = /spot_not_below_on_demand|cross_region_price|marked_anomaly|sentinel_price|implausible_gpu_count/;

/** What a screen's answer says, the request JSON blocks left out (they are JSON on purpose). */
const answerText = (page, id) => page.getByTestId(`${id}-result`).evaluate((n) => {
  const copy = n.cloneNode(true);
  copy.querySelectorAll('.request-json').forEach((x) => x.remove());
  return copy.textContent;
});

test('Deployments: a way to pay, its providers and suspect prices are named, never keyed; sentences start with a capital', async () => {
  const way = 'reserved_standard_1y_partial_upfront';
  const page = await env.page(`index.html?view=deployments&size=small&pricing=${way}`);
  const r = cli(JSON.parse(await text(page, 'rec-request'))).result;
  const shown = await answerText(page, 'deployments');
  assert.ok(!shown.includes(way), 'the way\'s key is not shown');
  assert.doesNotMatch(shown, CODES);
  // A GCP candidate priced on demand says whose way it is, as the CLI does.
  const gcp = r.candidates.find((c) => c.provider === 'gcp');
  assert.equal(gcp.cost.note, 'Standard Reserved Instance, 1 year, partial upfront is a way to pay at Amazon Web Services, not at Google Cloud; on-demand price used');
  assert.ok(shown.includes(gcp.cost.note));
  // Families left out for a suspect price say why in words.
  const suspect = r.excluded.filter((x) => /suspect price/.test(x.reason));
  assert.ok(suspect.length > 0);
  const excluded = await page.getByTestId('rec-excluded').innerText();
  for (const x of suspect) assert.ok(excluded.includes(x.reason), x.reason);
  assert.match(excluded, /a2-ultragpu-8g has a suspect price \(spot not below on-demand\)/);
  // "Ranking: lowest monthly cost first. Each family's ...": no sentence starts lower-case.
  const ranking = await text(page, 'rec-ranking');
  assert.equal(ranking, `Ranking: ${r.ranking}. ${r.pricing_note}.`);
  assert.doesNotMatch(ranking, /\. [a-z]/);
  // The providers to compare, by the catalog's names.
  const menus = cli({ question: 'catalog', section: 'menus' }).result;
  const labels = await screen(page).locator('label[for^=rec-provider-]').allTextContents();
  assert.deepEqual([...new Set(labels)].sort(), Object.values(menus.provider_names).sort());
});

test('no paragraph of an answer starts lower-case: the core\'s phrases shown on their own are sentences', async () => {
  for (const [link, id] of [['index.html?view=fit&size=small&instance=p5.48xlarge&pricing=reserved_1y&sched=day&ha=2&hb=5', 'fit'],
    ['index.html?view=deployments&size=small&pricing=reserved_1y', 'deployments'],
    ['index.html?view=compare&instance=p5.48xlarge&size=small', 'compare'],
    ['index.html?view=compare&preset=set:basic_demos', 'compare']]) {
    const page = await env.page(link);
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const lower = await page.getByTestId(`${id}-result`).locator('p').evaluateAll((ps) => ps
      // Sources are the catalog's own text; an instance or model name is written as it is named.
      .filter((p) => !p.closest('details.source, .commitments details, .sources, .request-json') && !p.matches('.verdict .muted'))
      .map((p) => p.textContent.trim()).filter((t) => /^[a-z]/.test(t) && !/^[a-z][\w-]*[\d.]/.test(t)));
    assert.deepEqual(lower, [], link);
    await page.close();
  }
  // What was lower-case: the migration's verdict, a cost note, the accelerator rules' source, a speed basis's lines.
  const page = await env.page('index.html?view=compare&instance=p5.48xlarge&size=small');
  const r = cli(JSON.parse(await page.getByTestId('mig-request').textContent())).result;
  assert.match(r.recommendation.summary, /^[a-z]/);
  assert.equal(await text(page, 'mig-summary'), r.recommendation.summary[0].toUpperCase() + r.recommendation.summary.slice(1));
});

test('Trainium and Inferentia are counted as chips, not GPUs, where the answer gives the kind', async () => {
  const page = await env.page('index.html?view=deployments&size=small&kinds=inferentia');
  const r = cli(JSON.parse(await text(page, 'rec-request'))).result;
  assert.ok(r.candidates.length > 0 && r.candidates.every((c) => c.accelerator_kind === 'inferentia'));
  const head = await page.getByTestId('rec-table').locator('thead th').allTextContents();
  assert.ok(head.includes('Memory per accelerator'), head.join(' | '));
  const row = await page.getByTestId('rec-row-0').innerText();
  assert.match(row, new RegExp(`${r.candidates[0].gpus} Inferentia chips?`));
  assert.doesNotMatch(row, /\bGPUs?\b/);
  assert.match(await page.getByTestId('rec-detail-0').innerText(), / GB per Inferentia chip of /);
  assert.match(await page.getByTestId('deployments-result').locator('.verdict').first().innerText(), /of Inferentia chip memory/);
  // A GPU-only table keeps its word.
  const gpus = await env.page('index.html?view=deployments&size=small&kinds=gpu');
  assert.ok((await gpus.getByTestId('rec-table').locator('thead th').allTextContents()).includes('Memory per GPU'));
  // Fit & memory on a Trainium instance: chips used, memory per chip.
  const fit = await env.page('index.html?view=fit&params=70&workload=fine_tuning&precision=bf16&instance=trn1.32xlarge');
  assert.equal(await text(fit, 'fit-gpus-used'), '16 Trainium chips');
  assert.match(await fit.locator('.per-gpu-line').innerText(), / per Trainium chip of /);
  assert.doesNotMatch(await text(fit, 'fit-refusal'), /GPU/);
});

test('providers are shown by the catalog\'s names, not upper-cased keys', async () => {
  const names = cli({ question: 'catalog', section: 'menus' }).result.provider_names;
  assert.equal(names.azure, 'Microsoft Azure');
  const page = await env.page('index.html?view=catalog');
  const column = (await page.getByTestId('cat-instances').locator('thead th').allTextContents()).indexOf('Provider');
  const cells = await page.getByTestId('cat-instances').locator(`tbody tr > :nth-child(${column + 1})`).allTextContents();
  assert.deepEqual([...new Set(cells)].sort(), Object.values(names).sort());
  const groups = await page.getByTestId('region').locator('optgroup').evaluateAll((gs) => gs.map((g) => g.label));
  assert.deepEqual(groups.sort(), Object.values(names).sort());
  const plan = await env.page('index.html?view=plan');
  const providers = await plan.getByTestId('plan-providers').locator('tbody th').allTextContents();
  assert.deepEqual(providers.sort(), Object.values(names).sort());
  assert.doesNotMatch(await plan.getByTestId('plan-workloads').innerText(), /\b(AWS|GCP|AZURE) /);
});

test('the cost block says each figure once: hours, a commitment\'s term in words, an undated source in one pair of brackets', async () => {
  const page = await env.page('index.html?view=fit&size=small&instance=p5.48xlarge&pricing=reserved_1y');
  const r = cli(JSON.parse(await text(page, 'fit-request'))).result;
  assert.equal(r.cost.schedule, '720 h/month');
  assert.equal(await text(page, 'fit-cost-hours'), '720 h/month', 'not "720 h (720 h/month)"');
  const ways = await page.locator('.commitments tbody tr > :first-child').allTextContents();
  assert.equal(ways.length, r.cost.commitments.length);
  for (const [i, c] of r.cost.commitments.entries()) {
    assert.match(c.term, /^\dy$/);
    assert.ok(ways[i].startsWith(`${c.name}, ${c.term[0]} year${c.term[0] === '1' ? '' : 's'}, `), ways[i]);
    assert.doesNotMatch(ways[i], /\b\dy\b/);
  }
  const source = await page.locator('details.source > summary').first().textContent();
  assert.match(source, /^Price and spec source \(undated: /);
  assert.doesNotMatch(source, /\([^()]*\(/, 'no brackets inside brackets');
  // The prices' age says what it means, not which file holds it.
  const age = page.getByTestId('prices-age');
  assert.equal(await age.textContent(), 'prices: date unknown');
  const title = await age.getAttribute('title');
  assert.match(title, /not known/);
  assert.doesNotMatch(title, /config\/|\.json/);
});

test('Catalog: warnings are named in words with no field path as their label; the catalog\'s own notes stay its own', async () => {
  const v = cli({ question: 'validate' }).result;
  const page = await env.page('index.html?view=catalog');
  // The page prices the usual regions; the CLI reads every region's file: each warning shown is one of the CLI's.
  const shown = await page.getByTestId('val-warnings').locator('li').evaluateAll((ls) => ls.map((l) => ({
    name: l.querySelector('[data-testid=val-warning-name]').textContent, text: l.textContent })));
  assert.ok(shown.length > 0);
  for (const s of shown) {
    const w = v.warnings.find((x) => s.text.includes(x.message) && s.text.includes(x.file));
    assert.ok(w, s.text);
    assert.equal(s.name, w.name[0].toUpperCase() + w.name.slice(1));
    assert.doesNotMatch(s.text, CODES);
    assert.ok(!s.text.includes(w.path), `no JSON path: ${s.text}`);
  }
  // Counts in words.
  const counted = await page.locator('[data-testid^=val-count-]').evaluateAll((ns) => ns.map((n) => n.previousElementSibling?.textContent ?? ''));
  assert.ok(counted.length >= 7 && counted.every((l) => !l.includes('_') && /^[A-Z]/.test(l)), counted.join(' | '));
  // Providers and usual regions from the provider terms; the catalog's own words in its notes.
  const all2 = cli({ question: 'catalog', section: 'all' }).result;
  assert.equal(await text(page, 'cat-providers'), Object.entries(all2.providers).map(([, p]) => `${p.name} (${p.region})`).join(', '));
  const labels = await page.locator('.card dl dt').allTextContents();
  assert.ok(!labels.some((l) => /provider and region/i.test(l)));
  const dds = await page.locator('.card dl dd').allTextContents();
  assert.ok(!dds.some((d) => d.includes('providers.<provider>')), 'no field path as a value of a label');
  assert.match(await page.getByTestId('cat-own-notes').textContent(), new RegExp(all2.info.region.replace(/[.*+?^${}()|[\]\\<>]/g, '\\$&')));
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
