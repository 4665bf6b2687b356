"""The committed config/prices/ against the raw extracts in ../shared/data/prices/ (skipped
with a message where that folder is absent): regenerating gives the same bytes, the hand checks
of SOURCES.md hold, and every offer the extracts price on spot has its spot price."""

import json
import os
import tempfile
import unittest
from decimal import ROUND_HALF_UP, Decimal

from support import (EXTRACTS, OVERRIDES_PATH, ROOT, build, cli, codes, load, upstream)

PRICES = os.path.join(ROOT, "config", "prices")
HAVE_EXTRACTS = os.path.isdir(EXTRACTS)
WHY = f"no raw extracts at {os.path.relpath(EXTRACTS, ROOT)} (../shared/data/prices)"


def committed(path):
    with open(os.path.join(PRICES, path), encoding="utf-8") as handle:
        return json.load(handle)


@unittest.skipUnless(HAVE_EXTRACTS, WHY)
class Regenerate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.overrides = load(OVERRIDES_PATH)
        cls.catalog = load(os.path.join(ROOT, "config", "gpu_instances.json"))
        cls.texts = cli.read_texts(cls.overrides, extracts=EXTRACTS)
        cls.bands = cli.read_bands(cls.overrides, extracts=EXTRACTS)
        cls.files, cls.results, cls.known = cli.generate(
            cls.texts, cls.catalog, cls.overrides, cli.snapshots_for(cls.overrides), cls.bands)

    def test_committed_files_are_what_the_pipeline_writes(self):
        with tempfile.TemporaryDirectory() as out:
            cli.write(self.files, out)
            ours = sorted(os.path.relpath(os.path.join(d, f), out)
                          for d, _, names in os.walk(out) for f in names)
            theirs = sorted(os.path.relpath(os.path.join(d, f), PRICES)
                            for d, _, names in os.walk(PRICES) for f in names
                            if f != "overrides.json")
            self.assertEqual(ours, theirs, "run scripts/update-prices and commit config/prices/")
            for path in ours:
                with open(os.path.join(out, path), "rb") as a, \
                        open(os.path.join(PRICES, path), "rb") as b:
                    self.assertEqual(a.read(), b.read(),
                                     f"config/prices/{path} differs from what scripts/"
                                     "update-prices writes: run it and commit the result")

    def test_run_twice_gives_the_same_bytes(self):
        again = cli.generate(self.texts, self.catalog, self.overrides,
                             cli.snapshots_for(self.overrides), self.bands)[0]
        self.assertEqual(self.files, again)

    def test_every_offer_priced_on_spot_upstream_has_its_spot_price(self):
        """Independently of the pipeline's own classification: an (instance type, region)
        whose rows hold a spot price below on-demand (AWS: at the spot column's 4 decimals;
        GCP: in both rows composed) must carry spot_cost_per_hour."""
        expected = set()
        for provider in ("aws", "azure"):
            rows = upstream.read_rows(provider, *self.texts[provider])
            for row in rows:
                if row.instance_type not in self.known[provider] or not row.spot_price:
                    continue
                price = row.price
                if price is not None and provider == "aws":
                    price = price.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
                if price is None or row.spot_price < price:
                    expected.add((provider, row.instance_type, row.region))
        rows = upstream.read_rows("gcp", *self.texts["gcp"])
        accelerators = {(r.accelerator, r.accelerator_count, r.zone): r for r in rows
                        if not r.instance_type}
        for name in self.known["gcp"]:
            host, accelerator, count = build.gcp_rule(name, self.overrides)
            for row in rows:
                acc = accelerators.get((accelerator, count, row.zone))
                if row.instance_type != host or acc is None:
                    continue
                if all(r.spot_price is not None and r.price is not None
                       and r.spot_price < r.price for r in (row, acc)):
                    expected.add(("gcp", name, row.region))
        self.assertGreater(len(expected), 900)
        missing = [e for e in sorted(expected)
                   if "spot_cost_per_hour" not in committed(f"{e[0]}/{e[2]}.json")["offers"][e[1]]]
        self.assertEqual(missing, [])


class HandChecks(unittest.TestCase):
    """SOURCES.md's checks, read from the committed files (no extracts needed)."""

    def offer(self, provider, region, name):
        return committed(f"{provider}/{region}.json")["offers"][name]

    def test_sources_md_checks(self):
        self.assertEqual(self.offer("aws", "us-east-1", "g4dn.xlarge")["on_demand_cost_per_hour"],
                         0.526)
        self.assertEqual(self.offer("aws", "us-east-1", "g5.xlarge")["on_demand_cost_per_hour"],
                         1.006)
        self.assertEqual(self.offer("aws", "eu-west-1", "g5.xlarge")["on_demand_cost_per_hour"],
                         1.123)
        self.assertEqual(self.offer("aws", "us-east-1", "p5.48xlarge")["on_demand_cost_per_hour"],
                         55.04)
        self.assertEqual(self.offer("aws", "us-east-1", "p4d.24xlarge")["on_demand_cost_per_hour"],
                         21.957642)
        self.assertEqual(self.offer("gcp", "us-central1", "a2-highgpu-1g")[
            "on_demand_cost_per_hour"], 3.67339)
        nc4 = self.offer("azure", "eastus", "Standard_NC4as_T4_v3")
        self.assertEqual((nc4["on_demand_cost_per_hour"], nc4["spot_cost_per_hour"]),
                         (0.526, 0.062699))
        self.assertEqual(self.offer("azure", "eastus", "Standard_NC24ads_A100_v4")[
            "on_demand_cost_per_hour"], 3.673)
        self.assertEqual(self.offer("azure", "eastus", "Standard_ND96asr_v4")[
            "on_demand_cost_per_hour"], 27.197)

    def test_gcp_anomalies(self):
        self.assertIn("cross_region_price", codes(self.offer("gcp", "us-central1", "a3-highgpu-8g")))
        for size in ("1g", "2g", "4g", "8g"):
            ultra = self.offer("gcp", "us-central1", "a2-ultragpu-" + size)
            self.assertIn("marked_anomaly", codes(ultra))
            self.assertIn("spot_not_below_on_demand", codes(ultra))
        self.assertNotIn("anomalies", self.offer("gcp", "us-east4", "a3-highgpu-8g"))

    def test_fargate(self):
        self.assertEqual(self.offer("aws", "us-east-1", "fargate-4vcpu-16gb")[
            "on_demand_cost_per_hour"], 0.23304)

    def test_index_lists_every_region_file(self):
        index = committed("index.json")
        for provider, entry in index["providers"].items():
            self.assertIn(entry["default_region"], entry["regions"])
            for region, summary in entry["regions"].items():
                document = committed(summary["file"])
                self.assertEqual((document["provider"], document["region"]), (provider, region))
                self.assertEqual(len(document["offers"]), summary["offers"])


if __name__ == "__main__":
    unittest.main()
