"""Hostile upstream files: each fault is refused with a PipelineError whose one line reads
FILE:LINE:COL: expected ..., never a traceback of another kind, never a file written."""

import ast
import csv
import io
import os
import tempfile
import unittest

from support import EXTRACTS, FIXTURES, cli, fixture_texts, load, OVERRIDES_PATH, upstream
from price_pipeline import literal
from price_pipeline.errors import PipelineError, UpstreamFormatError

OVERRIDES = load(OVERRIDES_PATH)
CATALOG = load(os.path.join(FIXTURES, "gpu_instances.json"))


def rows_of(text):
    return list(csv.reader(io.StringIO(text, newline="")))


def text_of(rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def with_cell(provider, line, column, value):
    """The provider's fixture text with one cell (line counted from 1, column by header name)
    replaced."""
    text, name = fixture_texts()[provider]
    rows = rows_of(text)
    rows[line - 1][rows[0].index(column)] = value
    return text_of(rows), name


def generate(**replaced):
    """The pipeline over the fixtures, with some providers' (text, name) replaced."""
    texts = {**fixture_texts(), **replaced}
    return cli.generate(texts, CATALOG, OVERRIDES, cli.snapshots_for(OVERRIDES))


class Located(unittest.TestCase):
    """Asserts an UpstreamFormatError at an exact file:line:col with the expected words."""

    def assertRefused(self, where, expected, call, *args, **kwargs):
        with self.assertRaises(UpstreamFormatError) as caught:
            call(*args, **kwargs)
        message = str(caught.exception)
        self.assertTrue(message.startswith(where + ": expected "), message)
        self.assertIn(expected, message)
        self.assertNotIn("\n", message)
        return message


class Names(Located):
    def test_region_names_with_path_characters_are_refused_at_their_cell(self):
        for region in ("../../etc", "a/b", "..", "us-east-1/..", "/abs", "x\\y", "c:", "US-EAST-1",
                       "us_east_1", "-leading", "a" * 64, "", "us-east-1.json"):
            text = with_cell("aws", 2, "Region", region)
            self.assertRefused("aws_vms.csv:2:9", "expected a Region name", upstream.read_rows,
                               "aws", *text)

    def test_zone_names_are_checked_like_region_names(self):
        for zone in ("use1-az1/../x", "..", "use1 az1"):
            text = with_cell("gcp", 2, "AvailabilityZone", zone)
            self.assertRefused("gcp_vms.csv:2:8", "expected a AvailabilityZone name",
                               upstream.read_rows, "gcp", *text)

    def test_surrounding_blanks_are_the_normalisation(self):
        text, name = with_cell("azure", 2, "Region", "  eastus ")
        self.assertEqual(upstream.read_rows("azure", text, name)[0].region, "eastus")


class Numbers(Located):
    def test_non_finite_negative_and_enormous_numbers_are_refused_at_parse(self):
        for value in ("NaN", "nan", "Infinity", "-inf", "1e400", "1000001", "-1", "1_000", "0x10",
                      "½", "1.5.2", "9" * 40):
            text = with_cell("azure", 2, "Price", value)
            self.assertRefused("azure_vms.csv:2:7", "expected Price as a plain decimal number",
                               upstream.read_rows, "azure", *text)
        text = with_cell("aws", 2, "vCPUs", "1e9")
        self.assertRefused("aws_vms.csv:2:4", "from 0 to 100000", upstream.read_rows, "aws", *text)

    def test_a_price_an_offer_carries_is_within_the_core_bounds(self):
        # Line 2 is g4dn.xlarge in us-east-1: its prices are written. 10,000 USD/h is the core's
        # maximum; a millionth of a dollar is the floor; 0 stays the upstream's "no price".
        for column, col in (("Price", 7), ("SpotPrice", 8)):
            for value in ("10000.01", "99999", "0.0000009", "1e-9"):
                self.assertRefused(f"aws_vms.csv:2:{col}", "USD per hour", generate,
                                   aws=with_cell("aws", 2, column, value))
        for value in ("10000", "0.000001", "0"):
            generate(aws=with_cell("aws", 2, "Price", value))

    def test_a_composed_gcp_price_is_bounded_and_names_both_rows(self):
        host = rows_of(fixture_texts()["gcp"][0])
        host[1][host[0].index("Price")] = "6000"
        host[4][host[0].index("Price")] = "6000"      # line 5: the A100 row of the same zone
        message = self.assertRefused("gcp_vms.csv:2:9", "plus line 5's A100 x1", generate,
                                     gcp=(text_of(host), "gcp_vms.csv"))
        self.assertIn("6000 + 6000", message)

    def test_rows_no_offer_uses_may_price_above_the_core_maximum(self):
        # The real GCP extract prices TPU pod slices up to 29,362 USD/h: out of scope, not written.
        text = with_cell("gcp", 26, "Price", "29362.176")
        generate(gcp=text)


class Cells(Located):
    def test_cells_over_4_kib_are_refused(self):
        text = with_cell("aws", 3, "InstanceType", "g" * 4097)
        self.assertRefused("aws_vms.csv:3:1", "at most 4096 bytes", upstream.read_rows, "aws",
                           *text)
        # Past the csv module's own limit (128 KiB) the reader still answers with a location.
        text = with_cell("azure", 2, "Generation", "x" * 200_000)
        self.assertRefused("azure_vms.csv:2:1", "expected CSV (field larger than field limit",
                           upstream.read_rows, "azure", *text)

    def test_control_characters_are_refused(self):
        for value in ("g4dn\x00xlarge", "a\nb", "\x1b[31m", "x\x7f", "\ud800"):
            text = with_cell("aws", 2, "InstanceType", value)
            self.assertRefused("aws_vms.csv:2:1", "expected printable text", upstream.read_rows,
                               "aws", *text)

    def test_wrong_column_count_and_repeated_header_columns(self):
        text, name = fixture_texts()["azure"]
        lines = text.split("\n")
        lines[2] += ",extra"
        self.assertRefused("azure_vms.csv:3:11", "expected 10 columns, got 11", upstream.read_rows,
                           "azure", "\n".join(lines), name)
        lines = text.split("\n")
        lines[0] = lines[0].replace("Generation", "Price")
        self.assertRefused("azure_vms.csv:1:10", "expected each column once, got 'Price' twice",
                           upstream.read_rows, "azure", "\n".join(lines), name)

    def test_a_file_without_data_rows_is_refused(self):
        header = fixture_texts()["gcp"][0].split("\n")[0] + "\n"
        for text in (header, header + "\n\n"):
            self.assertRefused("gcp_vms.csv:2:1", "expected data rows after the gcp header",
                               upstream.read_rows, "gcp", text, "gcp_vms.csv")
        self.assertRefused("gcp_vms.csv:1:1", "expected a SkyPilot gcp vms.csv header",
                           upstream.read_rows, "gcp", "", "gcp_vms.csv")

    def test_an_extract_without_its_default_region_is_refused(self):
        rows = [r for r in rows_of(fixture_texts()["aws"][0]) if "us-east-1" not in r]
        self.assertRefused("aws_vms.csv:1:9", "expected offers in aws's default region us-east-1",
                           generate, aws=(text_of(rows), "aws_vms.csv"))
        # Rows in the region, none of them an instance type the catalog knows.
        rows = rows_of(fixture_texts()["azure"][0])
        for row in rows[1:]:
            row[0] = "Standard_Unknown"
        message = self.assertRefused("azure_vms.csv:1:9", "azure's default region eastus",
                                     generate, azure=(text_of(rows), "azure_vms.csv"))
        self.assertIn("none of its rows is an instance type of the catalog", message)


class Bytes(Located):
    def test_invalid_utf8_is_named_by_line_and_byte(self):
        data = b"InstanceType,Region\nok,us-east-1\nbad\xff,us-east-1\n"
        self.assertRefused("x.csv:3:4", "expected UTF-8 text, got byte 0xff", upstream.decode,
                           data, "x.csv")
        self.assertRefused("x.csv:1:1", "got byte 0xc3", upstream.decode, b"\xc3(", "x.csv")

    def test_a_byte_order_mark_is_dropped(self):
        text, name = fixture_texts()["azure"]
        decoded = upstream.decode(b"\xef\xbb\xbf" + text.encode(), name)
        self.assertEqual(upstream.read_rows("azure", decoded, name)[0].region, "eastus")

    def test_file_size_is_bounded_whatever_the_file_claims(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "big.csv")
            with open(path, "wb") as handle:
                handle.write(b"x" * 101)
            self.assertRefused("big.csv:1:1", "expected a file of at most 100 bytes",
                               upstream.read_extract, path, "big.csv", 100)
            self.assertEqual(upstream.read_extract(path, "big.csv", 101), "x" * 101)
        self.assertEqual(upstream.MAX_EXTRACT_BYTES, 64 * 1024 * 1024)


class GpuInfo(Located):
    def test_the_reader_reads_what_ast_literal_eval_reads(self):
        cells = {r[5] for r in rows_of(fixture_texts()["aws"][0])[1:] if r[5]}
        if os.path.isdir(EXTRACTS):
            for extract in ("skypilot_aws_gpu_vms.csv", "skypilot_gcp_gpu_vms.csv"):
                with open(os.path.join(EXTRACTS, extract), encoding="utf-8", newline="") as f:
                    cells |= {r["GpuInfo"] for r in csv.DictReader(f) if r["GpuInfo"][:1] == "{"}
        self.assertGreater(len(cells), 5)
        for cell in cells:
            self.assertEqual(literal.parse(cell), ast.literal_eval(cell), cell)
        for cell in ("{'a': [1, -2.5, 3e2, True, False, None, \"q'\\n\"], 'b': {},}", "{ }"):
            self.assertEqual(literal.parse(cell), ast.literal_eval(cell), cell)

    def test_pathological_literals_are_refused_at_their_cell(self):
        deep = "{'a': " + "[" * 8 + "]" * 8 + "}"
        cases = {
            deep: "at most 8 levels of nesting",
            "{" * 4000: "at most 8 levels of nesting",
            "{'a': __import__('os')}": "expected a value at character 7",
            "{'a': 1e999}": "a finite number",
            "{'a': " + "9" * 40 + "}": "a number of at most 32 characters",
            "{'a': 'open": "the closing '",
            "{'a': '\\x41'}": "one of the escapes",
            "{'a': 1} 2": "the end of the literal",
            "{[1]: 2}": "a string or number as a key",
            "{'a' 1}": "expected ':'",
            "{'a': b'x'}": "a value",
        }
        for cell, expected in cases.items():
            text = with_cell("aws", 2, "GpuInfo", cell)
            self.assertRefused("aws_vms.csv:2:6", expected, upstream.read_rows, "aws", *text)
        self.assertEqual(literal.parse("{'a': " + "[" * 7 + "]" * 7 + "}"),
                         {"a": [[[[[[[]]]]]]]})

    def test_a_literal_that_is_not_a_dict_is_refused(self):
        text = with_cell("aws", 2, "GpuInfo", "{'a': 1}")
        upstream.read_rows("aws", *text)
        with self.assertRaises(PipelineError):
            upstream.parse_gpu_info("{'a': 1", lambda c, e: PipelineError(e))


if __name__ == "__main__":
    unittest.main()
