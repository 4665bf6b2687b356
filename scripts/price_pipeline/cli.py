"""scripts/update-prices: regenerates config/prices/ from the SkyPilot catalog files.

Offline (the default when ../shared/data/prices exists): reads the raw extracts named in
config/prices/overrides.json. --download --ref COMMIT: fetches the upstream's files at that
commit from raw.githubusercontent.com and parses them with the same code."""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile

from . import build, hardware, output, spot_bands, upstream
from .errors import PipelineError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_EXTRACTS = os.path.join(os.path.dirname(ROOT), "shared", "data", "prices")


def read_bands(overrides, extracts=None, download=False, date=None):
    """(region -> type -> band, the AWS files' spot_bands object), from the extract beside the
    price extracts (overrides spot_bands.aws.extract) or, with download, the live feed."""
    if download:
        text = upstream.fetch(spot_bands.FEED_URL, limit=spot_bands.MAX_FEED_BYTES)
        return (spot_bands.parse(text, spot_bands.FEED_URL),
                spot_bands.meta(overrides, date or spot_bands.today()))
    path = os.path.normpath(os.path.join(extracts or DEFAULT_EXTRACTS,
                                         overrides["spot_bands"]["aws"]["extract"]))
    text = upstream.read_extract(path, os.path.basename(path), limit=spot_bands.MAX_FEED_BYTES)
    return spot_bands.parse(text, os.path.basename(path)), spot_bands.meta(overrides)


def download_urls(overrides, ref):
    """provider -> raw.githubusercontent.com address of its upstream file at ref."""
    return {p: upstream.download_url(overrides["providers"][p]["snapshot"]["path"], ref,
                                     overrides["providers"][p]["snapshot"]["source"])
            for p in build.PROVIDERS}


def snapshots_for(overrides, ref=None, date=None):
    snapshots = {}
    for provider in build.PROVIDERS:
        snapshot = dict(overrides["providers"][provider]["snapshot"])
        if ref is not None and ref != snapshot["commit"]:
            snapshot["commit"] = ref
            snapshot["date"] = date or "unknown"
            snapshot["date_source"] = (
                "given to scripts/update-prices --date by whoever downloaded the commit"
                if date else "unknown: downloaded with scripts/update-prices --download and no "
                "--date given; not invented")
        snapshots[provider] = snapshot
    return snapshots


def generate(texts, catalog, overrides, snapshots, bands=None):
    """texts: provider -> (csv text, name for messages); bands: read_bands's pair, or None
    for files without interruption bands. Returns (files, results, known) where files maps a
    path relative to the output folder to its text."""
    known = build.known_instances(catalog)
    results = {}
    for provider in build.PROVIDERS:
        text, name = texts[provider]
        rows = upstream.read_rows(provider, text, name)
        results[provider] = build.build_provider(provider, rows, known[provider], overrides)
        build.require_default_region(provider, rows, results[provider], overrides)
    files = {"index.json": output.dumps(build.index_document(results, overrides, snapshots))}
    for provider in build.PROVIDERS:
        for region, offers in results[provider].offers.items():
            files[f"{provider}/{region}.json"] = output.dumps(build.region_document(
                provider, region, offers, snapshots[provider],
                build.spot_bands_for(provider, region, bands, overrides)))
    return files, results, known


def inside(root, path):
    """root/path, proven inside root: resolved (symbolic links followed, '..' folded) and
    compared with the resolved root; anything else is refused before a byte is written."""
    root = os.path.realpath(root)
    full = os.path.realpath(os.path.join(root, path))
    if full == root or os.path.commonpath([root, full]) != root:
        raise PipelineError(f"{path}: expected a path inside the output folder {root}, "
                            f"got {full}")
    return full


def _remove_stale(files, folder):
    """Removes region files of earlier runs that this run did not make."""
    for provider in build.PROVIDERS:
        where = os.path.join(folder, provider)
        if os.path.isdir(where):
            for entry in sorted(os.listdir(where)):
                if entry.endswith(".json") and f"{provider}/{entry}" not in files:
                    os.remove(inside(folder, f"{provider}/{entry}"))


