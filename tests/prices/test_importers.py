"""The upstream readers: headers, numbers, GpuInfo, repeated rows, download addresses."""

import contextlib
import io
import unittest
from decimal import Decimal

from support import cli, fixture_texts, load, OVERRIDES_PATH, upstream


class ReadRows(unittest.TestCase):
    def test_reads_each_provider_format(self):
        texts = fixture_texts()
        aws = upstream.read_rows("aws", *texts["aws"])
        self.assertEqual(aws[0].instance_type, "g4dn.xlarge")
        self.assertEqual(aws[0].price, Decimal("0.526"))
        self.assertEqual(aws[0].zone, "use1-az1")
        gcp = upstream.read_rows("gcp", *texts["gcp"])
        accelerator = next(r for r in gcp if r.accelerator == "A100")
        self.assertEqual(accelerator.instance_type, "")
        self.assertEqual(accelerator.accelerator_count, Decimal(1))
        azure = upstream.read_rows("azure", *texts["azure"])
        self.assertEqual(azure[0].zone, "")           # Azure has no zone column
        self.assertEqual(azure[0].gpu_info, "T4")     # and GpuInfo repeats the name

    def test_gpu_info_is_a_python_literal(self):
        rows = upstream.read_rows("aws", *fixture_texts()["aws"])
        g6f = next(r for r in rows if r.instance_type == "g6f.2xlarge")
        self.assertEqual(g6f.accelerator_count, Decimal("0.25"))
        self.assertEqual(g6f.gpu_info["Gpus"][0]["GpuPartitionSize"], 0.25)
        self.assertEqual(upstream.gpu_memory_mib(g6f.gpu_info), 5722)

    def test_gpu_info_is_never_evaluated_as_code(self):
        text = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,"
                "SpotPrice,Region,AvailabilityZone,Arch\n"
                "x.large,T4,1,4,16,\"{'a': __import__('os')}\",1,0.5,us-east-1,use1-az1,x86_64\n")
        with self.assertRaisesRegex(upstream.UpstreamFormatError,
                                    r"^bad.csv:2:6: expected GpuInfo as a Python literal dict"):
            upstream.read_rows("aws", text, "bad.csv")

    def test_missing_column_names_the_file(self):
        with self.assertRaisesRegex(upstream.UpstreamFormatError,
                                    r"^bad.csv:1:9: expected .* \(missing SpotPrice\)"):
            upstream.read_rows("azure", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,"
                               "MemoryGiB,GpuInfo,Price,Region\n", "bad.csv")

    def test_bad_number_names_line_and_column(self):
        text = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,"
                "SpotPrice,Region,Generation\nStandard_X,T4,1,4,28,T4,abc,,eastus,V1\n")
        with self.assertRaisesRegex(upstream.UpstreamFormatError,
                                    r"^bad.csv:2:7: expected Price as a plain decimal"):
            upstream.read_rows("azure", text, "bad.csv")
        with self.assertRaisesRegex(upstream.UpstreamFormatError, r"^bad.csv:2:7: .* got '-1'"):
            upstream.read_rows("azure", text.replace("abc", "-1"), "bad.csv")

    def test_repeated_rows_are_dropped_and_conflicts_kept_apart(self):
        rows = upstream.read_rows("gcp", *fixture_texts()["gcp"])
        kept, dropped, conflicts = upstream.deduplicate(rows)
        self.assertEqual(dropped, 3)      # a2-highgpu-1g b, A100 b, tpu-v6e-1: repeated upstream
        self.assertEqual(conflicts, [])
        self.assertEqual(len(kept), len(rows) - 3)
        changed = rows + [upstream.Row(**{**rows[0].__dict__, "line": 99,
                                          "price": Decimal("1")})]
        self.assertEqual(upstream.deduplicate(changed)[2], [(2, 99)])


class Download(unittest.TestCase):
    def test_urls_name_the_upstream_files_at_the_ref(self):
        commit = "0123456789abcdef0123456789abcdef01234567"
        urls = cli.download_urls(load(OVERRIDES_PATH), commit)
        base = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/" + commit
        self.assertEqual(urls, {"aws": base + "/catalogs/v8/aws/vms.csv",
                                "azure": base + "/catalogs/v6/azure/vms.csv",
                                "gcp": base + "/catalogs/v8/gcp/vms.csv"})

    def test_a_downloaded_commit_gets_its_own_snapshot(self):
        commit = "0123456789abcdef0123456789abcdef01234567"
        overrides = load(OVERRIDES_PATH)
        snapshot = cli.snapshots_for(overrides, commit)["aws"]
        self.assertEqual(snapshot["commit"], commit)
        self.assertEqual(snapshot["date"], "unknown")
        dated = cli.snapshots_for(overrides, commit, "2026-11-01")["gcp"]
        self.assertEqual(dated["date"], "2026-11-01")

    def test_download_needs_a_full_commit(self):
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            cli.main(["--download", "--ref", "master"])
        self.assertIn("--download needs --ref COMMIT", err.getvalue())


if __name__ == "__main__":
    unittest.main()
