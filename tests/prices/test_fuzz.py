"""A property of the readers and the writer, over seeded random mutations of the fixture
extracts (truncations, cuts at a line, random bytes, huge cells, path characters in Region and
zone columns, hostile numbers and GpuInfo literals, dropped columns and rows): every run either
succeeds with every file inside the output folder, or stops with a PipelineError whose message
is one line naming where; never another exception, never a file outside the folder.

PRICE_FUZZ_CASES (default 1000) and PRICE_FUZZ_SEED (default 20261128) set the run; the figures
are printed (the README gives the latest)."""

import csv
import io
import os
import random
import re
import shutil
import sys
import tempfile
import time
import unittest

from support import FIXTURES, cli, fixture_texts, load, OVERRIDES_PATH, upstream
from price_pipeline.errors import PipelineError, UpstreamFormatError

CASES = int(os.environ.get("PRICE_FUZZ_CASES", "1000"))
SEED = int(os.environ.get("PRICE_FUZZ_SEED", "20261128"))
OVERRIDES = load(OVERRIDES_PATH)
CATALOG = load(os.path.join(FIXTURES, "gpu_instances.json"))
LOCATED = re.compile(r"^[^\n]+:\d+:\d+: expected [^\n]+$")

# Names that are files of their own (a new region makes a new file) beside names with path
# characters, numbers in range beside hostile ones.
PATHS = ["zz-new-9", "a", "0-0", "../x", "..", ".", "a/b", "/etc/passwd", "..\\x", "x/../../y",
         "us-east-1/../../z", "%2e%2e", " ", "C:\\x", "a\x00b", "a" * 100, "ünïcode",
         "us-east-1.json", "-x", "~"]
NUMBERS = ["0.5", "3", "10000", "NaN", "inf", "-Infinity", "1e400", "-1", "1e-9", "0.0000001",
           "10000.5", "99999", "1000000000", "0", "", "1_0", "0x1", "1e", ".5", "5.", "٣",
           "9" * 30]
LITERALS = ["{" * 3000, "{'a': " + "[" * 50 + "]" * 50 + "}", "{'a': __import__('os')}",
            "{'Gpus': [{'MemoryInfo': {'SizeInMiB': 1e999}}]}", "{'Gpus': 'x'}", "{'Gpus': [1]}",
            "{'Gpus': [{'MemoryInfo': {'SizeInMiB': True}}]}", "{'a': '" + "x" * 5000 + "'}",
            "{'Gpus': [{'MemoryInfo': {'SizeInMiB': -5}}]}", "{}", "{'a': (1, 2)}", "{'a",
            "{'Gpus': [{'MemoryInfo': {'SizeInMiB': " + "9" * 31 + "}}]}"]
BYTES = [b"\x00", b"\xff", b"\xc3", b"\xe2\x82", b'"', b",", b"\n", b"\r", b"{", b"[", b"'",
         b"\\", b"\xef\xbb\xbf", b"/", b".."]


def parse(text):
    return list(csv.reader(io.StringIO(text, newline="")))


def unparse(rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


class Mutations:
    """Each mutation takes (rng, rows) or (rng, data) and says what it did."""

    @staticmethod
    def cell(rng, rows, columns, values):
        if len(rows) < 2:
            return "no rows to change"
        names = [c for c in columns if c in rows[0]]
        if not names:
            return "no such column"
        line = rng.randrange(1, len(rows))
        column = rng.choice(names)
        value = rng.choice(values)
        if len(rows[line]) > rows[0].index(column):
            rows[line][rows[0].index(column)] = value
        return f"line {line + 1} {column} = {value[:30]!r}"

    @classmethod
    def region(cls, rng, rows):
        return cls.cell(rng, rows, ["Region", "AvailabilityZone"], PATHS)

    @classmethod
    def number(cls, rng, rows):
        return cls.cell(rng, rows, ["Price", "SpotPrice", "AcceleratorCount", "vCPUs",
                                    "MemoryGiB"], NUMBERS)

    @classmethod
    def literal(cls, rng, rows):
        return cls.cell(rng, rows, ["GpuInfo"], LITERALS)

    @classmethod
    def huge(cls, rng, rows):
        size = rng.choice([4096, 4097, 20_000, 140_000])
        return cls.cell(rng, rows, list(rows[0]), [rng.choice("xé{,") * size])

    @staticmethod
    def drop_column(rng, rows):
        column = rng.randrange(len(rows[0]))
        for row in rows:
            if len(row) > column:
                del row[column]
        return f"column {column + 1} dropped"

    @staticmethod
    def drop_rows(rng, rows):
        keep = rng.choice(["none", "other regions"])
        region = rows[0].index("Region") if "Region" in rows[0] else 0
        rows[1:] = [] if keep == "none" else [r for r in rows[1:] if rng.random() < 0.3
                                              or (len(r) > region and r[region] == "us-west-2")]
        return f"rows dropped ({keep})"

    @staticmethod
    def truncate(rng, data):
        at = rng.randrange(len(data) + 1)
        return data[:at], f"truncated at byte {at}"

    @staticmethod
    def cut_lines(rng, data):
        lines = data.split(b"\n")
        at = rng.randrange(1, len(lines) + 1)
        return b"\n".join(lines[:at]), f"cut after line {at}"

    @staticmethod
    def random_bytes(rng, data):
        data = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data) + 1)
            chunk = rng.choice(BYTES) if rng.random() < 0.7 else bytes([rng.randrange(256)])
            data[at:at + rng.randint(0, 1)] = chunk
        return bytes(data), "random bytes"