def _write_files(files, folder, out_dir):
    """Writes each file under folder (out_dir's copy; errors name the path in out_dir)."""
    for path, text in sorted(files.items()):
        full = inside(folder, path)
        try:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            if os.path.lexists(full):
                os.remove(full)     # a fresh file, never through a link that was there
            with open(full, "x", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        except OSError as error:
            raise PipelineError(f"{os.path.join(out_dir, path)}: expected a writable file, "
                                f"got {error.strerror or error} (nothing was changed)") from None


def _swap(new, out_dir, old):
    """Puts the folder `new` in out_dir's place (out_dir itself moved to `old`, put back if the
    second rename fails)."""
    if os.path.isdir(out_dir):
        os.rename(out_dir, old)
    try:
        os.rename(new, out_dir)
    except OSError:
        if os.path.isdir(old):
            os.rename(old, out_dir)
        raise


def write(files, out_dir):
    """All or nothing: the output folder is copied to a temporary folder beside it, this run's
    files are written there (and region files of earlier runs that it did not make removed),
    and the copy is renamed into place only once every file is written. A failed run leaves
    out_dir as it was. Files the pipeline does not write (overrides.json) are carried over."""
    out_dir = os.path.realpath(out_dir)
    for path in files:
        inside(out_dir, path)
    staging = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".new",
                               dir=os.path.dirname(out_dir))
    try:
        work = os.path.join(staging, "new")
        if os.path.isdir(out_dir):
            shutil.copytree(out_dir, work, symlinks=True)
        else:
            os.mkdir(work)
        _remove_stale(files, work)
        _write_files(files, work, out_dir)
        _swap(work, out_dir, os.path.join(staging, "old"))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def report(files, results, known, catalog, overrides, print_=print):
    index = json.loads(files["index.json"])
    print_("== prices")
    for provider in build.PROVIDERS:
        result, entry = results[provider], index["providers"][provider]
        offers = sum(r["offers"] for r in entry["regions"].values())
        spot = sum(r["offers_with_spot"] for r in entry["regions"].values())
        types = len({n for by_name in result.offers.values() for n in by_name})
        priced = sum(1 for by_name in result.offers.values() for o in by_name.values()
                     if "on_demand_cost_per_hour" in o)
        print_(f"{provider}: {offers} offers ({types} instance types x {len(entry['regions'])} "
               f"regions), {priced} with on-demand, {spot} with spot; upstream rows "
               f"{result.rows}, repeated rows dropped {result.duplicates_dropped}"
               + (f", CONFLICTING repeats (first line, other line) {result.conflicts}"
                  if result.conflicts else ""))
        print_(f"  unmapped ({len(result.unmapped)}): {', '.join(result.unmapped) or 'none'}")
        for line in entry.get("out_of_scope", []):
            print_(f"  out of scope: {line}")
        if result.no_rule:
            print_(f"  NO COMPOSITION RULE in overrides for: {', '.join(result.no_rule)}")
        codes = {}
        for region, by_name in sorted(result.offers.items()):
            for name, offer in sorted(by_name.items()):
                for anomaly in offer.get("anomalies", []):
                    codes.setdefault(anomaly["code"], []).append(f"{name} {region}")
        for code, where in sorted(codes.items()):
            print_(f"  {code} ({len(where)}): {', '.join(where)}")
        ratios = sorted(r for r in result.cross_region_ratios)
        factor = overrides["cross_region"]["factor"]
        inside = [r for r, _, _ in ratios if 1 / factor <= r <= factor]
        if inside:
            print_(f"  cross-region per-GPU-hour ratios inside the {factor}x limit span "
                   f"{min(inside):.2f}-{max(inside):.2f} ({len(inside)} of {len(ratios)} "
                   "comparisons)")
    print_("== sizes (gzip -9)")
    defaults = [f"{p}/{index['providers'][p]['default_region']}.json" for p in build.PROVIDERS]
    for path in defaults:
        print_(f"  default {path}: {len(files[path].encode())} bytes, "
               f"{output.gzip_size(files[path])} gzipped")
    largest = max((p for p in files if p != "index.json"), key=lambda p: output.gzip_size(files[p]))
    print_(f"  largest {largest}: {len(files[largest].encode())} bytes, "
           f"{output.gzip_size(files[largest])} gzipped")
    print_(f"  index.json: {len(files['index.json'].encode())} bytes, "
           f"{output.gzip_size(files['index.json'])} gzipped")
    return hardware_report(results, known, catalog, overrides, print_)


def hardware_report(results, known, catalog, overrides, print_=print):
    mismatches, known_differences, missing = hardware.check(results, known, catalog, overrides)
    print_(f"== hardware facts (config/gpu_instances.json against the extracts): "
           f"{len(mismatches)} mismatches")
    for line in mismatches:
        print_(f"  MISMATCH {line}")
    for line in known_differences:
        print_(f"  known difference: {line}")
    for line in missing:
        print_(f"  {line}")
    return mismatches


