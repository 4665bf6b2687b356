"""Shared helpers for the price pipeline tests: paths, and running the pipeline in memory."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(HERE, "fixtures")
EXTRACTS = os.path.join(os.path.dirname(ROOT), "shared", "data", "prices")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from price_pipeline import build, cli, spot_bands, upstream  # noqa: E402,F401

OVERRIDES_PATH = os.path.join(ROOT, "config", "prices", "overrides.json")
FIXTURE_FILES = {"aws": "aws_vms.csv", "gcp": "gcp_vms.csv", "azure": "azure_vms.csv"}


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def fixture_texts():
    texts = {}
    for provider, name in FIXTURE_FILES.items():
        with open(os.path.join(FIXTURES, name), encoding="utf-8", newline="") as handle:
            texts[provider] = (handle.read(), name)
    return texts


def run_fixtures(overrides=None):
    """(files, results, known, documents) for the fixture CSVs and catalog with the real
    overrides; documents maps each written path to its parsed JSON."""
    overrides = overrides or load(OVERRIDES_PATH)
    catalog = load(os.path.join(FIXTURES, "gpu_instances.json"))
    with open(os.path.join(FIXTURES, "spot-advisor-data.json"), encoding="utf-8") as handle:
        bands = (spot_bands.parse(handle.read(), "spot-advisor-data.json"), spot_bands.meta(overrides))
    files, results, known = cli.generate(fixture_texts(), catalog, overrides,
                                         cli.snapshots_for(overrides), bands)
    return files, results, known, {p: json.loads(t) for p, t in files.items()}


def offer(documents, provider, region, name):
    return documents[f"{provider}/{region}.json"]["offers"][name]


def codes(offer_dict):
    return [a["code"] for a in offer_dict.get("anomalies", [])]
