#!/usr/bin/env bash
# Performance budgets: native and WebAssembly sweeps, the browser's cold load and recompute, and
# the size of everything the page downloads. Prints a PASS/FAIL table and, last, one JSON line.
# Budgets live here, never in tests: machines are shared and noisy; compare ratios of one run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
site="${SITE_DIR:-${WASM_BUILD_DIR:-$root/build-wasm}/site}"
# BENCH_STAGED=1 measures the site already in SITE_DIR (one staged before a change, say) against
# the cores built here, building and staging nothing.
if [ "${BENCH_STAGED:-0}" != 1 ]; then
  scripts/setup.sh >/dev/null
  scripts/build.sh >/dev/null
  scripts/stage-site.sh >/dev/null
fi
export GPUFLEET_SITE_DIR="$site"  # the site the browser measures (scripts/site-server.mjs)

# Native figures are medians of 5 repetitions, as the browser's are medians of its runs.
native=$(build/tests/gpufleet_bench --benchmark_format=json --benchmark_min_time=0.2 \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null)
wasm=$(node tests/bench/bench_wasm.mjs)
browser=$(node tests/bench/bench_browser.mjs)

python3 - "$site" "$native" "$wasm" "$browser" <<'PY'
import gzip, json, os, sys
site, native, wasm, browser = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
bench = {b["run_name"]: b for b in native["benchmarks"] if b.get("aggregate_name") == "median"}
ms = lambda b: b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
figures = {
    "native_catalog_load_ms": ms(bench["BM_CatalogLoad"]),
    # What `gpufleet cost`/`fit`/`recommend` read (core/cli/catalog_files.cpp): the usual regions' prices only.
    "native_catalog_load_usual_regions_ms": ms(bench["BM_CatalogLoadUsualRegions"]) if "BM_CatalogLoadUsualRegions" in bench else float("nan"),
    # What `gpufleet cost --instance g5.xlarge` reads: its provider's usual region's prices only.
    "native_catalog_load_one_region_ms": ms(bench["BM_CatalogLoadOneRegion"]),
    "native_one_estimate_us": ms(bench["BM_OneEstimate"]) * 1000,
    "native_sweep_ms": ms(bench["BM_Sweep"]),
    **{f"native_{name.split('/')[1]}_ms": ms(b) for name, b in bench.items() if name.startswith("BM_Tool/")},
    **wasm, **browser,
}
figures["wasm_to_native_sweep_ratio"] = figures["browser_sweep_ms"] / figures["native_sweep_ms"]
figures["first_answer_to_blank_paint_ratio"] = figures["browser_first_answer_ms"] / figures["browser_blank_first_paint_ms"]
# The answer in the first frame is the one the site was staged with (scripts/prerender.mjs); the
# live core's own first answer, which replaces it, is reported beside it (no budget).
figures["live_first_answer_to_blank_paint_ratio"] = figures["browser_live_first_answer_ms"] / figures["browser_blank_first_paint_ms"]
# Links anyone shares (tests/bench/bench_browser.mjs LINKS) take the live path: each against the same blank paint.
links = [k[len("browser_link_"):-len("_first_answer_ms")] for k in figures if k.startswith("browser_link_")]
for link in links:
    figures[f"link_{link}_to_blank_paint_ratio"] = figures[f"browser_link_{link}_first_answer_ms"] / figures["browser_blank_first_paint_ms"]
# The floors under those links (tests/bench/floor_sites.mjs), at the region link, no budget: a page
# that only loads the core and the catalog's pack and paints one line (core), and one that also
# builds the analyzer and answers one Fit question (answer).
for floor in ("core", "answer"):
    figures[f"floor_{floor}_to_blank_paint_ratio"] = figures[f"browser_floor_{floor}_ms"] / figures["browser_blank_first_paint_ms"]
# The scale curve: the same demand-sized recommendation over 1x, 4x and 16x the catalog.
curve = {int(name.split("/")[1].split("_")[0]): b for name, b in bench.items() if name.startswith("BM_ScaleCurve/")}
for copies, b in sorted(curve.items()):
    figures[f"native_scale_{copies}x_ms"] = ms(b)
    figures[f"native_scale_{copies}x_instance_types"] = b["instance_types"]
    figures[f"native_scale_{copies}x_offers"] = b["offers"]