def load_json(path):
    """One of gpufleet's own JSON files; a fault is a PipelineError naming path:line:col."""
    with open(path, encoding="utf-8") as handle:
        try:
            return json.load(handle)
        except json.JSONDecodeError as error:
            raise PipelineError(f"{path}:{error.lineno}:{error.colno}: expected JSON "
                                f"({error.msg})") from None


def read_texts(overrides, extracts=None, ref=None):
    texts = {}
    for provider in build.PROVIDERS:
        if ref is not None:
            url = download_urls(overrides, ref)[provider]
            texts[provider] = (upstream.fetch(url), url)
        else:
            name = overrides["providers"][provider]["extract"]
            path = os.path.join(extracts, name)
            texts[provider] = (upstream.read_extract(path, os.path.basename(path)),
                               os.path.basename(path))
    return texts


def main(argv=None):
    """The command: exit 0, 1 (--check-hardware found a mismatch) or 2 with one line on stderr
    saying where and what was expected (never a traceback for a refused input)."""
    try:
        return run(argv)
    except PipelineError as error:
        print(error, file=sys.stderr)
    except OSError as error:
        print(f"{error.filename or 'update-prices'}: {error.strerror or error}", file=sys.stderr)
    return 2


def run(argv=None):
    parser = argparse.ArgumentParser(
        prog="scripts/update-prices",
        description="Regenerate config/prices/ from the SkyPilot catalog CSVs (docs/prices.md).")
    parser.add_argument("--extracts", help="folder of the raw extracts (default: "
                        "../shared/data/prices beside the repository, when it exists)")
    parser.add_argument("--download", action="store_true", help="fetch the upstream files "
                        "from raw.githubusercontent.com instead of reading extracts")
    parser.add_argument("--ref", help="with --download: the skypilot-org/skypilot-catalog "
                        "commit (40 hex digits) to fetch")
    parser.add_argument("--date", help="with --download: the commit's date (YYYY-MM-DD) as "
                        "GitHub shows it; without it the snapshot date is 'unknown'")
    parser.add_argument("--spot-extracts", help="folder the spot feed's extract is found from "
                        "(overrides spot_bands.aws.extract is relative to it; default: --extracts)")
    parser.add_argument("--spot-date", help="with --download: the date the live Spot Instance "
                        "Advisor feed is as of (default: today, the day it is fetched)")
    parser.add_argument("--out", default=os.path.join(ROOT, "config", "prices"),
                        help="output folder (default config/prices)")
    parser.add_argument("--catalog", default=os.path.join(ROOT, "config", "gpu_instances.json"))
    parser.add_argument("--overrides",
                        default=os.path.join(ROOT, "config", "prices", "overrides.json"))
    parser.add_argument("--check-hardware", action="store_true", help="only compare the "
                        "catalog's hardware facts with the extracts; exit 1 on a mismatch")
    parser.add_argument("--print-urls", action="store_true",
                        help="print the --download addresses for --ref and exit")
    args = parser.parse_args(argv)

    overrides = load_json(args.overrides)
    catalog = load_json(args.catalog)
    ref = None
    if args.download or args.print_urls:
        if not args.ref or not re.fullmatch(r"[0-9a-f]{40}", args.ref):
            parser.error("--download needs --ref COMMIT: a full 40-hex commit of "
                         "skypilot-org/skypilot-catalog (see its commit list on GitHub)")
        if args.date and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.date):
            parser.error("--date takes YYYY-MM-DD")
        if args.print_urls:
            for provider, url in download_urls(overrides, args.ref).items():
                print(f"{provider}: {url}")
            return 0
        ref = args.ref
        texts = read_texts(overrides, ref=ref)
    else:
        extracts = args.extracts or DEFAULT_EXTRACTS
        if not os.path.isdir(extracts):
            parser.error(f"no extracts folder {extracts}: pass --extracts DIR, or --download "
                         "--ref COMMIT on a machine with internet")
        texts = read_texts(overrides, extracts=extracts)
    snapshots = snapshots_for(overrides, ref, args.date)
    if ref is not None:
        bands = read_bands(overrides, download=True, date=args.spot_date)
    else:
        bands = read_bands(overrides, extracts=args.spot_extracts or args.extracts or DEFAULT_EXTRACTS)
    files, results, known = generate(texts, catalog, overrides, snapshots, bands)
    if args.check_hardware:
        return 1 if hardware_report(results, known, catalog, overrides) else 0
    write(files, args.out)
    report(files, results, known, catalog, overrides)
    print(f"wrote {len(files)} files to {os.path.relpath(args.out, ROOT)}")
    return 0
