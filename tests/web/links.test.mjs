// Every link key, restored by the page's own code (the workload form, every screen's controls, the
// earlier versions' links, ?view= and ?region=) on a stand-in DOM (dom-stand-in.mjs) with a
// stand-in catalog store that records the questions asked: a value that names a member every
// object inherits (constructor, __proto__, toString, ...) is only ever text, never a way into a
// prototype; a broken percent-escape in a list value marks that field, and the rest of the link
// still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { install } from './dom-stand-in.mjs';

install();
const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/app');
const { createForm } = await import('../../web/app/form.js');
const { createFitScreen } = await import('../../web/app/screens/fit.js');
const { createDeploymentsScreen } = await import('../../web/app/screens/deployments.js');
const { createCompareScreen } = await import('../../web/app/screens/compare.js');
const { createFleetScreen } = await import('../../web/app/screens/fleet.js');
const { createCatalogScreen } = await import('../../web/app/screens/catalog.js');
const { createAutoscaleScreen } = await import('../../web/app/screens/autoscale.js');
const { createSpotScreen } = await import('../../web/app/screens/spot.js');
const { createRegionsScreen } = await import('../../web/app/screens/regions.js');
const { createBatchScreen } = await import('../../web/app/screens/batch.js');
const { memoryRequest } = await import('../../web/app/screens/memory.js');
const { modelsFromParam } = await import('../../web/app/screens/placement.js');
const { fromOldLink } = await import('../../web/app/old-links.js');
const { OLD_VIEWS, isOldView, firstView } = await import('../../web/app/views.js');
const { regionWanted } = await import('../../web/app/catalog-store.js');
const { own, readItem, readList, linkNote } = await import('../../web/app/link.js');
const format = await import('../../web/app/format.js');

/** Names every object inherits (and `prototype`, which functions have). */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupSetter__', 'prototype'];

/** Each key the page reads from a link, with the other keys that make the page read it (an earlier
 *  version's key is read under its view; the memory settings on one GPU alone). */
const LINK_KEYS = {
  // The page
  view: [''], embed: [''], region: [''],
  // The workload form (Fit, Deployments, Compare)
  size: [''], params: [''], model: ['', 'instance=gpu:A10G'], workload: ['', 'instance=gpu:A10G&model=llama-3.1-8b'], precision: [''],
  input: [''], output: [''], rps: ['view=deployments'], ttft: [''], tpot: [''],
  tokens: ['workload=training'], epochs: ['workload=training'], deadline: ['workload=training'],
  instance: [''], gpus: [''], hours: [''], pricing: [''], spot: [''], share: ['pricing=mixed'],
  sched: [''], ha: ['sched=day'], hb: ['sched=day'],
  // Memory on one GPU alone (Fit)
  engine: ['instance=gpu:A10G&model=llama-3.1-8b'], batch: ['instance=gpu:A10G&model=llama-3.1-8b'], kv: ['instance=gpu:A10G&model=llama-3.1-8b'], seq: ['instance=gpu:A10G&model=llama-3.1-8b'],
  sharding: ['instance=gpu:A10G&model=llama-3.1-8b&workload=training'], optimizer: ['instance=gpu:A10G&model=llama-3.1-8b&workload=training'],
  rank: ['instance=gpu:A10G&model=llama-3.1-8b&workload=lora'], gc: ['instance=gpu:A10G&model=llama-3.1-8b&workload=training'], offload: ['instance=gpu:A10G&model=llama-3.1-8b&workload=training'],
  // Deployments and Compare
  priority: [''], providers: [''], kinds: [''], families: [''], budget: [''], preset: [''],
  // Fleet plan: the plan and the placement under it
  plan: ['view=plan'], models: [''], pack: [''], pack_pricing: [''], pack_spot: [''], pack_share: ['pack_pricing=mixed'],
  pack_sched: [''], pack_ha: ['pack_sched=day'], pack_hb: ['pack_sched=day'], pack_hours: [''],
  // Auto-scaling
  profile: ['view=autoscale'], policy: ['view=autoscale'], metric: ['view=autoscale'], traffic: ['view=autoscale'], peak: ['view=autoscale&traffic=flat'],
  commit: ['view=autoscale'], as_target: [''], as_min_replicas: [''], as_max_replicas: [''], as_control_period_s: [''],
  as_scale_up_delay_s: [''], as_scale_down_delay_s: [''], as_tolerance: [''], cs_provisioning_s: [''], cs_image_pull_s: [''],
  cs_weights_gb_per_s: [''], cs_warmup_s: [''],
  // Spot
  types: [''], regions: [''], target: [''], replace: [''], reading: [''], ckpt: [''], restart: [''],
  // Regions
  type: [''], candidates: [''], users: [''], geo: [''], allowed: [''], failover: [''], dataset: [''], dataset_from: [''],
  // Batch jobs
  job: ['view=batch'], job_tokens: ['view=batch'], job_deadline: ['view=batch'], trace_seed: ['view=batch'], traces: ['view=batch'],
  // Catalog
  section: [''], family: [''],
  // Earlier versions' links (old-links.js)
  format: ['view=memory'], context: ['view=memory', 'view=memory&mode=lora'], new: ['view=memory'], in: ['view=throughput'],
  out: ['view=throughput'], mode: ['view=memory'], phase: ['view=throughput'], gpu: ['view=memory'],
  tp: ['view=memory&gpu=A10G'], current: ['view=migrate'], id: ['view=workloads'], set: ['view=workloads'],
};
const LIST_KEYS = ['providers', 'kinds', 'families', 'models'];

