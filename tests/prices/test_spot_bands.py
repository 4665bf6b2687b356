"""Spot interruption bands: the Spot Instance Advisor feed read into the AWS price files; Azure
and Google say unknown, never AWS's bands."""

import json
import os
import unittest

from support import EXTRACTS, OVERRIDES_PATH, ROOT, build, cli, load, run_fixtures
from price_pipeline import spot_bands
from price_pipeline.errors import PipelineError

FEED = {"ranges": [{"index": 0, "label": "<5%"}, {"index": 1, "label": "5-10%"},
                   {"index": 4, "label": ">20%"}],
        "spot_advisor": {"us-east-1": {"Linux": {"p4d.24xlarge": {"s": 70, "r": 1},
                                                 "g5.xlarge": {"s": 60, "r": 4}},
                                       "Windows": {"g5.xlarge": {"s": 1, "r": 0}}}}}


class Parse(unittest.TestCase):
    def test_labels_become_intervals(self):
        self.assertEqual(spot_bands.band_of("<5%", "x"), (0, 5))
        self.assertEqual(spot_bands.band_of("5-10%", "x"), (5, 10))
        self.assertEqual(spot_bands.band_of(">20%", "x"), (20, 100))

    def test_linux_rows_only(self):
        bands = spot_bands.parse(json.dumps(FEED), "feed.json")
        self.assertEqual(bands["us-east-1"]["g5.xlarge"], {"label": ">20%", "low_pct": 20, "high_pct": 100})
        self.assertEqual(bands["us-east-1"]["p4d.24xlarge"]["label"], "5-10%")

    def test_faults_name_the_place(self):
        bad = json.loads(json.dumps(FEED))
        bad["spot_advisor"]["us-east-1"]["Linux"]["g5.xlarge"]["r"] = 9
        with self.assertRaisesRegex(PipelineError, "us-east-1/Linux/g5.xlarge/r"):
            spot_bands.parse(json.dumps(bad), "feed.json")
        bad = json.loads(json.dumps(FEED))
        bad["ranges"][0]["label"] = "often"
        with self.assertRaisesRegex(PipelineError, "/ranges/0/label"):
            spot_bands.parse(json.dumps(bad), "feed.json")
        with self.assertRaisesRegex(PipelineError, "expected JSON"):
            spot_bands.parse("{", "feed.json")


class Documents(unittest.TestCase):
    def test_aws_offers_carry_bands_and_others_say_unknown(self):
        overrides = load(OVERRIDES_PATH)
        bands = (spot_bands.parse(json.dumps(FEED), "feed.json"), spot_bands.meta(overrides))
        aws = build.region_document("aws", "us-east-1", {"g5.xlarge": {"zones": 1}, "p5.48xlarge": {}},
                                    {}, build.spot_bands_for("aws", "us-east-1", bands, overrides))
        self.assertEqual(aws["offers"]["g5.xlarge"]["interruption_band"]["high_pct"], 100)
        self.assertNotIn("interruption_band", aws["offers"]["p5.48xlarge"])
        self.assertEqual(aws["spot_bands"]["as_of"], "2025-06-28")
        for provider in ("gcp", "azure"):
            doc = build.region_document(provider, "r", {"x": {}}, {},
                                        build.spot_bands_for(provider, "r", bands, overrides))
            self.assertEqual(doc["spot_bands"]["as_of"], "unknown")
            self.assertNotIn("interruption_band", doc["offers"]["x"])

    def test_download_is_dated_the_day_fetched(self):
        meta = spot_bands.meta(load(OVERRIDES_PATH), "2026-11-28")
        self.assertEqual(meta["as_of"], "2026-11-28")
        self.assertIn(spot_bands.FEED_URL, meta["source"])

    @unittest.skipUnless(os.path.isdir(EXTRACTS), "no ../shared/data")
    def test_committed_files_have_the_feed_bands(self):
        doc = load(os.path.join(ROOT, "config", "prices", "aws", "us-west-2.json"))
        self.assertEqual(doc["spot_bands"]["as_of"], "2025-06-28")
        self.assertEqual(doc["offers"]["g5.xlarge"]["interruption_band"]["label"], ">20%")


if __name__ == "__main__":
    unittest.main()
