#!/usr/bin/env bash
# Builds the WebAssembly core and stages the static site in build-wasm/site (SITE_DIR overrides):
# web/ + the wasm module and facade under gpufleet/ + the catalogs under config/. What is staged is
# what is served, so it is made small here: the page's modules bundled and minified (app/main.js,
# the live page's chunk and its chunks; the later screens' chunk is fetched when one of them is
# first shown), CSS and the other scripts minified, the catalogs without whitespace. web/ and
# config/ stay readable.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${WASM_BUILD_DIR:-$root/build-wasm}"
site="${SITE_DIR:-$build/site}"
esbuild="$root/node_modules/.bin/esbuild"
if [ ! -x "$esbuild" ]; then
  echo "stage-site: $esbuild is missing; run scripts/setup.sh (npm ci) first" >&2
  exit 1
fi
if ! command -v zopfli >/dev/null 2>&1; then
  echo "stage-site: zopfli is missing (it compresses the staged files); run scripts/setup.sh first" >&2
  exit 1
fi
"$root/scripts/build-wasm.sh"
rm -rf "$site"
mkdir -p "$site/app" "$site/gpufleet" "$site/config"
min=("$esbuild" --minify --target=es2022 --log-level=warning)
cp "$root/web/embed-demo.html" "$site/"
# The page without its comments and indentation (no <pre> or <textarea> text in it to keep).
python3 - "$root/web/index.html" "$site/index.html" <<'PY'
import re, sys
html = re.sub(r"<!--.*?-->", "", open(sys.argv[1], encoding="utf-8").read(), flags=re.S)
html = "\n".join(line.strip() for line in html.splitlines() if line.strip())
open(sys.argv[2], "w", encoding="utf-8").write(html + "\n")
PY
# The facade stays a module of its own: embedders and the benchmarks import it by its path.
# The screens after the first are a chunk of their own (code splitting, web/app/later-screens.js).
meta="$(mktemp)"
trap 'rm -f "$meta" "$meta.page" "$meta.later" "$meta.files"' EXIT
"${min[@]}" "$root/web/app/main.js" --bundle --splitting --format=esm --external:../gpufleet/gpufleet.js \
  --external:../gpufleet/all/gpufleet.js \
  --chunk-names='chunk-[hash]' --outdir="$site/app" --metafile="$meta"
# The live page's files (web/prerendered.js requests them when main.js starts the live page, the
# core first: PAGE_FILES) and the later views' chunk with the chunks it imports that the live page
# does not (requested at once for a link to a later view: LATER_MODULES).
python3 - "$meta" <<'PY'
import json, os, sys
meta = json.load(open(sys.argv[1], encoding="utf-8"))
def entry(name):
    return next((os.path.basename(path), out) for path, out in meta["outputs"].items() if out.get("entryPoint", "").endswith(name))
def imports(out):
    return [os.path.basename(i["path"]) for i in out["imports"] if i["kind"] == "import-statement" and not i.get("external")]
page, page_out = entry("app/page.js")
mine = [page] + imports(page_out)
files = ["./gpufleet/gpufleet_core.wasm", "./config/page/catalog.pack", "./gpufleet/gpufleet.js", "./gpufleet/gpufleet_core.mjs"]
open(sys.argv[1] + ".page", "w", encoding="utf-8").write(json.dumps(files + [f"./app/{c}" for c in mine]))
later, later_out = entry("app/later-screens.js")
names = [later] + [c for c in imports(later_out) if c not in mine]
open(sys.argv[1] + ".later", "w", encoding="utf-8").write(json.dumps([f"./app/{c}" for c in names]))
PY
# The core's Web Worker (the tools' questions, and every question of a heavy catalog of your own):
# a module of its own beside the page's, fetched only when first needed; it imports the full
# module's facade (gpufleet/all/).
"${min[@]}" "$root/web/app/core-worker.js" --bundle --format=esm --external:../gpufleet/all/gpufleet.js \
  --outfile="$site/app/core-worker.js"