/** A catalog store with one of everything, that records each question and refuses it. */
function standInStore() {
  const asked = [];
  const data = {
    tasks: ['inference', 'batch_inference', 'fine_tuning', 'lora', 'qlora', 'training'].map((key) => ({ key, name: key })),
    memory_menus: { weight_formats: ['fp16', 'int8'], engines: [{ key: 'vllm', name: 'vLLM' }], kv_cache_formats: ['fp16'], optimizers: ['adamw', 'adamw_8bit'] },
    pricing_modes: ['on_demand', 'spot', 'mixed'].map((key) => ({ key, name: key })), ways_to_pay: [],
    priorities: [{ key: 'cost', name: 'Cost' }], gpus: [{ key: 'A10G', capacity_gib: 22 }],
    concrete_models: [{ key: 'llama-3.1-8b', name: 'Llama 3.1 8B', parameters_billion: 8 }], provider_names: { aws: 'AWS' },
  };
  return {
    asked,
    state: { ok: true, data, catalog: {} },
    instances: [{ instance: 'g5.xlarge', family: 'G5', gpus: 1, gpu_type: 'A10G', accelerator_kind: 'gpu' }],
    providers: ['aws'], families: ['G5'], providerOf: () => 'aws',
    modelSizes: [{ size: 'small', name: 'Small', parameter_count_billion: 7 }],
    precisions: [{ key: 'fp16', name: 'FP16' }],
    workloadSets: { basic: ['chat'] },
    workloads: [{ id: 'chat', name: 'Chat', scenario: { model_size: 'small', workload_type: 'inference', precision: 'fp16', current_instance: 'g5.xlarge', current_gpu_count: 1 } }],
    texts: null, isShipped: true, lean: false, region: null,
    priceIndex: { providers: { aws: { default_region: 'us-east-1', regions: { 'us-east-1': { file: 'aws/us-east-1.json' } } } } },
    addEventListener() {},
    hasPrices: () => true,
    async loadPrices() {},
    async ask(request) {
      asked.push(request);
      return { ok: false, errors: [{ code: 'stand_in', file: 'request', path: '', message: 'recorded' }] };
    },
  };
}

/** The page opened at `search`, as page.js opens it: the link read (an earlier view's translated),
 *  the region looked up, the form and every screen restored from it and asked, and the link the
 *  page would write back. */
async function openPage(search) {
  const store = standInStore();
  let params = new URLSearchParams(search);
  if (isOldView(params.get('view'))) params = fromOldLink(params, OLD_VIEWS);
  const view = firstView(params.get('view'));
  const region = params.get('region') ? regionWanted(store.priceIndex, params.get('region')) : {};
  const form = createForm(() => {});
  form.fill(store);
  form.fromParams(params);
  const screens = [createFitScreen(store, form), createDeploymentsScreen(store, form), createCompareScreen(store, form),
    createFleetScreen(store), createAutoscaleScreen(store, form), createSpotScreen(store, form), createRegionsScreen(store, form), createCatalogScreen(store), createBatchScreen(store, form)];
  for (const screen of screens) {
    screen.fill(store);
    screen.fromParams(params);
  }
  for (const screen of screens) {
    if (screen.uses.length) {
      screen.formSlot.append(form.node);
      form.use(screen.uses);
    }
    await screen.render();
  }
  const back = new URLSearchParams();
  form.toParams(back);
  for (const screen of screens) screen.toParams(back);
  return { params, view, region, asked: store.asked, back, screens, form };
}

