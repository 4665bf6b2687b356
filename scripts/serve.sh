#!/usr/bin/env bash
# The main job: installs what it needs, builds the WebAssembly core, stages the page in the build
# tree and serves it on localhost (PORT, default 8080), printing the URL.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
port="${PORT:-8080}"
"$root/scripts/setup.sh"
"$root/scripts/stage-site.sh"
site="${SITE_DIR:-${WASM_BUILD_DIR:-$root/build-wasm}/site}"
echo "gpufleet is served at http://localhost:$port/  (Ctrl-C stops it)"
# embed.js is a module script that pages on other origins load (<gpufleet-calculator>): it is
# served with Access-Control-Allow-Origin: * (docs/page.md says what any host must serve).
cd "$site"
exec python3 - "$port" <<'PY'
import http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript"}
    def end_headers(self):
        if self.path.split("?")[0].endswith("/embed.js"):
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
