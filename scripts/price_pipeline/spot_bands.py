"""Spot interruption bands: the AWS Spot Instance Advisor feed (spot-advisor-data.json) read
into one band per (region, instance type), written into the AWS price files as each offer's
`interruption_band` {low_pct, high_pct, label} with the file's `spot_bands` {source, as_of, ...}.
Azure and Google publish no such figures for anyone to read without signing in: their files
say "unknown", never AWS's bands (../shared/data/spot/SOURCES.md)."""

import datetime
import json
import re

from .errors import PipelineError

FEED_URL = "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json"
MAX_FEED_BYTES = 32 * 1024 * 1024
LABEL = re.compile(r"^(?:<(\d+)%|(\d+)-(\d+)%|>(\d+)%)$")
UNKNOWN = {
    "gcp": "Google Cloud publishes no spot interruption rates: unknown (AWS's bands are not borrowed)",
    "azure": "Azure publishes eviction-rate bands only through an authenticated Resource Graph "
             "query: unknown here (AWS's bands are not borrowed)",
}


def band_of(label, name):
    """'<5%' -> (0, 5); '5-10%' -> (5, 10); '>20%' -> (20, 100)."""
    m = LABEL.match(label or "")
    if not m:
        raise PipelineError(f"{name}: expected a band label such as <5%, 5-10% or >20%, got {label!r}")
    if m.group(1):
        return 0, int(m.group(1))
    if m.group(2):
        low, high = int(m.group(2)), int(m.group(3))
        if low >= high:
            raise PipelineError(f"{name}: expected a band's low below its high, got {label!r}")
        return low, high
    return int(m.group(4)), 100


def parse(text, name):
    """region -> instance type -> {low_pct, high_pct, label} (Linux rows)."""
    if len(text) > MAX_FEED_BYTES:
        raise PipelineError(f"{name}: expected at most {MAX_FEED_BYTES} bytes")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise PipelineError(f"{name}:{error.lineno}:{error.colno}: expected JSON ({error.msg})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("ranges"), list) \
            or not isinstance(doc.get("spot_advisor"), dict):
        raise PipelineError(f"{name}: expected the Spot Instance Advisor feed's shape "
                            "{ranges: [...], spot_advisor: {REGION: {Linux: {TYPE: {s, r}}}}}")
    bands = {}
    for i, entry in enumerate(doc["ranges"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("index"), int) \
                or not isinstance(entry.get("label"), str):
            raise PipelineError(f"{name}: /ranges/{i}: expected {{index, label}}")
        low, high = band_of(entry["label"], f"{name}: /ranges/{i}/label")
        bands[entry["index"]] = {"label": entry["label"], "low_pct": low, "high_pct": high}
    out = {}
    for region, systems in doc["spot_advisor"].items():
        if not re.fullmatch(r"[a-z0-9-]{2,40}", region) or not isinstance(systems, dict):
            raise PipelineError(f"{name}: /spot_advisor/{region}: expected a region name "
                                "holding {Linux: {...}}")
        linux = systems.get("Linux", {})
        if not isinstance(linux, dict):
            raise PipelineError(f"{name}: /spot_advisor/{region}/Linux: expected an object")
        for itype, row in linux.items():
            path = f"{name}: /spot_advisor/{region}/Linux/{itype}"
            if not isinstance(row, dict) or row.get("r") not in bands:
                raise PipelineError(f"{path}/r: expected one of the band indices {sorted(bands)}")
            out.setdefault(region, {})[itype] = dict(bands[row["r"]])
    return out


def meta(overrides, downloaded_on=None):
    """The AWS files' spot_bands object: where the bands come from and as of when."""
    cfg = dict(overrides["spot_bands"]["aws"])
    cfg.pop("extract", None)
    if downloaded_on is not None:
        cfg["source"] = f"AWS Spot Instance Advisor feed {FEED_URL}"
        cfg["as_of"] = downloaded_on
        cfg["as_of_source"] = ("the day scripts/update-prices --download fetched the live feed "
                               "(the feed carries no date of its own)")
    return cfg


def today():
    return datetime.date.today().isoformat()