/** No function, no object of another prototype than a plain object's or an array's, and no text of
 *  one ('function Object() { [native code] }', '[object Object]') anywhere in a question. */
function assertPlainData(value, where) {
  if (typeof value === 'function') assert.fail(`${where}: a function`);
  if (typeof value === 'string') {
    assert.doesNotMatch(value, /native code|\[object |^function /, `${where}: a prototype member as text`);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const proto = Object.getPrototypeOf(value);
  assert.ok(proto === Object.prototype || proto === Array.prototype, `${where}: an object of another prototype`);
  for (const [k, v] of Object.entries(value)) assertPlainData(v, `${where}.${k}`);
}

/** Every question asked is plain data, and no screen failed inside (internal_error). */
function assertAnswered(page, search) {
  page.asked.forEach((request, i) => assertPlainData(request, `${search} question ${i}`));
  for (const screen of page.screens) {
    assert.doesNotMatch(screen.panel.textContent, /internal_error/, `${search}: ${screen.id} failed inside`);
  }
}

const hostile = (key, value) => `${key}=${encodeURIComponent(value)}`;

for (const [key, contexts] of Object.entries(LINK_KEYS)) {
  test(`link key ${key}: prototype names are only text`, async () => {
    for (const context of contexts) {
      for (const name of PROTOTYPE_NAMES) {
        const search = `?${[context, hostile(key, name)].filter(Boolean).join('&')}`;
        const page = await openPage(search);
        assert.ok(page.asked.length >= 5, `${search}: the screens asked (${page.asked.length})`);
        assertAnswered(page, search);
        assert.doesNotMatch(page.params.toString(), /native|%5Bobject|function/, `${search}: the link as read`);
        assert.doesNotMatch(page.back.toString(), /native|%5Bobject|function/, `${search}: the link written back`);
        if (key === 'view') assert.equal(page.view, 'fit');
        if (key === 'region') assert.equal(page.region, null, `${search}: no region is named ${name}`);
      }
    }
  });
  test(`link key ${key}: broken percent-escapes`, async () => {
    for (const context of contexts) {
      for (const raw of ['%', '%zz', '%E0%A4%A', 'a%2', '100%', '%%41']) {
        // Written into the link as they are: URLSearchParams keeps a broken escape as text.
        const search = `?${[context, `${key}=aws,${raw}`].filter(Boolean).join('&')}`;
        const page = await openPage(search);
        assert.ok(page.asked.length >= 5, `${search}: the rest of the link answers`);
        assertAnswered(page, search);
      }
    }
  });
}

/** The fieldset of a list key and the sentence beside it, where a broken escape marked it. */
function marked(page, key) {
  const fields = page.screens.flatMap((s) => [...s.panel.querySelectorAll('fieldset')]).filter((f) => f.id.startsWith(`link-${key}-`));
  return fields.map((f) => ({ invalid: f.getAttribute('aria-invalid'), note: f.querySelector('.field-error')?.textContent ?? '' }));
}

for (const key of LIST_KEYS) {
  test(`list key ${key}: a broken escape marks its field and the rest of the link answers`, async () => {
    const value = key === 'models' ? 'big%zz=10,ok%3D2' : 'aws,%zz,G5,gpu';
    const page = await openPage(`?${key}=${value}&priority=cost&pack=g5.xlarge&pack_pricing=spot&size=small&budget=900`);
    const fields = marked(page, key);
    assert.ok(fields.length >= 1, `${key} has its field`);
    for (const f of fields) {
      assert.equal(f.invalid, 'true', `${key}: the field is marked`);
      assert.match(f.note, new RegExp(`the link's ${key} value has a broken percent-escape in "${key === 'models' ? 'big%zz=10' : '%zz'}"`));
    }
    // The rest of the link answers: the questions carry its other values.
    const recommend = page.asked.find((r) => r.question === 'recommend');
    assert.equal(recommend.max_usd_per_month, 900);
    assert.deepEqual(recommend.model, { size: 'small' });
    const placement = page.asked.find((r) => r.question === 'placement');
    assert.equal(placement.instance, 'g5.xlarge');
    assert.equal(placement.pricing, 'spot');
    if (key === 'models') {
      assert.deepEqual(placement.models, [{ name: 'big%zz', memory_gb: 10 }, { name: 'ok', memory_gb: 2 }]);
    } else if (key !== 'kinds') {
      const asking = page.asked.filter((r) => r[key]);
      assert.ok(asking.length >= 1, `a question carries ${key}`);
      for (const r of asking) assert.ok(!r[key].includes('%zz'), `${key}: the broken item matches no box`);
    }
    // A well-formed link marks nothing.
    const clean = await openPage(`?${key}=${key === 'models' ? 'ok%3D2' : 'aws'}`);
    for (const f of marked(clean, key)) assert.equal(f.invalid, null);
  });
}

test('every key the page reads from a link is in this table', () => {
  const sources = [...readdirSync(app).filter((f) => f.endsWith('.js')).map((f) => path.join(app, f)),
    ...readdirSync(path.join(app, 'screens')).map((f) => path.join(app, 'screens', f))];
  const read = new Set();
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bp\.(?:get|has)\(\s*'([a-z_]+)'\)|\brename\('([a-z_]+)'/g)) read.add(m[1] ?? m[2]);
  }
  // The keys the controls read (key: ...) are written back by a page opened with all of them.
  const all = Object.keys(LINK_KEYS).filter((k) => !['view', 'embed', 'region', 'plan', 'model'].includes(k)).map((k) => `${k}=1`).join('&');
  return openPage(`?${all}&instance=gpu:A10G&model=llama-3.1-8b&workload=training&sched=day&pack_sched=day&pricing=mixed&pack_pricing=mixed`).then((page) => {
    for (const key of page.back.keys()) read.add(key);
    const missing = [...read].filter((k) => !Object.hasOwn(LINK_KEYS, k));
    assert.deepEqual(missing, [], 'keys the page reads that LINK_KEYS leaves out');
  });
});

