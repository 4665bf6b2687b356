"""Offers built from the fixture CSVs (tests/prices/fixtures/, written in the upstream's
formats): one test per fault the upstream files show."""

import json
import os
import tempfile
import unittest

from support import build, cli, codes, FIXTURES, load, offer, OVERRIDES_PATH, run_fixtures

FILES, RESULTS, KNOWN, DOCS = run_fixtures()


class Aws(unittest.TestCase):
    def test_cheapest_zone_below_on_demand_with_zone_count_and_median(self):
        g5 = offer(DOCS, "aws", "us-east-1", "g5.xlarge")
        self.assertEqual(g5["on_demand_cost_per_hour"], 1.006)
        self.assertEqual(g5["spot_cost_per_hour"], 0.4246)
        self.assertEqual(g5["zones"], 4)
        self.assertEqual(g5["spot_zones"], 3)      # use1-az6: spot == on-demand, no capacity
        self.assertEqual(g5["spot_median_cost_per_hour"], 0.436)
        self.assertIn("no spot capacity", g5["notes"])
        self.assertNotIn("anomalies", g5)

    def test_each_region_has_its_own_price(self):
        self.assertEqual(offer(DOCS, "aws", "eu-west-1", "g5.xlarge")["on_demand_cost_per_hour"],
                         1.123)
        self.assertEqual(offer(DOCS, "aws", "us-east-1", "g4dn.xlarge")["on_demand_cost_per_hour"],
                         0.526)

    def test_spot_equal_to_on_demand_everywhere_is_no_capacity_not_an_anomaly(self):
        p5 = offer(DOCS, "aws", "us-east-1", "p5.48xlarge")
        self.assertNotIn("spot_cost_per_hour", p5)
        self.assertNotIn("anomalies", p5)
        self.assertIn("no spot capacity", p5["notes"])

    def test_spot_written_with_fewer_decimals_is_compared_at_its_precision(self):
        # 8.22609 on-demand, 8.226100 spot: equal at the spot column's 4 decimals.
        g5 = offer(DOCS, "aws", "ap-northeast-1", "g5.12xlarge")
        self.assertEqual(g5["spot_cost_per_hour"], 2.5)
        self.assertEqual(g5["spot_zones"], 1)
        self.assertNotIn("anomalies", g5)

    def test_empty_prices_leave_the_fields_out_with_a_note(self):
        p5e = offer(DOCS, "aws", "us-east-2", "p5e.48xlarge")
        self.assertNotIn("on_demand_cost_per_hour", p5e)
        self.assertIn("No on-demand price", p5e["notes"])
        self.assertEqual(p5e["spot_cost_per_hour"], 18.7359)   # priced on spot: kept
        self.assertIn("no on-demand price to check it against", p5e["notes"])
        self.assertNotIn("null", FILES["aws/us-east-2.json"])

    def test_local_zones_are_left_out(self):
        # use1-atl2-az1 (an opt-in Local Zone) lists spot at 0.05: not the region's price.
        g4dn = offer(DOCS, "aws", "us-east-1", "g4dn.xlarge")
        self.assertEqual(g4dn["spot_cost_per_hour"], 0.2)
        self.assertEqual(g4dn["zones"], 1)

    def test_missing_spot(self):
        trn1 = offer(DOCS, "aws", "us-east-1", "trn1.2xlarge")
        self.assertEqual(trn1["on_demand_cost_per_hour"], 1.34375)
        self.assertNotIn("spot_cost_per_hour", trn1)
        self.assertIn("No spot price upstream", trn1["notes"])

    def test_cross_region_price_far_below_the_other_regions(self):
        low = offer(DOCS, "aws", "ap-south-1", "p4d.24xlarge")
        self.assertEqual(codes(low), ["cross_region_price"])
        self.assertIn("1.12 per GPU-hour", low["anomalies"][0]["detail"])
        for region in ("us-east-1", "us-west-2", "eu-west-1", "ap-northeast-1"):
            self.assertNotIn("anomalies", offer(DOCS, "aws", region, "p4d.24xlarge"))

    def test_fractional_accelerator_counts(self):
        quotes = RESULTS["aws"].quotes
        self.assertEqual(str(quotes[("g6f.2xlarge", "us-east-1")][0].gpus), "0.25")
        self.assertEqual(str(quotes[("g6f.4xlarge", "us-east-1")][0].gpus), "0.5")
        self.assertEqual(offer(DOCS, "aws", "us-east-1", "g6f.2xlarge")["on_demand_cost_per_hour"],
                         0.475)
        self.assertIn("g6f.large", RESULTS["aws"].unmapped)    # 0.125: not in the catalog

    def test_fargate_from_the_sourced_rates(self):
        fargate = offer(DOCS, "aws", "us-east-1", "fargate-4vcpu-16gb")
        # 4 x 0.04048 + 16 x 0.004445 = 0.16192 + 0.07112, added as decimals.
        self.assertEqual(fargate["on_demand_cost_per_hour"], 0.23304)
        self.assertIn("source", fargate)
        self.assertNotIn("fargate-4vcpu-16gb", DOCS["aws/us-west-2.json"]["offers"])

    def test_unmapped_names_only_sorted(self):
        self.assertEqual(RESULTS["aws"].unmapped, ["dl2q.24xlarge", "g4ad.xlarge", "g6f.large"])
        self.assertEqual(DOCS["index.json"]["providers"]["aws"]["unmapped"],
                         RESULTS["aws"].unmapped)   # m5.2xlarge: a CPU size, not an accelerator