"${min[@]}" "$root/web/style.css" --outfile="$site/style.css"
"${min[@]}" "$root/web/embed.js" --bundle --format=esm --outfile="$site/embed.js"
# The usual regions (their prices are in the catalog's pack), and a check that no region's name has
# another provider's form than its own (web/prerendered.js requests a link's region's prices early,
# from the provider its name's form says).
usual=$(python3 - "$root/config/prices/index.json" <<'PY'
import json, re, sys
index = json.load(open(sys.argv[1], encoding="utf-8"))
FORMS = {"aws": r"[a-z]+(-[a-z]+)+-\d+", "gcp": r"[a-z]+-[a-z]+\d+", "azure": r"[a-z]+us\d*"}
for provider, p in index["providers"].items():
    for region, entry in p["regions"].items():
        form = next((k for k, f in FORMS.items() if re.fullmatch(f, region)), provider)
        if form != provider or entry["file"] != f"{provider}/{region}.json":
            sys.exit(f"stage-site: region {region} ({entry['file']}) has {form}'s form, which web/prerendered.js reads as {form}/{region}.json")
print(json.dumps([p["default_region"] for p in index["providers"].values()]))
PY
)
"${min[@]}" "$root/web/prerendered.js" --format=iife --define:PAGE_FILES="$(cat "$meta.page")" --define:LATER_MODULES="$(cat "$meta.later")" --define:USUAL_REGIONS="$usual" --outfile="$site/prerendered.js"
"${min[@]}" "$root/web/sw.js" --outfile="$site/sw.js"
# gpufleet/ holds the page's module (without the questions no view asks, wasm/CMakeLists.txt);
# gpufleet/all/ the module that answers every question, for pages that import the facade.
stage_module() {  # FROM TO: the facade, the glue and the module
  mkdir -p "$2"
  "${min[@]}" "$1/gpufleet.js" --outfile="$2/gpufleet.js"
  "${min[@]}" "$1/gpufleet_core.mjs" --outfile="$2/gpufleet_core.mjs"
  cp "$1/gpufleet.d.ts" "$1/requests.d.ts" "$1/gpufleet_core.wasm" "$2/"
}
stage_module "$build/wasm/page" "$site/gpufleet"
stage_module "$build/wasm" "$site/gpufleet/all"
# Catalogs: whitespace outside strings removed, every token kept as written (1.0 stays 1.0), and
# the members that document the file itself, which neither the core nor the page reads, left out
# of the served copy (catalog_info.field_notes; each model's published_parameters_source, where the
# published parameter count that the tests compare the counted one with comes from; no answer
# shows that count; and a GPU's or family's interconnect_notes, spec_notes and usable_memory_notes,
# free text that no answer carries and no screen shows: their figures keep their source and
# source_date). config/ keeps them.
# Price files likewise (config/prices/<provider>/<region>.json, one fetched per region chosen);
# the index without the upstream types nobody prices (unmapped, out_of_scope) and without each
# region's offer counts (offers, offers_with_spot: the page reads a region's file name only and
# the core never reads the index), and no overrides.
python3 - "$site/config" "$root/config" <<'PY'
import glob, json, os, sys
out_dir, config = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(os.path.join(config, "*.json")) + glob.glob(os.path.join(config, "prices", "*.json"))
               + glob.glob(os.path.join(config, "prices", "*", "*.json")))
files = [f for f in files if os.path.basename(f) != "overrides.json"]
UNREAD = ('"field_notes"', '"published_parameters_source"', '"unmapped"', '"out_of_scope"',
          '"interconnect_notes"', '"spec_notes"', '"usable_memory_notes"')
for path in files:
    text = open(path, encoding="utf-8").read()
    for key in UNREAD:
        while key in text:  # cut each member as written: json.dumps would rewrite every number
            start = text.index(key)
            value = text.index(":", start) + 1
            value += len(text[value:]) - len(text[value:].lstrip())
            end = json.JSONDecoder().raw_decode(text, value)[1]
            rest = text[end:].lstrip()
            if rest.startswith(","):
                text = text[:start] + rest[1:]
            else:
                text = text[:start].rstrip().removesuffix(",") + rest
    if os.path.relpath(path, config) == os.path.join("prices", "index.json"):
        index = json.loads(text)
        for provider in index["providers"].values():
            for region in provider["regions"].values():
                region.pop("offers", None)
                region.pop("offers_with_spot", None)
        text = json.dumps(index, ensure_ascii=False)  # names and whole numbers only: nothing to rewrite
    out, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif ch not in " \t\r\n":
            out.append(ch)
    target = os.path.join(out_dir, os.path.relpath(path, config))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write("".join(out))
