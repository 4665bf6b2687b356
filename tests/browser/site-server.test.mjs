// The site as served (scripts/site-server.mjs): each file's zopfli-compressed copy from staging to
// browsers that accept gzip, the file itself to others, and nothing else.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, acceptsGzip, SITE_DIR } from '../../scripts/site-server.mjs';
import { setup } from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.close(); });

async function get(rel, headers = {}) {
  // fetch() would decode the body itself: the raw bytes and headers come through node:http.
  const { default: http } = await import('node:http');
  return new Promise((resolve, reject) => {
    http.get(`${server.origin}/${rel}`, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

function stagedFiles(dir = SITE_DIR) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? stagedFiles(full) : [full];
  });
}

test('every staged page file has a gzip copy that decompresses to it, smaller than gzip -9', () => {
  const compressible = stagedFiles().filter((f) => /\.(html|js|mjs|css|json|wasm|pack|ts)$/.test(f));
  assert.ok(compressible.length > 50, `the site holds its files (${compressible.length})`);
  for (const file of compressible) {
    const raw = fs.readFileSync(file);
    const gz = fs.readFileSync(`${file}.gz`);
    assert.deepEqual(zlib.gunzipSync(gz), raw, `${path.relative(SITE_DIR, file)}.gz holds the file`);
    if (raw.length > 4096) {
      assert.ok(gz.length < zlib.gzipSync(raw, { level: 9 }).length, `${path.relative(SITE_DIR, file)}: zopfli beats gzip -9`);
    }
  }
});

test('Accept-Encoding: gzip or * with a q above 0 accepts gzip', () => {
  assert.equal(acceptsGzip('gzip, deflate, br'), true);
  assert.equal(acceptsGzip('br;q=1.0, GZIP;q=0.5'), true);
  assert.equal(acceptsGzip('*'), true);
  assert.equal(acceptsGzip('gzip;q=0'), false);
  assert.equal(acceptsGzip('gzip;q=0.000, *;q=0'), false);
  assert.equal(acceptsGzip('deflate, br'), false);
  assert.equal(acceptsGzip(undefined), false);
  assert.equal(acceptsGzip('x-gzip-like'), false);
});

test('a browser that accepts gzip gets the compressed copy, with the file\'s own type', async () => {
  const rel = 'gpufleet/gpufleet_core.wasm';
  const res = await get(rel, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-encoding'], 'gzip');
  assert.equal(res.headers['content-type'], 'application/wasm');
  assert.equal(res.headers.vary, 'accept-encoding');
  assert.equal(Number(res.headers['content-length']), fs.statSync(path.join(SITE_DIR, `${rel}.gz`)).size);
  assert.deepEqual(zlib.gunzipSync(res.body), fs.readFileSync(path.join(SITE_DIR, rel)));
});

test('a client without gzip gets the file as staged; .gz paths and files outside the site are not served', async () => {
  const plain = await get('index.html');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(plain.body, fs.readFileSync(path.join(SITE_DIR, 'index.html')));
  assert.equal((await get('index.html.gz', { 'accept-encoding': 'gzip' })).status, 404);
  assert.equal((await get('..%2FCMakeLists.txt', { 'accept-encoding': 'gzip' })).status, 404);
  // A NUL byte in the path is no file (and does not stop the server).
  assert.equal((await get('%00.html')).status, 404);
  assert.equal((await get('index.html')).status, 200);
  // gzip refused with q=0 is not sent.
  const refused = await get('index.html', { 'accept-encoding': 'gzip;q=0, identity' });
  assert.equal(refused.headers['content-encoding'], undefined);
  assert.deepEqual(refused.body, fs.readFileSync(path.join(SITE_DIR, 'index.html')));
  // A file without a compressed copy is sent as it is, even to a browser that accepts gzip.
  const dir = fs.mkdtempSync(path.join(SITE_DIR, '..', 'site-server-test-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<p>plain</p>');
  const other = await startServer(dir);
  try {
    const res = await fetch(`${other.origin}/`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.headers.get('content-encoding'), null);
    assert.equal(await res.text(), '<p>plain</p>');
  } finally {
    await other.close();
    fs.rmSync(dir, { recursive: true });
  }
});

test('the page in Chromium receives its module and catalogs compressed and answers', async () => {
  const env = await setup();
  try {
    const page = await env.page('index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1');
    await page.getByTestId('fit-per-gpu-gb').waitFor();
    const entries = await page.evaluate(() => performance.getEntriesByType('resource')
      .map((e) => ({ path: new URL(e.name).pathname, encoded: e.encodedBodySize, decoded: e.decodedBodySize })));
    env.checkClean();
    for (const rel of ['/gpufleet/gpufleet_core.wasm', '/config/page/catalog.pack']) {
      const e = entries.find((x) => x.path === rel);
      assert.ok(e, `the page loaded ${rel}`);
      assert.equal(e.decoded, fs.statSync(path.join(SITE_DIR, rel)).size);
      assert.equal(e.encoded, fs.statSync(path.join(SITE_DIR, `${rel}.gz`)).size, `${rel} arrived as its gzip copy`);
    }
  } finally {
    await env.close();
  }
});
