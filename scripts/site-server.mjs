// The static server of the staged site (build-wasm/site, GPUFLEET_SITE_DIR overrides) on 127.0.0.1:
// what scripts/serve.sh runs, and what the browser tests, the benchmarks and the prerender start
// on a free port. Correct MIME types (application/wasm, text/javascript), 404 for anything else,
// nothing outside the site directory; embed.js with Access-Control-Allow-Origin: * (a module script
// loaded by other origins' pages). A file's gzip copy beside it (FILE.gz, compressed with zopfli at
// staging: scripts/stage-site.sh) is sent instead to browsers that accept gzip, as a host's
// gzip_static or precompressed setting would.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SITE_DIR = path.resolve(process.env.GPUFLEET_SITE_DIR ?? path.join(ROOT, 'build-wasm/site'));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.pack': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

export function assertSiteStaged(dir = SITE_DIR) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${path.join(dir, 'index.html')} is missing: stage the site first with scripts/stage-site.sh`);
  }
}

/** Whether an Accept-Encoding header accepts gzip: a `gzip` (or `*`) coding whose q is above 0. */
export function acceptsGzip(header = '') {
  return header.split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** Starts the server; resolves {origin, close()}. `extra` maps URL paths to files outside the
 *  site that the same server also serves (the benchmark's blank page); `port` 0 takes a free one. */
export function startServer(dir = SITE_DIR, { extra = {}, port = 0 } = {}) {
  assertSiteStaged(dir);
  const server = http.createServer((req, res) => {
    const notFound = () => { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }); res.end('not found\n'); };
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405); res.end(); return; }
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch { notFound(); return; }
    if (rel.includes('\0')) { notFound(); return; }  // no file name holds one (fs would throw)
    if (rel.endsWith('/')) rel += 'index.html';
    const file = extra[rel] ?? path.resolve(dir, `.${rel}`);
    if (!extra[rel] && !file.startsWith(dir + path.sep)) { notFound(); return; }
    const type = TYPES[path.extname(file).toLowerCase()];
    if (!type) { notFound(); return; }
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const send = (sent, encoding) => fs.stat(sent, (err, st) => {
      if (err || !st.isFile()) {
        if (encoding) send(file, null);
        else notFound();
        return;
      }
      // embed.js is a module script that other origins' pages load: it needs CORS (docs/page.md).
      const cors = rel === '/embed.js' ? { 'access-control-allow-origin': '*' } : {};
      const coding = encoding ? { 'content-encoding': encoding } : {};
      res.writeHead(200, { 'content-type': type, 'content-length': st.size, 'cache-control': 'no-store',
        vary: 'accept-encoding', ...coding, ...cors });
      if (req.method === 'HEAD') { res.end(); return; }
      fs.createReadStream(sent).pipe(res);
    });
    send(gzip ? `${file}.gz` : file, gzip ? 'gzip' : null);
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      resolve({ origin: `http://127.0.0.1:${bound}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}

// `node scripts/site-server.mjs [PORT]` serves the site until stopped (scripts/serve.sh).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 0);
  startServer(SITE_DIR, { port }).then(
    ({ origin }) => console.log(`gpufleet is served at ${origin.replace('127.0.0.1', 'localhost')}/  (Ctrl-C stops it)`),
    (err) => { console.error(`site-server: ${err.message}`); process.exit(1); });
}
