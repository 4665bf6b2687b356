// The site as served (scripts/site-server.mjs): each file's brotli copy from staging to browsers
// that accept brotli, its zopfli copy to those that accept gzip only, the file itself to others, and nothing else; a file that cannot be
// opened or read answers for its request only. The staged site's tests need scripts/stage-site.sh
// (and Chromium for the last); those of files that cannot be read make a site of their own.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { startServer, accepts, statusOf, SITE_DIR } from '../../scripts/site-server.mjs';
import { setup } from './helpers.mjs';

let server;

/** A GET through node:http (fetch() would decode the body itself): status, headers, raw bytes, and
 *  whether the answer was cut short. */
async function get(rel, headers = {}, origin = server.origin) {
  return new Promise((resolve, reject) => {
    http.get(`${origin}/${rel}`, { headers }, (res) => {
      const chunks = [];
      const done = (cut) => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), cut });
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done(!res.complete));
      res.on('aborted', () => done(true));
      res.on('error', () => done(true));
    }).on('error', reject);
  });
}

describe('the staged site', () => {
  before(async () => { server = await startServer(); });
  after(async () => { await server?.close(); });

  function stagedFiles(dir = SITE_DIR) {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? stagedFiles(full) : [full];
    });
  }

  test('every staged page file has a gzip and a brotli copy that decompress to it, smaller than gzip -9', () => {
    const compressible = stagedFiles().filter((f) => /\.(html|js|mjs|css|json|wasm|pack|ts)$/.test(f));
    assert.ok(compressible.length > 50, `the site holds its files (${compressible.length})`);
    for (const file of compressible) {
      const raw = fs.readFileSync(file);
      const gz = fs.readFileSync(`${file}.gz`);
      const br = fs.readFileSync(`${file}.br`);
      assert.deepEqual(zlib.gunzipSync(gz), raw, `${path.relative(SITE_DIR, file)}.gz holds the file`);
      assert.deepEqual(zlib.brotliDecompressSync(br), raw, `${path.relative(SITE_DIR, file)}.br holds the file`);
      if (raw.length > 4096) {
        assert.ok(gz.length < zlib.gzipSync(raw, { level: 9 }).length, `${path.relative(SITE_DIR, file)}: zopfli beats gzip -9`);
        assert.ok(br.length < gz.length, `${path.relative(SITE_DIR, file)}: brotli beats zopfli`);
      }
    }
  });

  test('Accept-Encoding: the coding or * with a q above 0 accepts it', () => {
    assert.equal(accepts('gzip, deflate, br', 'gzip'), true);
    assert.equal(accepts('br;q=1.0, GZIP;q=0.5', 'gzip'), true);
    assert.equal(accepts('*', 'gzip'), true);
    assert.equal(accepts('gzip;q=0', 'gzip'), false);
    assert.equal(accepts('gzip;q=0.000, *;q=0', 'gzip'), false);
    assert.equal(accepts('deflate, br', 'gzip'), false);
    assert.equal(accepts(undefined, 'gzip'), false);
    assert.equal(accepts('x-gzip-like', 'gzip'), false);
    assert.equal(accepts('gzip, deflate, br, zstd', 'br'), true);
    assert.equal(accepts('gzip, deflate', 'br'), false);
    assert.equal(accepts('br;q=0, gzip', 'br'), false);
    assert.equal(accepts('brotli', 'br'), false);
  });

  test('a browser that accepts brotli gets the brotli copy, one that accepts gzip only the gzip copy, with the file\'s own type', async () => {
    const rel = 'gpufleet/gpufleet_core.wasm';
    const raw = fs.readFileSync(path.join(SITE_DIR, rel));
    for (const [header, coding, unpack] of [['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
      ['gzip, deflate', 'gzip', zlib.gunzipSync], ['br;q=0, gzip', 'gzip', zlib.gunzipSync]]) {
      const res = await get(rel, { 'accept-encoding': header });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], coding, header);
      assert.equal(res.headers['content-type'], 'application/wasm');
      assert.equal(res.headers.vary, 'accept-encoding');
      const copy = `${rel}.${coding === 'br' ? 'br' : 'gz'}`;
      assert.equal(Number(res.headers['content-length']), fs.statSync(path.join(SITE_DIR, copy)).size);
      assert.deepEqual(unpack(res.body), raw);
    }
  });

  test('a client without gzip gets the file as staged; .gz paths and files outside the site are not served', async () => {
    const plain = await get('index.html');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.deepEqual(plain.body, fs.readFileSync(path.join(SITE_DIR, 'index.html')));
    assert.equal((await get('index.html.gz', { 'accept-encoding': 'gzip' })).status, 404);
    assert.equal((await get('index.html.br', { 'accept-encoding': 'br' })).status, 404);
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
      const res = await fetch(`${other.origin}/`, { headers: { 'accept-encoding': 'gzip, br' } });
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
        assert.equal(e.encoded, fs.statSync(path.join(SITE_DIR, `${rel}.br`)).size, `${rel} arrived as its brotli copy`);
      }
    } finally {
      await env.close();
    }
  });
});

