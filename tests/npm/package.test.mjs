// The npm package as a user gets it: scripts/pack-npm.sh builds it, `npm pack` packs it, a scratch
// project installs the tarball offline and answers a question from Node through the `node` entry
// and gpufleet/catalog; the browser entry bundles with esbuild, Vite and webpack without
// configuration (webpack's bundle, and esbuild's with the .wasm copied beside it as the README says,
// also answer in Chromium);
// the typings declare what the code exports, and `tsc` refuses a misspelled question, field or
// result key, of every question.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npmDir = path.join(process.env.WASM_BUILD_DIR ?? path.join(root, 'build-wasm'), 'npm');
const pkgDir = path.join(npmDir, 'package');
let tmp;
let project;
let tarball;

before(() => {
  if (!fs.existsSync(path.join(pkgDir, 'package.json'))) {
    execFileSync(path.join(root, 'scripts/pack-npm.sh'), { stdio: 'inherit' });
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-npm-'));
  const out = execFileSync('npm', ['pack', pkgDir, '--pack-destination', tmp, '--json'], { encoding: 'utf8' });
  tarball = path.join(tmp, JSON.parse(out)[0].filename);
  project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
});
after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

const run = (file, source) => {
  fs.writeFileSync(path.join(project, file), source);
  return execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8' });
};

test('the tarball holds the module, the .wasm beside it, typings, catalogs and README; nothing else', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/gpufleet/package.json'), 'utf8'));
  assert.equal(manifest.name, 'gpufleet');
  assert.equal(manifest.type, 'module');
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.ok(manifest.exports['.'].node && manifest.exports['.'].default && manifest.exports['./catalog']);
  const files = fs.readdirSync(path.join(project, 'node_modules/gpufleet')).sort();
  assert.deepEqual(files, ['LICENSE', 'README.md', 'catalog.d.ts', 'catalog.js', 'gpufleet_core.mjs', 'gpufleet_core.wasm',
    'index.d.ts', 'index.js', 'node.js', 'package.json', 'requests.d.ts']);
  // The README's example is the one the next test runs.
  assert.match(fs.readFileSync(path.join(project, 'node_modules/gpufleet/README.md'), 'utf8'), /import catalog from 'gpufleet\/catalog'/);
});