# Per-offer cost at 16x over at 1x (offers: instance types x regions priced): 1.0 is linear growth.
figures["scale_16x_per_offer_ratio"] = (ms(curve[16]) / curve[16]["offers"]) / (ms(curve[1]) / curve[1]["offers"])
figures["node_wasm_to_native_sweep_ratio"] = figures["wasm_sweep_ms"] / figures["native_sweep_ms"]
# The size budget sums the bytes the server sent for each file the page downloaded in the browser
# run (the document and every resource it requested): each file's brotli copy (FILE.br, or the
# zopfli FILE.gz where there is none: scripts/stage-site.sh), which must be what arrived. The table
# lists every staged file with its raw size, gzip -9 and the .gz copy (what a host that sends only
# gzip sends) for comparison, and the bytes sent; those the page does not load are marked.
loaded = figures.pop("browser_loaded_files")
steps = figures.pop("browser_cold_load_steps")
sizes, total_raw, total_sent = {}, 0, 0
size_of = lambda path, fallback: os.path.getsize(path) if os.path.exists(path) else fallback
for dirpath, _, files in os.walk(site):
    for name in sorted(files):
        if name.endswith((".gz", ".br")):
            continue
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, site)
        data = open(path, "rb").read()
        gz = size_of(path + ".gz", len(data))
        sizes[rel] = {"raw": len(data), "gzip": len(gzip.compress(data, 9)), "gz": gz, "sent": size_of(path + ".br", gz),
                      "loaded_by_page": rel in loaded}
        if rel in loaded:
            total_raw += len(data)
            total_sent += sizes[rel]["sent"]
missing = set(loaded) - set(sizes)
if missing:
    sys.exit(f"bench: the page loaded files that are not in the site: {sorted(missing)}")
differ = {rel: bytes for rel, bytes in loaded.items() if bytes != sizes[rel]["sent"]}
if differ:
    sys.exit(f"bench: the browser received other byte counts than the staged compressed copies: {differ}")
figures["total_raw_bytes"], figures["total_sent_bytes"] = total_raw, total_sent
figures["total_gzip9_bytes"] = sum(s["gzip"] for s in sizes.values() if s["loaded_by_page"])
figures["total_gz_bytes"] = sum(s["gz"] for s in sizes.values() if s["loaded_by_page"])
# Another region is one more price file, fetched when chosen: the largest one is the worst case.
further = [s["sent"] for rel, s in sizes.items() if rel.startswith("config/prices/") and rel.count("/") == 3 and not s["loaded_by_page"]]
figures["further_region_max_sent_bytes"] = max(further) if further else 0
budgets = [
    # The sweep is demand-sized on the one road (tests/bench/sweep.json): one frame at 60 Hz.
    ("demand-sized sweep in the browser", figures["browser_sweep_ms"], "<= 16 ms", figures["browser_sweep_ms"] <= 16),
    # The page's tool questions, each one answer on screen: one frame each (tests/bench/sweep.json "tools").
    ("autoscale, 168 h, every family (browser)", figures["browser_autoscale_168h_every_family_ms"], "<= 16 ms", figures["browser_autoscale_168h_every_family_ms"] <= 16),
    ("spot plan over every pool (browser)", figures["browser_spot_every_pool_ms"], "<= 16 ms", figures["browser_spot_every_pool_ms"] <= 16),
    ("regions over every region (browser)", figures["browser_regions_every_region_ms"], "<= 16 ms", figures["browser_regions_every_region_ms"] <= 16),
    # The batch question: a 20-job schedule with 1,000 spot traces per job (issue 35's budget).
    ("batch, 20 jobs x 1,000 traces (browser)", figures["browser_batch_20_jobs_1000_traces_ms"], "<= 50 ms", figures["browser_batch_20_jobs_1000_traces_ms"] <= 50),
    # An input change to the view's answer painted (tests/bench/view-change.mjs).
    *[(f"input -> answer, {k[len('browser_input_to_answer_'):-3]} view", figures[k], "<= 16 ms", figures[k] <= 16)
      for k in sorted(figures) if k.startswith("browser_input_to_answer_")],
    ("wasm within 1.5x of native (same sweep)", figures["wasm_to_native_sweep_ratio"], "<= 1.5x", figures["wasm_to_native_sweep_ratio"] <= 1.5),
    ("first answer / blank page first paint", figures["first_answer_to_blank_paint_ratio"], "<= 2.0x", figures["first_answer_to_blank_paint_ratio"] <= 2.0),
    *[(f"live first answer, {link.replace('_', ' ')} link / blank", figures[f"link_{link}_to_blank_paint_ratio"], "<= 2.0x",
       figures[f"link_{link}_to_blank_paint_ratio"] <= 2.0) for link in links],
    # Linear growth, with room for the noise of timing one run: a quarter more per offer at 16x.
    ("scale curve: per-offer time 16x / 1x", figures["scale_16x_per_offer_ratio"], "<= 1.25x", figures["scale_16x_per_offer_ratio"] <= 1.25),
    ("page + wasm + catalogs, as sent (brotli)", total_sent / 1024, "<= 200 KiB", total_sent <= 200 * 1024),
    # Keys typed on Fit while the largest accepted catalog of your own is loaded (in the core's worker).
    ("keystroke -> paint, largest own catalog", figures["browser_keystroke_to_paint_largest_catalog_ms"], "<= 50 ms",
     figures["browser_keystroke_to_paint_largest_catalog_ms"] <= 50),
    ("each further region, as sent (largest)", figures["further_region_max_sent_bytes"] / 1024, "<= 30 KiB", figures["further_region_max_sent_bytes"] <= 30 * 1024),
]
# The Batch view: a 20-job schedule with 1,000 traces each, from an input change to its answer on
# screen (tests/bench/bench_browser.mjs, browser_batch_view_20_jobs_ms; issue 35's 50 ms budget).
batch_view = figures["browser_batch_view_20_jobs_ms"]
budgets.append(("batch view, 20 jobs x 1,000 traces, on screen", batch_view, "<= 50 ms", batch_view <= 50))
print(f"{'artifact':40} {'raw bytes':>10} {'gzip -9':>10} {'.gz':>10} {'sent':>10}")
for rel, s in sorted(sizes.items(), key=lambda kv: (not kv[1]["loaded_by_page"], -kv[1]["sent"])):
    note = "" if s["loaded_by_page"] else "  (not loaded by the page)"
    print(f"{rel:40} {s['raw']:>10} {s['gzip']:>10} {s['gz']:>10} {s['sent']:>10}{note}")