describe('a file that cannot be opened or read', () => {
  let site;
  const big = Buffer.alloc(300 * 1024, 'x');  // several reads of the stream's 64 KiB
  before(() => {
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'site-server-errors-'));
    fs.chmodSync(site, 0o755);
    for (const name of ['index.html', 'refused.html', 'denied.html', 'many.js', 'system.js', 'broken.css', 'gone.json', 'unread.js', 'locked.js']) {
      fs.writeFileSync(path.join(site, name), `<p>${name}</p>`);
    }
    fs.writeFileSync(path.join(site, 'empty.txt'), '');
    fs.writeFileSync(path.join(site, 'big.js'), big);
    fs.writeFileSync(path.join(site, 'secret.html'), '<p>secret</p>', { mode: 0o000 });
    fs.chmodSync(path.join(site, 'secret.html'), 0o000);
  });
  after(() => fs.rmSync(site, { recursive: true, force: true }));

  const failure = (code) => Object.assign(new Error(`${code}: injected by the test`), { code });

  /** node:fs with injected faults: opening a file named in `open` fails with its code; reading one
   *  named in `read` ({code, after}) fails once `after` reads have succeeded (through the real
   *  ReadStream, by its fs option). */
  function faultyFs({ open = {}, read = {} }) {
    return {
      open(file, flags, cb) {
        const code = open[path.basename(file)];
        if (code) process.nextTick(cb, failure(code));
        else fs.open(file, flags, cb);
      },
      fstat: fs.fstat,
      close: fs.close,
      createReadStream(file, options) {
        const fault = read[path.basename(file)];
        if (!fault) return fs.createReadStream(file, options);
        let reads = 0;
        const readSome = (fd, buffer, offset, length, position, cb) => {
          if (reads++ < fault.after) fs.read(fd, buffer, offset, length, position, cb);
          else process.nextTick(cb, failure(fault.code));
        };
        return fs.createReadStream(file, { ...options, fs: { open: fs.open, close: fs.close, read: readSome } });
      },
    };
  }

  test('statusOf: 404 no such file, 403 access refused, 503 out of descriptors, 500 anything else', () => {
    for (const [code, status] of [['ENOENT', 404], ['ENOTDIR', 404], ['EACCES', 403], ['EPERM', 403],
      ['EMFILE', 503], ['ENFILE', 503], ['EIO', 500], ['EISDIR', 500], [undefined, 500]]) {
      assert.equal(statusOf(code ? failure(code) : new Error('plain')), status, String(code));
    }
  });

  test('each failed open answers its own status, and the server keeps serving', async () => {
    const errors = { 'refused.html': 'EACCES', 'denied.html': 'EPERM', 'many.js': 'EMFILE', 'system.js': 'ENFILE', 'broken.css': 'EIO', 'gone.json': 'ENOENT' };
    const served = await startServer(site, { files: faultyFs({ open: errors }) });
    try {
      const expected = { 'refused.html': 403, 'denied.html': 403, 'many.js': 503, 'system.js': 503, 'broken.css': 500, 'gone.json': 404 };
      for (const [name, status] of Object.entries(expected)) {
        for (const encoding of ['gzip', 'identity']) {
          const res = await get(name, { 'accept-encoding': encoding }, served.origin);
          assert.equal(res.status, status, `${name} (${encoding})`);
          assert.equal(res.headers['cache-control'], 'no-store');
          if (status === 503) assert.equal(res.headers['retry-after'], '1');
          assert.ok(!res.body.includes(name), 'the answer is the status, not the file');
        }
        const ok = await get('index.html', {}, served.origin);
        assert.equal(ok.status, 200, `the server answers after ${name}`);
        assert.equal(ok.body.toString(), '<p>index.html</p>');
      }
      // Many at once, failing and not: each answers its own.
      const many = await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2 ? 'many.js' : 'index.html', {}, served.origin)));
      assert.deepEqual(many.map((r) => r.status), Array.from({ length: 40 }, (_, i) => (i % 2 ? 503 : 200)));
    } finally {
      await served.close();
    }
  });

  test('a read that fails once the file is being sent cuts that answer short, and the server keeps serving', async () => {
    const served = await startServer(site, { files: faultyFs({ read: { 'big.js': { code: 'EIO', after: 1 } } }) });
    const logged = [];
    const error = console.error;
    console.error = (...args) => logged.push(args.join(' '));
    try {
      const res = await get('big.js', {}, served.origin);
      assert.equal(res.status, 200);
      assert.equal(Number(res.headers['content-length']), big.length);
      assert.ok(res.cut && res.body.length < big.length, `the answer was cut short (${res.body.length} of ${big.length} bytes)`);
      assert.match(logged.join('\n'), /site-server: big\.js: EIO: answer cut short/);
      for (let i = 0; i < 3; i++) assert.equal((await get('index.html', {}, served.origin)).status, 200);
      const whole = await startServer(site);
      try {
        assert.deepEqual((await get('big.js', {}, whole.origin)).body, big);
      } finally {
        await whole.close();
      }
    } finally {
      console.error = error;
      await served.close();
    }
  });

  test('a read that fails before anything is sent answers its status, and the server keeps serving', async () => {
    const faults = { 'unread.js': { code: 'EIO', after: 0 }, 'locked.js': { code: 'EACCES', after: 0 } };
    const served = await startServer(site, { files: faultyFs({ read: faults }) });
    try {
      for (const [name, status] of [['unread.js', 500], ['locked.js', 403]]) {
        const res = await get(name, {}, served.origin);
        assert.equal(res.status, status, name);
        assert.equal(res.body.toString(), status === 403 ? 'forbidden\n' : 'internal error\n');
        assert.equal((await get('index.html', {}, served.origin)).status, 200, `the server answers after ${name}`);
      }
      const empty = await get('empty.txt', {}, served.origin);
      assert.deepEqual([empty.status, empty.body.length, empty.cut], [200, 0, false], 'an empty file is sent whole');
    } finally {
      await served.close();
    }
  });

  test('a folder where a file is expected is not found, with or without its compressed copies', async () => {
    fs.mkdirSync(path.join(site, 'folder.html'), { recursive: true });
    fs.mkdirSync(path.join(site, 'index.html.gz'), { recursive: true });
    fs.mkdirSync(path.join(site, 'index.html.br'), { recursive: true });
    const served = await startServer(site);
    try {
      assert.equal((await get('folder.html', {}, served.origin)).status, 404);
      const plain = await get('index.html', { 'accept-encoding': 'gzip, br' }, served.origin);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'], undefined);
    } finally {
      await served.close();
      fs.rmSync(path.join(site, 'index.html.gz'), { recursive: true });
      fs.rmSync(path.join(site, 'index.html.br'), { recursive: true });
    }
  });

  test('a file without read permission answers 403 from the real file system (as root: a server run as nobody)', async (t) => {
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) {
      const served = await startServer(site);
      try {
        assert.equal((await get('secret.html', {}, served.origin)).status, 403);
        assert.equal((await get('index.html', {}, served.origin)).status, 200);
      } finally {
        await served.close();
      }
      return;
    }
    // root reads any file: the server runs as nobody (uid 65534) in a child process.
    // A copy nobody can read: the checkout may sit in a folder only its owner enters.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'site-server-nobody-'));
    fs.chmodSync(copy, 0o755);
    fs.copyFileSync(new URL('../../scripts/site-server.mjs', import.meta.url), path.join(copy, 'site-server.mjs'));
    fs.chmodSync(path.join(copy, 'site-server.mjs'), 0o644);
    t.after(() => fs.rmSync(copy, { recursive: true, force: true }));
    const module = pathToFileURL(path.join(copy, 'site-server.mjs')).href;
    const code = `const { startServer } = await import(${JSON.stringify(module)});
      const s = await startServer(${JSON.stringify(site)}); console.log(s.origin);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'] });
    t.after(() => child.kill());
    const origin = await new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.trim()); });
      child.stderr.on('data', (d) => { err += d; });
      child.on('exit', (status) => reject(new Error(`the server run as nobody stopped (${status}): ${err}`)));
    });
    assert.equal((await get('secret.html', {}, origin)).status, 403);
    assert.equal((await get('secret.html', { 'accept-encoding': 'gzip' }, origin)).status, 403);
    assert.equal((await get('index.html', {}, origin)).status, 200, 'the server keeps serving');
  });
});