test('the package is MIT-licensed with the repository\'s LICENSE; repository and homepage only as public https addresses', () => {
  const dir = path.join(project, 'node_modules/gpufleet');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const license = fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8');
  assert.equal(manifest.license, 'MIT');
  assert.equal(license, fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'), 'the repository\'s LICENSE, as it is');
  assert.match(license, /^MIT License\n\nCopyright \(c\) the gpufleet authors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
  // The repository has no public address yet: the fields are left out rather than invented, and
  // appear as given once the repository's package.json names them.
  const repo = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.equal(repo.license, manifest.license, 'one license for the repository and the package');
  assert.deepEqual(manifest.repository, repo.repository);
  assert.equal(manifest.homepage, repo.homepage);
  const url = (u) => /^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//i.test(u) && !/example\.(com|org)/.test(u);
  if (manifest.repository) assert.ok(url(manifest.repository.url ?? manifest.repository), 'a public https repository');
  if (manifest.homepage) assert.ok(url(manifest.homepage), 'a public https homepage');
  assert.ok(!JSON.stringify(manifest).includes(root) && !/"\/(work|home|tmp|root)\//.test(JSON.stringify(manifest)), 'no path of this machine');
});

test('installed offline, it answers from Node without configuration (the README example)', () => {
  const out = run('readme.mjs', `import { loadGpufleet } from 'gpufleet';
import catalog from 'gpufleet/catalog';
const gpufleet = await loadGpufleet();
const analyzer = gpufleet.createAnalyzer(catalog);
console.log(analyzer.analyze({ question: 'cost', instance: 'P5', gpus: 8 }).cost.usd_per_hour);
`);
  // The same answer as the repository's core with the same catalogs (tests/cases/cost_p5_spot).
  const expected = JSON.parse(fs.readFileSync(path.join(root, 'tests/cases/cost_p5_spot.expected.json'), 'utf8'));
  assert.equal(Number(out.trim()), expected.result.cost.on_demand_usd_per_hour);
});

test('errors are GpufleetError; gpufleet/catalog holds each provider\'s default-region prices, and another region is refused', () => {
  const out = run('errors.mjs', `import { loadGpufleet, GpufleetError } from 'gpufleet';
import { gpuInstances, modelConfig, workloads, priceFiles } from 'gpufleet/catalog';
const gpufleet = await loadGpufleet();
const analyzer = gpufleet.createAnalyzer({ gpuInstances, modelConfig, workloads, priceFiles });
let error;
try { analyzer.analyze({ question: 'cost', instance: 'P99', gpus: 1 }); } catch (e) { error = e; }
const other = analyzer.ask({ question: 'cost', instance: 'P5', gpus: 8, region: 'eu-west-1' });
console.log(JSON.stringify({ isError: error instanceof GpufleetError, code: error.code, path: error.path,
  names: priceFiles.map((p) => p.name), otherRegion: other.ok ? 'ok' : other.errors[0].code }));
analyzer.dispose();
`);
  const got = JSON.parse(out);
  assert.deepEqual([got.isError, got.code, got.path], [true, 'unknown_name', '/instance']);
  const index = JSON.parse(fs.readFileSync(path.join(root, 'config/prices/index.json'), 'utf8'));
  assert.deepEqual(got.names.sort(), Object.entries(index.providers).map(([p, v]) => `prices/${p}/${v.default_region}.json`).sort());
  // Only the default regions ship in gpufleet/catalog: another region is refused, naming those loaded.
  assert.equal(got.otherRegion, 'unknown_name');
});

test('the browser entry bundles for the browser without Node built-ins and finds the .wasm by import.meta.url', () => {
  const esbuild = path.join(root, 'node_modules/.bin/esbuild');
  if (!fs.existsSync(esbuild)) return;
  fs.writeFileSync(path.join(project, 'web.mjs'), "import { loadGpufleet } from 'gpufleet';\nexport default loadGpufleet;\n");
  const bundle = execFileSync(esbuild, ['web.mjs', '--bundle', '--format=esm', '--platform=browser', '--log-level=error'], { cwd: project, encoding: 'utf8' });
  assert.doesNotMatch(bundle, /node:fs/);
  assert.match(bundle, /new URL\("gpufleet_core\.wasm", import\.meta\.url\)/);
});

test('the typings declare what the code exports (and no locateFile it would ignore)', async () => {
  const dir = path.join(project, 'node_modules/gpufleet');
  const dts = fs.readFileSync(path.join(dir, 'index.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/^export (?:class|function|const) (\w+)/gm)].map((m) => m[1]).sort();
  for (const entry of ['index.js', 'node.js']) {
    const module = await import(path.join(dir, entry));
    assert.deepEqual(Object.keys(module).sort(), declared, entry);
  }
  assert.doesNotMatch(dts, /locateFile/);
  const catalogDts = fs.readFileSync(path.join(dir, 'catalog.d.ts'), 'utf8');
  const catalog = await import(path.join(dir, 'catalog.js'));
  const catalogDeclared = [...catalogDts.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual(Object.keys(catalog).filter((k) => k !== 'default').sort(), catalogDeclared.sort());
  assert.deepEqual(Object.keys(catalog.default).sort(), catalogDeclared.sort());
});

const tool = (name) => path.join(root, 'node_modules/.bin', name);

// tsc over one file of the scratch project; its diagnostics ('' when it type-checks).
function typeCheck(file, source) {
  fs.writeFileSync(path.join(project, file), source);
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: false },
    files: [file],
  }));
  try {
    execFileSync(tool('tsc'), ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}

const asking = (request) => `import { loadGpufleet, type Request } from 'gpufleet';
import catalog from 'gpufleet/catalog';
const analyzer = (await loadGpufleet()).createAnalyzer(catalog);
const request: Request = ${request};
const response = analyzer.ask(request);
if (response.ok) console.log(response.question, response.catalog.version);
export {};
`;

test('the typings are the request schema: tsc accepts a valid request and refuses a misspelled question or field', () => {
  assert.equal(typeCheck('good.ts', asking("{ question: 'fit', model: { name: 'llama-3.1-8b' }, workload: 'inference', precision: 'bf16', instance: 'g6e.xlarge' }")), '');
  assert.equal(typeCheck('cost.ts', asking("{ question: 'cost', instance: 'P5', gpus: 8, pricing: 'reserved_1y' }")), '');
  const question = typeCheck('question.ts', asking("{ question: 'fitt', model: { size: 'small' }, workload: 'inference', instance: 'P5' }"));
  assert.match(question, /error TS\d+/);
  assert.match(question, /fitt/);
  const field = typeCheck('field.ts', asking("{ question: 'cost', instance: 'P5', gpu: 8 }"));
  assert.match(field, /error TS\d+/);
  assert.match(field, /'gpu'/);
  const value = typeCheck('value.ts', asking("{ question: 'fit', model: { size: 'small' }, workload: 'inferencing', instance: 'P5' }"));
  assert.match(value, /inferencing/);
  const nested = typeCheck('nested.ts', asking("{ question: 'fit', model: { nmae: 'llama-3.1-8b' }, workload: 'inference', instance: 'P5' }"));
  assert.match(nested, /'nmae'/);
});

const answering = (body) => `import { loadGpufleet, type Request } from 'gpufleet';
import catalog from 'gpufleet/catalog';
const analyzer = (await loadGpufleet()).createAnalyzer(catalog);
const fit = analyzer.analyze({ question: 'fit', model: { name: 'llama-3.1-8b' }, workload: 'inference', precision: 'bf16', instance: 'g6e.xlarge' });
const either = (request: Request) => analyzer.ask(request);
${body}
export {};
`;

test('the typings are the response schema: a result key the core writes type-checks, a misspelled one fails tsc', () => {
  assert.equal(typeCheck('result.ts', answering(`const gb: number = fit.deployment.memory_per_gpu_gb;
const status: string = fit.status;
const r = either({ question: 'cost', instance: 'P5', gpus: 8 });
if (r.ok && r.question === 'cost') console.log(r.result.cost.usd_per_hour ?? 0, r.result.placement.instance);
console.log(gb, status);`)), '');
  const key = typeCheck('key.ts', answering('console.log(fit.deployment.memory_per_gpu_gbb);'));
  assert.match(key, /error TS\d+/);
  assert.match(key, /memory_per_gpu_gbb/);
  const top = typeCheck('top.ts', answering('console.log(fit.deploymnet);'));
  assert.match(top, /deploymnet/);
  // Told apart by the question: a cost answer has no deployment.
  const other = typeCheck('other.ts', answering(`const r = either({ question: 'cost', instance: 'P5', gpus: 8 });
if (r.ok && r.question === 'cost') console.log(r.result.deployment);`));
  assert.match(other, /'deployment'/);
  // A misspelled field of a request written in the call is refused there too.
  const field = typeCheck('inline.ts', answering("analyzer.analyze({ question: 'cost', instance: 'P5', gpu: 8 });"));
  assert.match(field, /'gpu'/);
});

// Each question's result as the response schema has it: its members type-check and each one
// misspelled fails tsc, for every question (the result table closes every result).
test('every question\'s result is typed: its members type-check, each misspelled fails tsc', () => {
  const response = JSON.parse(fs.readFileSync(path.join(root, 'config/schemas/response.schema.json'), 'utf8'));
  const questions = response.oneOf.find((b) => b.properties.ok.const === true).properties.question.enum;
  const members = questions.map((q) => [q, Object.keys(response.$defs[`${q}_result`].properties)]);
  const source = (name) => `import type { Results } from 'gpufleet';
declare const r: Results;
${members.map(([q, keys]) => keys.map((k) => `console.log(r.${q}.${name(k)});`).join('\n')).join('\n')}
export {};
`;
  assert.equal(members.length, questions.length);
  assert.equal(typeCheck('members.ts', source((k) => k)), '');
  const wrong = typeCheck('misspelled.ts', source((k) => `${k}_x`));
  for (const [q, keys] of members) {
    for (const k of keys) assert.match(wrong, new RegExp(`'${k}_x' does not exist on type '${q.replace(/(^|_)(\w)/g, (_, __, c) => c.toUpperCase())}Result'`), `${q}.${k}_x`);
  }
});

test('Vite builds a page that imports the package, with no configuration, offline: the .wasm is emitted and referenced', () => {
  const app = path.join(project, 'vite-app');
  fs.mkdirSync(app, { recursive: true });
  fs.writeFileSync(path.join(app, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
  fs.writeFileSync(path.join(app, 'main.js'), "import { loadGpufleet } from 'gpufleet';\nloadGpufleet().then((g) => console.log(g.memoryBytes()));\n");
  execFileSync(tool('vite'), ['build', '--logLevel', 'error'], { cwd: app, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true' } });
  const assets = fs.readdirSync(path.join(app, 'dist/assets'));
  const wasm = assets.find((f) => /^gpufleet_core-.*\.wasm$/.test(f));
  assert.ok(wasm, `the module is emitted as an asset: ${assets.join(', ')}`);
  const js = assets.filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(app, 'dist/assets', f), 'utf8')).join('\n');
  assert.ok(js.includes(wasm), 'the bundle refers to the emitted .wasm');
  assert.doesNotMatch(js, /node:fs/);
});

// A page of `dist` that loads the bundle (`script`) in Chromium: it fetches the .wasm beside it and
// answers as Node does (its title: P5's on-demand $/h, tests/cases/cost_p5_spot).
async function answersInBrowser(dist, script) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) return;
  fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>loading</title>${script}\n`);
  const { chromium: browserType } = await import('playwright-core');
  const { startServer } = await import('../../scripts/site-server.mjs');
  const server = await startServer(dist);
  const browser = await browserType.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => document.title !== 'loading', null, { timeout: 30000 });
    const expected = JSON.parse(fs.readFileSync(path.join(root, 'tests/cases/cost_p5_spot.expected.json'), 'utf8'));
    assert.equal(Number(await page.title()), expected.result.cost.on_demand_usd_per_hour);
  } finally {
    await browser.close();
    await server.close();
  }
}

const pageSource = `import { loadGpufleet } from 'gpufleet';
import catalog from 'gpufleet/catalog';
loadGpufleet().then((g) => {
  const answer = g.createAnalyzer(catalog).analyze({ question: 'cost', instance: 'P5', gpus: 8 });
  document.title = String(answer.cost.on_demand_usd_per_hour);
});
`;

test('esbuild bundles a page that imports the package; with the .wasm copied beside it (the README\'s one line), the page answers in a browser', async () => {
  const esbuild = path.join(root, 'node_modules/.bin/esbuild');
  if (!fs.existsSync(esbuild)) return;
  // In the project (where node_modules is), as the README's line reads: dist/ beside it.
  const dist = path.join(project, 'dist');
  fs.writeFileSync(path.join(project, 'page.js'), pageSource);
  execFileSync(esbuild, ['page.js', '--bundle', '--format=esm', '--platform=browser', '--outfile=dist/main.js', '--log-level=error'], { cwd: project, stdio: 'pipe' });
  const readme = fs.readFileSync(path.join(project, 'node_modules/gpufleet/README.md'), 'utf8');
  const line = readme.match(/`(cp node_modules\/gpufleet\/gpufleet_core\.wasm dist\/)`/);
  assert.ok(line, 'the README says how to put the .wasm beside an esbuild bundle');
  execFileSync('sh', ['-c', line[1]], { cwd: project, stdio: 'pipe' });
  await answersInBrowser(dist, '<script type="module" src="main.js"></script>');
});

test('webpack builds a page that imports the package, with no configuration, offline: the .wasm is emitted, and the page answers in a browser', async () => {
  const app = path.join(project, 'webpack-app');
  fs.mkdirSync(path.join(app, 'src'), { recursive: true });
  // webpack's defaults: src/index.js in, dist/main.js out (production mode).
  fs.writeFileSync(path.join(app, 'src/index.js'), pageSource);
  execFileSync(tool('webpack'), ['--no-stats'], { cwd: app, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true' } });
  const dist = path.join(app, 'dist');
  const emitted = fs.readdirSync(dist);
  const wasm = emitted.find((f) => f.endsWith('.wasm'));
  assert.ok(wasm, `the module is emitted as an asset: ${emitted.join(', ')}`);
  assert.deepEqual(fs.readFileSync(path.join(dist, wasm)), fs.readFileSync(path.join(project, 'node_modules/gpufleet/gpufleet_core.wasm')));
  const js = fs.readFileSync(path.join(dist, 'main.js'), 'utf8');
  assert.ok(js.includes(wasm), 'the bundle refers to the emitted .wasm');
  assert.doesNotMatch(js, /node:fs/);
  await answersInBrowser(dist, '<script src="main.js"></script>');
});