class Gcp(unittest.TestCase):
    def test_host_plus_accelerator_of_the_same_zone(self):
        a2 = offer(DOCS, "gcp", "us-central1", "a2-highgpu-1g")
        self.assertEqual(a2["on_demand_cost_per_hour"], 3.67339)
        self.assertEqual(a2["on_demand_parts"], {"host": 0.73948, "accelerators": 2.93391})
        self.assertEqual(a2["spot_cost_per_hour"], 1.80385)
        self.assertEqual(a2["zones"], 2)            # the repeated b rows count once

    def test_n1_with_attached_gpus_is_named_like_the_catalog(self):
        n1 = offer(DOCS, "gcp", "us-central1", "n1-standard-8+4xT4")
        self.assertEqual(n1["on_demand_cost_per_hour"], 1.78)
        self.assertEqual(n1["spot_cost_per_hour"], 0.80446)
        self.assertEqual(RESULTS["gcp"].unmapped, ["P4", "a4-highgpu-8g"])

    def test_spot_above_on_demand_in_a_composed_row(self):
        ultra = offer(DOCS, "gcp", "us-central1", "a2-ultragpu-1g")
        self.assertIn("spot_not_below_on_demand", codes(ultra))
        self.assertIn("accelerator row A100-80GB x1: spot 1.964 vs on-demand 1.8462",
                      ultra["anomalies"][0]["detail"])
        self.assertNotIn("spot_cost_per_hour", ultra)
        self.assertIn("marked_anomaly", codes(ultra))   # overrides.json marks it too

    def test_sentinel_price(self):
        v100 = offer(DOCS, "gcp", "us-central1", "n1-standard-8+1xV100")
        self.assertEqual(codes(v100), ["sentinel_price"])
        self.assertIn("700", v100["anomalies"][0]["detail"])
        self.assertNotIn("on_demand_cost_per_hour", v100)
        self.assertNotIn("spot_cost_per_hour", v100)
        self.assertIn("placeholder", v100["notes"])

    def test_cross_region_h100(self):
        a3 = offer(DOCS, "gcp", "us-central1", "a3-highgpu-8g")
        self.assertEqual(codes(a3), ["cross_region_price"])
        for region in ("us-east4", "europe-west4", "asia-east1", "europe-west1"):
            self.assertNotIn("anomalies", offer(DOCS, "gcp", region, "a3-highgpu-8g"))

    def test_missing_spot_in_a_composed_row(self):
        a3 = offer(DOCS, "gcp", "europe-west1", "a3-highgpu-8g")
        self.assertNotIn("spot_cost_per_hour", a3)
        self.assertIn("No spot price upstream", a3["notes"])

    def test_tpu_rows_are_out_of_scope(self):
        self.assertEqual(DOCS["index.json"]["providers"]["gcp"]["out_of_scope"],
                         ["TPU: 1 types (2 rows) are out of scope"])