test('own() answers a table\'s own keys only', () => {
  const table = { fit: 1, memory: 'fit' };
  for (const name of PROTOTYPE_NAMES) assert.equal(own(table, name), undefined, name);
  assert.equal(own(table, 'memory'), 'fit');
  assert.equal(own(table, 7), undefined);
  assert.equal(own(null, 'x'), undefined);
  assert.equal(own(Object.create(null, { x: { value: 1, enumerable: true } }), 'x'), 1);
});

test('the lookups that take a link value: views, earlier links, regions, memory modes, names', () => {
  for (const name of PROTOTYPE_NAMES) {
    assert.equal(isOldView(name), false, name);
    assert.equal(firstView(name), 'fit', name);
    const old = fromOldLink(new URLSearchParams({ view: 'memory', mode: name }), OLD_VIEWS);
    assert.equal(old.get('workload'), name);
    assert.equal(old.get('view'), 'fit');
    assert.equal(regionWanted({ providers: { aws: { regions: { 'us-east-1': {} } } } }, name), null, name);
    assert.equal(memoryRequest({ model: { size: 'small' }, workload: name, precision: 'fp16' }, {}).mode, name);
    assert.equal(format.provider(name), name.toUpperCase());
    assert.equal(format.gpus(2, name), '2 GPUs');
  }
  assert.deepEqual(regionWanted({ providers: { aws: { regions: { 'us-east-1': {} } } } }, 'us-east-1'), { aws: ['us-east-1'] });
  assert.equal(regionWanted({}, 'all'), 'all');
  assert.deepEqual(regionWanted({}, ''), {});
  // Each task's memory mode is the core's menus' (tests/wasm/menus.test.mjs); looked up by equality.
  const store = { state: { data: { tasks: [{ key: 'training', memory_mode: 'pretraining' }] } } };
  assert.equal(memoryRequest({ workload: 'training' }, {}, store).mode, 'pretraining');
  for (const name of PROTOTYPE_NAMES) assert.equal(memoryRequest({ workload: name }, {}, store).mode, name);
});

test('list values: broken escapes are kept as written and named', () => {
  assert.deepEqual(readList('aws,%zz,,gcp,100%'), { items: ['aws', '%zz', 'gcp', '100%'], broken: ['%zz', '100%'] });
  assert.deepEqual(readItem('a%2Cb', { decode: true }), { text: 'a,b', broken: false });
  assert.deepEqual(readItem('a%E0%A4%A', { decode: true }), { text: 'a%E0%A4%A', broken: true });
  const { models, broken } = modelsFromParam('big%zz=10,llama%3Ax:7:fp16:inference,%:%');
  assert.deepEqual(models.map((m) => m.name), ['big%zz', 'llama:x', '%']);
  assert.deepEqual(broken, ['big%zz=10', '%:%']);
  assert.deepEqual(linkNote('models', []), []);
  const [note] = linkNote('providers', ['%zz', 'a%', 'b%', 'c%'], {});
  assert.equal(note.path, '?providers');
  assert.match(note.message, /"%zz", "a%", "b%" and 1 more: left out/);
});