PY
# The page's own copies of the two large catalogs: every provenance text (source,
# sources, note(s), estimates, about, *_source, *_notes, *_estimate; the dates stay) replaced by one
# line naming the full file, which the page fetches when it first shows a source (web/app/
# catalog-store.js withSources): half of those catalogs' gzipped bytes, not needed for any answer.
python3 - "$site/config" "$root" <<'PY'
import glob, json, os, re, sys
config, root = sys.argv[1], sys.argv[2]
decode = json.JSONDecoder().raw_decode
# Members the schemas mark unread (the field tables' kInfo: "$comment" kUnread in
# core/src/api/schema.cpp) whose names no script of the page mentions: left out of the page's
# copies altogether, found by their place in the document, not by name.
UNREAD = "kept for people: gpufleet reads no value here"
shown = "".join(open(f, encoding="utf-8").read() for f in glob.glob(os.path.join(root, "web", "**", "*.js"), recursive=True))
def unread_paths(doc, schema):
    defs, paths = schema.get("$defs", {}), set()
    def resolve(s):
        while "$ref" in s or "anyOf" in s:
            s = defs[s["$ref"].rsplit("/", 1)[1]] if "$ref" in s else next(
                (a for a in s["anyOf"] if a.get("type") != "null"), {})
        return s
    def member(s, key):
        s = resolve(s)
        if key in s.get("properties", {}):
            return s["properties"][key]
        for pattern, sub in s.get("patternProperties", {}).items():
            if re.search(pattern, key):
                return sub
        extra = s.get("additionalProperties")
        return extra if isinstance(extra, dict) else {}
    def walk(value, s, path):
        if isinstance(value, dict):
            for key, sub in value.items():
                ms = member(s, key)
                if ms.get("$comment") == UNREAD and not re.search(rf"\b{re.escape(key)}\b", shown):
                    paths.add(f"{path}/{key}")
                else:
                    walk(sub, ms, f"{path}/{key}")
        elif isinstance(value, list):
            for item in value:
                walk(item, resolve(s).get("items", {}), f"{path}/-")
    walk(doc, schema, "")
    return paths
TEXT = {"source", "sources", "note", "notes", "estimates", "estimate", "about", "dates_note"}
# Quoted inside answers' own texts (the generic decoder's shape), so kept.
KEEP = {"/generic_decoder/source"}
def provenance(key):
    return key in TEXT or key.endswith(("_source", "_notes", "_estimate"))
def lean(text, name):
    note = json.dumps(f"(left out of the page's copy: config/{name} gives it)")
    schema = json.load(open(os.path.join(root, "config", "schemas", name.replace(".json", ".schema.json")), encoding="utf-8"))
    drop = unread_paths(json.loads(text), schema)
    out = []
    def copy(i, path=""):  # copies the value at i (the staged text has no whitespace); returns its end
        if text[i] == "{" or text[i] == "[":
            close = "}" if text[i] == "{" else "]"
            out.append(text[i])
            i += 1
            while text[i] != close:
                if close == "}":
                    key, end = decode(text, i)
                    if f"{path}/{key}" in drop:
                        i = decode(text, end + 1)[1]
                        if text[i] == ",":
                            i += 1
                        elif out[-1] == ",":
                            out.pop()
                        continue
                    out.append(text[i:end + 1])  # the key and its colon
                    i = end + 1
                    at = f"{path}/{key}"
                    value, end = decode(text, i) if provenance(key) and at not in KEEP else (None, i)
                    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                        out.append(note if isinstance(value, str) else f"[{note}]")
                        i = end
                    else:
                        i = copy(i, at)
                else:
                    i = copy(i, path + "/-")
                if text[i] == ",":
                    out.append(",")
                    i += 1
            out.append(close)
            return i + 1
        end = decode(text, i)[1]
        out.append(text[i:end])  # numbers as written
        return end
    copy(0)
    return "".join(out)
