"""scripts/update-prices writes all or nothing, only inside its output folder, and a refused run
exits 2 with one line "FILE:LINE:COL: expected ..." and no traceback."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import FIXTURE_FILES, FIXTURES, OVERRIDES_PATH, ROOT, cli, load, run_fixtures
from price_pipeline.errors import PipelineError

PRICES = os.path.join(ROOT, "config", "prices")
FIXTURE_CATALOG = os.path.join(FIXTURES, "gpu_instances.json")
SCRIPT = os.path.join(ROOT, "scripts", "update-prices")


def snapshot(folder):
    """Every entry under folder: relative path -> bytes (files), 'dir' or 'link -> target'."""
    out = {}
    for where, dirs, files in os.walk(folder):
        for name in dirs + files:
            full = os.path.join(where, name)
            rel = os.path.relpath(full, folder)
            if os.path.islink(full):
                out[rel] = "link -> " + os.readlink(full)
            elif os.path.isdir(full):
                out[rel] = "dir"
            else:
                with open(full, "rb") as handle:
                    out[rel] = handle.read()
    return out


class Scratch(unittest.TestCase):
    """A temporary copy of config/prices (out) and the fixture CSVs under the extracts' names."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="prices-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.parent = os.path.join(self.tmp, "config")
        self.out = os.path.join(self.parent, "prices")
        shutil.copytree(PRICES, self.out)
        self.extracts = os.path.join(self.tmp, "extracts")
        os.mkdir(self.extracts)
        overrides = load(OVERRIDES_PATH)
        self.names = {p: overrides["providers"][p]["extract"] for p in FIXTURE_FILES}
        for provider, fixture in FIXTURE_FILES.items():
            shutil.copy(os.path.join(FIXTURES, fixture), self.extract(provider))
        # The spot feed's extract sits beside the price extracts' folder (overrides spot_bands).
        os.mkdir(os.path.join(self.tmp, "spot"))
        shutil.copy(os.path.join(FIXTURES, "spot-advisor-data.json"),
                    os.path.join(self.tmp, "spot", "spot-advisor-data.json"))

    def extract(self, provider):
        return os.path.join(self.extracts, self.names[provider])

    def main(self, *extra):
        """(exit status, stderr) of the command run in this process."""
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            status = cli.main(["--extracts", self.extracts, "--catalog", FIXTURE_CATALOG,
                               "--out", self.out, *extra])
        return status, err.getvalue()

    def assertNothingBeside(self):
        self.assertEqual(os.listdir(self.parent), ["prices"], "a staging folder was left")


class AllOrNothing(Scratch):
    def test_a_run_whose_second_provider_cannot_be_written_leaves_the_folder_byte_identical(self):
        # azure (the second provider written) finds a folder where its default region's file
        # goes; aws's files were already different (the fixtures' prices).
        blocked = os.path.join(self.out, "azure", "eastus.json")
        os.remove(blocked)
        os.makedirs(os.path.join(blocked, "inside"))
        before = snapshot(self.out)
        status, err = self.main()
        self.assertEqual(status, 2)
        self.assertRegex(err, r"^\S*/prices/azure/eastus.json: expected a writable file, got .* "
                              r"\(nothing was changed\)\n$")
        self.assertEqual(snapshot(self.out), before)
        self.assertNothingBeside()

    def test_a_run_whose_second_provider_is_refused_leaves_the_folder_byte_identical(self):
        with open(self.extract("azure"), encoding="utf-8") as handle:
            header = handle.readline()
        with open(self.extract("azure"), "w", encoding="utf-8") as handle:
            handle.write(header)
        before = snapshot(self.out)
        status, err = self.main()
        self.assertEqual((status, err), (2, "skypilot_azure_gpu_vms.csv:2:1: expected data rows "
                                            "after the azure header, found none\n"))
        self.assertEqual(snapshot(self.out), before)
        self.assertNothingBeside()

    def test_a_run_that_succeeds_replaces_the_folder_and_keeps_what_it_does_not_write(self):
        status, err = self.main()
        self.assertEqual((status, err), (0, ""))
        files = run_fixtures()[0]
        after = snapshot(self.out)
        for path, text in files.items():
            self.assertEqual(after[path], text.encode("utf-8"), path)
        with open(OVERRIDES_PATH, "rb") as handle:
            self.assertEqual(after["overrides.json"], handle.read())
        self.assertNotIn("aws/af-south-1.json", after, "a region file of an earlier run stays")
        self.assertNothingBeside()

    def test_a_new_output_folder_is_made(self):
        shutil.rmtree(self.out)
        self.assertEqual(self.main(), (0, ""))
        self.assertEqual(sorted(os.listdir(self.out)), ["aws", "azure", "gcp", "index.json"])
        self.assertNothingBeside()