class Azure(unittest.TestCase):
    def test_region_rows_without_zones(self):
        t4 = offer(DOCS, "azure", "eastus", "Standard_NC4as_T4_v3")
        self.assertEqual(t4, {"on_demand_cost_per_hour": 0.526, "spot_cost_per_hour": 0.062699})

    def test_spot_equal_to_on_demand_is_unknown(self):
        h100 = offer(DOCS, "azure", "eastus", "Standard_ND96isr_H100_v5")
        self.assertEqual(h100["on_demand_cost_per_hour"], 98.32)
        self.assertNotIn("spot_cost_per_hour", h100)
        self.assertIn("spot price is unknown", h100["notes"])

    def test_accelerator_count_correction(self):
        quotes = RESULTS["azure"].quotes[("Standard_ND96isr_H100_v5", "eastus")]
        self.assertEqual(int(quotes[0].gpus), 8)       # upstream says 12

    def test_empty_prices(self):
        nc8 = offer(DOCS, "azure", "westus", "Standard_NC8as_T4_v3")
        self.assertEqual(set(nc8), {"notes"})
        self.assertEqual(RESULTS["azure"].unmapped, ["Standard_NV4as_v4"])


class HardwareCheck(unittest.TestCase):
    def test_fixture_catalog_matches_and_t4_difference_is_known(self):
        from support import build as _build  # noqa: F401
        from price_pipeline import hardware
        catalog = load(os.path.join(FIXTURES, "gpu_instances.json"))
        mismatches, known, _ = hardware.check(RESULTS, KNOWN, catalog, load(OVERRIDES_PATH))
        self.assertEqual(mismatches, [])
        self.assertTrue(any("g4dn.xlarge" in line and "16384 MiB in AWS GpuInfo" in line
                            for line in known))

    def test_a_wrong_vcpu_count_is_reported(self):
        from price_pipeline import hardware
        catalog = load(os.path.join(FIXTURES, "gpu_instances.json"))
        catalog["gpu_instances"]["G5"]["sizes"]["g5.xlarge"]["vcpus"] = 8
        known = build.known_instances(catalog)
        mismatches, _, _ = hardware.check(RESULTS, known, catalog, load(OVERRIDES_PATH))
        self.assertEqual(mismatches, ["aws g5.xlarge: vcpus 8 in the catalog, 4 upstream"])


class Output(unittest.TestCase):
    def test_run_twice_gives_the_same_bytes(self):
        again = run_fixtures()[0]
        self.assertEqual(FILES, again)
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            cli.write(FILES, a)
            cli.write(again, b)
            for path in FILES:
                with open(os.path.join(a, path), "rb") as x, open(os.path.join(b, path), "rb") as y:
                    self.assertEqual(x.read(), y.read(), path)

    def test_format(self):
        for path, text in FILES.items():
            self.assertTrue(text.endswith("}\n"), path)
            document = json.loads(text)
            self.assertEqual(text, json.dumps(document, indent=1, sort_keys=True,
                                              ensure_ascii=False) + "\n", path)
        index = DOCS["index.json"]
        self.assertEqual(index["generated_by"], "scripts/update-prices")
        aws = index["providers"]["aws"]
        self.assertEqual(aws["default_region"], "us-east-1")
        self.assertEqual(aws["regions"]["us-east-1"]["file"], "aws/us-east-1.json")
        self.assertRegex(aws["snapshot"]["commit"], "^[0-9a-f]{40}$")
        document = DOCS["aws/us-east-1.json"]
        self.assertEqual(document["snapshot"], aws["snapshot"])
        self.assertIn("cheapest zone", document["spot_statistic"])

    def test_write_removes_region_files_of_earlier_runs(self):
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, "aws"))
            stale = os.path.join(out, "aws", "xx-gone-1.json")
            with open(stale, "w") as handle:
                handle.write("{}\n")
            cli.write(FILES, out)
            self.assertFalse(os.path.exists(stale))


if __name__ == "__main__":
    unittest.main()