# Everything the page's first answer reads, in one file (one request instead of eight, and one
# gzip stream: -1.4 KB): config/page/catalog.pack is a first line of JSON naming each file and its
# length in bytes, then the files' bytes one after the other (web/app/catalog-store.js reads it).
# The copies of the two large catalogs, the workloads, the price index and each provider's usual
# region's prices.
index = json.load(open(os.path.join(config, "prices", "index.json"), encoding="utf-8"))
# The price files right after the instance catalog, whose instance names they repeat within gzip's
# window: -159 B against the catalogs' order.
names = ["model_config.json", "workloads.json", "gpu_instances.json", "prices/index.json"] + [
    f"prices/{p['regions'][p['default_region']]['file']}" for p in index["providers"].values()]
files = []
for name in names:
    text = open(os.path.join(config, name), encoding="utf-8").read()
    files.append((name, (lean(text, name) if name in ("gpu_instances.json", "model_config.json") else text).encode("utf-8")))
os.makedirs(os.path.join(config, "page"), exist_ok=True)
with open(os.path.join(config, "page", "catalog.pack"), "wb") as f:
    f.write(json.dumps({"files": [{"name": n, "bytes": len(b)} for n, b in files]}).encode("utf-8") + b"\n")
    for _, b in files:
        f.write(b)
PY
# The default view's answer in the HTML, from the page itself on the staged site (headless Chromium).
node "$root/scripts/prerender.mjs" "$site"
# The style sheet and prerendered.js written into the staged index.html, each allowed by its
# SHA-256 in the page's Content-Security-Policy (no 'unsafe-inline'): the parser and the first
# frame no longer wait for two requests (about 30 ms each on the benchmark machine; docs/
# performance.md, tenth round). embed-demo.html keeps its link to style.css.
python3 - "$site/index.html" "$site/style.css" "$site/prerendered.js" <<'PY'
import base64, hashlib, sys
page, css_file, js_file = sys.argv[1:4]
html = open(page, encoding="utf-8").read()
css = open(css_file, encoding="utf-8").read().strip()
js = open(js_file, encoding="utf-8").read().strip()
def sha(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"
for tag, element, directive, text in (
        ('<link rel="stylesheet" href="./style.css">', "style", "style-src 'self'", css),
        ('<script src="./prerendered.js"></script>', "script", "script-src 'self' 'wasm-unsafe-eval'", js)):
    # "<!--" in a script can keep its "</script>" from closing it (the parser's escaped states).
    if html.count(tag) != 1 or html.count(directive) != 1 or f"</{element}" in text.lower() or "<!--" in text:
        sys.exit(f"stage-site: cannot inline into {page}: expected one {tag}, one {directive} and no </{element} or <!-- in the text")
    html = html.replace(tag, f"<{element}>{text}</{element}>").replace(directive, f"{directive} {sha(text)}")
open(page, "w", encoding="utf-8").write(html)
PY
# Each file also as the server sends it (scripts/site-server.mjs; a host's precompressed setting,
# nginx's brotli_static and gzip_static or Caddy's `precompressed br gzip`, serves the same):
# FILE.br, brotli at its best (quality 11, 16 MiB window; node's zlib), to browsers that accept
# it, every current one: about 11 % smaller than FILE.gz, compressed with zopfli, gzip's format
# about 4 % smaller than gzip -9, for the others (docs/performance.md).
find "$site" -type f \( -name '*.html' -o -name '*.js' -o -name '*.mjs' -o -name '*.css' -o -name '*.json' \
  -o -name '*.wasm' -o -name '*.pack' -o -name '*.ts' \) -print0 > "$meta.files"
xargs -0 -r -P "$(nproc 2>/dev/null || echo 2)" -n 8 zopfli < "$meta.files"
xargs -0 -r -P "$(nproc 2>/dev/null || echo 2)" -n 16 node -e '
const fs = require("node:fs"), zlib = require("node:zlib"), { constants: c } = zlib;
for (const file of process.argv.slice(1)) {
  const data = fs.readFileSync(file);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: {
    [c.BROTLI_PARAM_QUALITY]: 11, [c.BROTLI_PARAM_LGWIN]: 24, [c.BROTLI_PARAM_SIZE_HINT]: data.length } }));
}' < "$meta.files"
echo "site staged in $site"