class Inside(Scratch):
    def test_paths_are_resolved_and_compared_before_writing(self):
        for path in ("../x.json", "aws/../../x.json", "/etc/passwd", ".", "aws/../.."):
            with self.assertRaisesRegex(PipelineError, "expected a path inside the output folder"):
                cli.inside(self.out, path)
        self.assertEqual(cli.inside(self.out, "aws/../index.json"),
                         os.path.join(os.path.realpath(self.out), "index.json"))

    def test_a_file_generated_with_a_path_outside_is_never_written(self):
        files = dict(run_fixtures()[0])
        files["aws/../../escaped.json"] = "{}\n"
        before = snapshot(self.tmp)
        with self.assertRaisesRegex(PipelineError, r"^aws/\.\./\.\./escaped.json: expected a path "
                                                   "inside the output folder"):
            cli.write(files, self.out)
        self.assertEqual(snapshot(self.tmp), before)

    def test_links_in_the_output_folder_that_lead_outside_are_refused(self):
        outside = os.path.join(self.tmp, "outside")
        os.mkdir(outside)
        with open(os.path.join(outside, "keep.json"), "w") as handle:
            handle.write("precious\n")
        region = os.path.join(self.out, "aws", "us-east-1.json")
        os.remove(region)
        os.symlink(os.path.join(outside, "keep.json"), region)
        before = snapshot(self.tmp)
        status, err = self.main()
        self.assertEqual(status, 2)
        self.assertRegex(err, r"^aws/us-east-1.json: expected a path inside the output folder")
        self.assertEqual(snapshot(self.tmp), before)
        # A provider folder that is a link to elsewhere: the same.
        os.remove(region)
        shutil.rmtree(os.path.join(self.out, "gcp"))
        os.symlink(outside, os.path.join(self.out, "gcp"))
        before = snapshot(self.tmp)
        self.assertEqual(self.main()[0], 2)
        self.assertEqual(snapshot(self.tmp), before)


class Command(Scratch):
    def run_script(self, *args):
        result = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                                timeout=60)
        return result.returncode, result.stderr

    def test_a_refused_input_is_one_line_without_a_traceback(self):
        faults = {
            "aws": ("g4dn.xlarge,T4,1.0,4.0,16.0,,1e400,,us-east-1,use1-az1,x86_64\n",
                    "skypilot_aws_gpu_vms.csv:28:7: expected Price as a plain decimal number"),
            "gcp": ("a2-highgpu-1g,12.0,85.0,,,,../../etc,us-central1-a,0.7,0.3\n",
                    "skypilot_gcp_gpu_vms.csv:28:7: expected a Region name"),
        }
        for provider, (line, expected) in faults.items():
            with open(self.extract(provider), "a", encoding="utf-8") as handle:
                handle.write(line)
            before = snapshot(self.out)
            status, err = self.run_script("--extracts", self.extracts, "--catalog",
                                          FIXTURE_CATALOG, "--out", self.out)
            self.assertEqual(status, 2, err)
            self.assertTrue(err.startswith(expected), err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertNotIn("Traceback", err)
            self.assertEqual(snapshot(self.out), before)
            shutil.copy(os.path.join(FIXTURES, FIXTURE_FILES[provider]), self.extract(provider))

    def test_unreadable_inputs_are_one_line_too(self):
        with open(self.extract("gcp"), "ab") as handle:
            handle.write(b"a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.7\xe9,0.3\n")
        self.assertEqual(self.main(), (2, "skypilot_gcp_gpu_vms.csv:28:57: expected UTF-8 text, "
                                          "got byte 0xe9 (invalid continuation byte)\n"))
        os.remove(self.extract("gcp"))
        status, err = self.main()
        self.assertEqual((status, err), (2, f"{self.extract('gcp')}: No such file or directory\n"))
        bad = os.path.join(self.tmp, "overrides.json")
        with open(bad, "w") as handle:
            handle.write('{\n "providers": \n}\n')
        self.assertEqual(self.main("--overrides", bad),
                         (2, f"{bad}:3:1: expected JSON (Expecting value)\n"))


if __name__ == "__main__":
    unittest.main()
