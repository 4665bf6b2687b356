// The static server of the staged site (build-wasm/site, GPUFLEET_SITE_DIR overrides) on 127.0.0.1:
// what scripts/serve.sh runs, and what the browser tests, the benchmarks and the prerender start
// on a free port. Correct MIME types (application/wasm, text/javascript), 404 for anything else,
// nothing outside the site directory; embed.js with Access-Control-Allow-Origin: * (a module script
// loaded by other origins' pages). A file's compressed copies beside it (FILE.br, brotli at quality
// 11, and FILE.gz, zopfli: made at staging by scripts/stage-site.sh) are sent instead to browsers
// that accept them, brotli first, as a host's precompressed (brotli_static, gzip_static) setting would. A file that cannot be opened or read answers for that
// request only (403 where access is refused, 503 while descriptors run out, 500 otherwise), and one
// that fails while it is sent is cut off; the server keeps serving.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream';
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

/** Whether an Accept-Encoding header accepts a coding (`gzip`, `br`): it (or `*`) with a q above 0. */
export function accepts(header = '', wanted = 'gzip') {
  return header.split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === wanted || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** The staged copies to try, in order, for a request's Accept-Encoding: [suffix, coding] pairs,
 *  the file itself last. */
function copiesFor(header) {
  const copies = [['.br', 'br'], ['.gz', 'gzip']].filter(([, coding]) => accepts(header, coding));
  return [...copies, ['', null]];
}

/** The status an error opening a file answers: 404 where there is no such file, 403 where access
 *  is refused, 503 (try again) while the process or the system is out of file descriptors, 500
 *  for any other fault. */
export function statusOf(err) {
  switch (err?.code) {
    case 'ENOENT': case 'ENOTDIR': case 'ENAMETOOLONG': case 'ELOOP': return 404;
    case 'EACCES': case 'EPERM': return 403;
    case 'EMFILE': case 'ENFILE': return 503;
    default: return 500;
  }
}

const REASONS = { 403: 'forbidden', 404: 'not found', 500: 'internal error', 503: 'out of file descriptors: try again' };

function answer(res, status) {
  const retry = status === 503 ? { 'retry-after': '1' } : {};
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...retry });
  res.end(`${REASONS[status]}\n`);
}

/** The 200 head of a file sent: its type, size and coding. */
function ok(res, rel, type, size, encoding) {
  // embed.js is a module script that other origins' pages load: it needs CORS (docs/page.md).
  const cors = rel === '/embed.js' ? { 'access-control-allow-origin': '*' } : {};
  const coding = encoding ? { 'content-encoding': encoding } : {};
  res.writeHead(200, { 'content-type': type, 'content-length': size, 'cache-control': 'no-store',
    vary: 'accept-encoding', ...coding, ...cors });
}

/** Opens a regular file: calls back (status, null) when it cannot (404 for a folder), else
 *  (0, {fd, size}). The descriptor is the caller's to close (the read stream does). A call that
 *  throws instead of calling back answers like one that fails. */
function openFile(files, file, done) {
  const failed = (err) => done(statusOf(err), null);
  try {
    files.open(file, 'r', (err, fd) => {
      if (err) { failed(err); return; }
      try {
        files.fstat(fd, (statErr, st) => {
          if (statErr || !st.isFile()) {
            files.close(fd, () => done(statErr ? statusOf(statErr) : 404, null));
            return;
          }
          done(0, { fd, size: st.size });
        });
      } catch (err) { files.close(fd, () => failed(err)); }
    });
  } catch (err) { failed(err); }
}

/** Starts the server; resolves {origin, close()}. `extra` maps URL paths to files outside the
 *  site that the same server also serves (the benchmark's blank page); `port` 0 takes a free one;
 *  `files` the file system calls it makes (open, fstat, close, createReadStream: node:fs by
 *  default; the tests pass one that fails). */
export function startServer(dir = SITE_DIR, { extra = {}, port = 0, files = fs } = {}) {
  assertSiteStaged(dir);
  const server = http.createServer((req, res) => {
    const notFound = () => answer(res, 404);
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
    const copies = copiesFor(req.headers['accept-encoding']);
    const send = (i) => openFile(files, file + copies[i][0], (status, opened) => {
      const [suffix, encoding] = copies[i];
      const sent = file + suffix;
      // No such compressed copy: the next one, the file itself last.
      if (status === 404 && encoding) { send(i + 1); return; }
      if (status) { answer(res, status); return; }
      if (req.method === 'HEAD') { files.close(opened.fd, () => {}); ok(res, rel, type, opened.size, encoding); res.end(); return; }
      let stream;
      try {
        stream = files.createReadStream(sent, { fd: opened.fd });
      } catch (err) {
        files.close(opened.fd, () => answer(res, statusOf(err)));
        return;
      }
      // The head waits for the first read: a read that fails at once answers its status. Once the
      // head is sent, a read that fails can only cut the answer short; pipeline closes the
      // descriptor however the answer ends (a client that goes away included).
      let begun = false;
      const failedFirst = (err) => {
        if (begun) return;
        begun = true;
        stream.destroy();
        answer(res, statusOf(err));
      };
      stream.once('error', failedFirst);
      stream.once('readable', () => {
        if (begun) return;
        begun = true;
        stream.off('error', failedFirst);
        ok(res, rel, type, opened.size, encoding);
        pipeline(stream, res, (err) => {
          if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
            console.error(`site-server: ${path.relative(dir, sent)}: ${err.code ?? err.message}: answer cut short`);
          }
        });
      });
    });
    send(0);
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