print(f"{'total loaded by the page':40} {total_raw:>10} {figures['total_gzip9_bytes']:>10} {figures['total_gz_bytes']:>10} {total_sent:>10}\n")
# Where each cold load's time goes (ms after navigation, medians): one column per link.
kinds = list(steps)
names = sorted({k for v in steps.values() for k in v}, key=lambda k: min(v.get(k, 1e9) for v in steps.values()))
print(f"{'cold load step (ms after navigation)':36}" + "".join(f" {k[:14]:>14}" for k in kinds))
for name in names:
    print(f"{name[:36]:36}" + "".join(f" {steps[k][name]:>14.1f}" if name in steps[k] else f" {'':>14}" for k in kinds))
print(f"{'blank page first paint':36}" + "".join(f" {figures['browser_blank_first_paint_ms']:>14.1f}" for _ in kinds) + "\n")
figures["cold_load_steps"] = steps
for key in ["native_catalog_load_ms", "native_catalog_load_usual_regions_ms", "native_catalog_load_one_region_ms", "native_one_estimate_us", "native_sweep_ms", "wasm_catalog_load_ms",
            "wasm_one_estimate_us", "wasm_sweep_ms", "browser_sweep_ms", "browser_first_answer_ms",
            "browser_live_first_answer_ms", "live_first_answer_to_blank_paint_ratio", "browser_blank_first_paint_ms",
            *[f"browser_link_{link}_first_answer_ms" for link in links], "browser_floor_core_ms", "floor_core_to_blank_paint_ratio",
            "browser_floor_answer_ms", "floor_answer_to_blank_paint_ratio", "browser_recompute_ms", "native_scale_1x_ms", "native_scale_4x_ms",
            "native_scale_16x_ms", "browser_keystroke_to_paint_largest_catalog_max_ms"] + [f"{door}_{tool}_ms" for tool in ("autoscale_168h_every_family", "spot_every_pool", "regions_every_region", "batch_20_jobs_1000_traces")
                                      for door in ("native", "wasm", "browser")]:
    print(f"{key:40} {figures[key]:>10.3f}")
print(f"\n{'budget':42} {'measured':>10} {'target':>10}  result")
for name, value, target, ok in budgets:
    print(f"{name:42} {value:>10.2f} {target:>10}  {'PASS' if ok else 'FAIL'}")
figures["budgets"] = {name: ("PASS" if ok else "FAIL") for name, _, _, ok in budgets}
figures["sizes"] = sizes
print(json.dumps(figures, sort_keys=True))
PY