ROW_MUTATIONS = [Mutations.region, Mutations.number, Mutations.literal, Mutations.huge,
                 Mutations.drop_column, Mutations.drop_rows]
BYTE_MUTATIONS = [Mutations.truncate, Mutations.cut_lines, Mutations.random_bytes]


def mutate(rng, text):
    """Mutated bytes of a fixture text and what was done."""
    rows, done = parse(text), []
    for _ in range(rng.randint(0, 2)):
        done.append(rng.choice(ROW_MUTATIONS)(rng, rows))
    data = unparse(rows).encode("utf-8", "surrogatepass")
    if not done or rng.random() < 0.4:
        data, what = rng.choice(BYTE_MUTATIONS)(rng, data)
        done.append(what)
    return data, done


def entries(folder):
    return sorted(os.path.relpath(os.path.join(d, n), folder)
                  for d, dirs, files in os.walk(folder) for n in dirs + files)


class Fuzz(unittest.TestCase):
    def test_mutated_extracts_succeed_inside_the_folder_or_stop_with_a_pipeline_error(self):
        rng = random.Random(SEED)
        texts = fixture_texts()
        outcomes = {"written": 0, "refused": 0}
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="prices-fuzz-") as tmp:
            out = os.path.join(tmp, "prices")
            for case in range(CASES):
                provider = rng.choice(sorted(texts))
                data, done = mutate(rng, texts[provider][0])
                name = texts[provider][1]
                with self.subTest(case=case, provider=provider, mutations=done):
                    outcomes[self.run_case(provider, data, name, out)] += 1
                    self.assertEqual(os.listdir(tmp), ["prices"] if os.path.isdir(out) else [])
                if os.path.isdir(out):
                    shutil.rmtree(out)
        seconds = time.monotonic() - started
        print(f"\nprice fuzz: {CASES} cases (seed {SEED}) in {seconds:.1f} s: "
              f"{outcomes['written']} written, {outcomes['refused']} refused", file=sys.stderr)
        self.assertGreater(outcomes["refused"], CASES // 4)
        self.assertGreater(outcomes["written"], CASES // 20)

    def run_case(self, provider, data, name, out):
        """'written' or 'refused'; any other exception fails the test."""
        try:
            text = upstream.decode(data, name)
            texts = {**fixture_texts(), provider: (text, name)}
            files, results, known = cli.generate(texts, CATALOG, OVERRIDES,
                                                 cli.snapshots_for(OVERRIDES))
            cli.write(files, out)
            cli.report(files, results, known, CATALOG, OVERRIDES, print_=lambda *_: None)
        except PipelineError as error:
            message = str(error)
            self.assertNotIn("\n", message)
            if isinstance(error, UpstreamFormatError):
                self.assertRegex(message, LOCATED)
            self.assertFalse(os.path.exists(out), "a refused run wrote its folder")
            return "refused"
        self.assertEqual(entries(out), sorted({*files, *(p.split("/")[0] for p in files
                                                         if "/" in p)}))
        return "written"


if __name__ == "__main__":
    unittest.main()
