"""Readers for the SkyPilot catalog CSVs, in the upstream's own formats.

The same functions read the raw extracts in ../shared/data/prices/ and the upstream's current
files fetched with --download: a file is parsed by its header, never by its name. Nothing in a
file is trusted: its size, encoding, every cell's size, characters and number, region and zone
names (they become file names) and GpuInfo literals are checked, and a fault stops the run with
an UpstreamFormatError naming the file, line and column and what was expected."""

import csv
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from . import literal
from .errors import UpstreamFormatError, shown

REPOSITORY = "skypilot-org/skypilot-catalog"
RAW_URL = "https://raw.githubusercontent.com/{repo}/{ref}/{path}"

# Columns each provider's reader needs (the upstream may add columns; a missing one is an error).
AWS_COLUMNS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB",
               "GpuInfo", "Price", "SpotPrice", "Region", "AvailabilityZone")
GCP_COLUMNS = ("InstanceType", "vCPUs", "MemoryGiB", "AcceleratorName", "AcceleratorCount",
               "GpuInfo", "Region", "AvailabilityZone", "Price", "SpotPrice")
AZURE_COLUMNS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB",
                 "GpuInfo", "Price", "SpotPrice", "Region")
COLUMNS = {"aws": AWS_COLUMNS, "gcp": GCP_COLUMNS, "azure": AZURE_COLUMNS}

# Bounds on what an upstream file may hold. The extracts are 0.6 MB at most and their longest
# cell (an AWS GpuInfo) is 231 bytes.
MAX_EXTRACT_BYTES = 64 * 1024 * 1024
MAX_CELL_BYTES = 4096
# Region and zone names become file names (config/prices/<provider>/<region>.json): after the
# readers' normalisation (surrounding blanks dropped) they are lowercase letters, digits and '-'.
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
NAME_RULE = "lowercase letters, digits and '-', starting with a letter or digit, at most 63"
# A number cell: a plain decimal (the upstream writes 0.526, 16, 1.0), an exponent allowed.
NUMBER = re.compile(r"[0-9]{1,15}(\.[0-9]{1,15})?([eE][+-]?[0-9]{1,3})?")
# The largest value each number column may hold: far above any real row (the largest price
# upstream is a 4,608-chip TPU pod slice at 29,362 USD/h), so that every value is finite as a
# float. A price an offer carries has the core's tighter bounds (checked_price).
NUMBER_MAX = {"AcceleratorCount": Decimal(4096), "vCPUs": Decimal(100_000),
              "MemoryGiB": Decimal(10_000_000), "Price": Decimal(1_000_000),
              "SpotPrice": Decimal(1_000_000)}
# A price written into config/prices/ is 0 (the upstream's "no price") or within the core's
# bounds: at most 10,000 USD per hour (core/src/pricing/prices.cpp), and at least a millionth of a
# dollar, below which tokens per dollar stop meaning anything.
PRICE_MAX = Decimal(10_000)
PRICE_MIN = Decimal("0.000001")
# No control characters (a line break inside a quoted cell included) and no lone surrogates.
UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


@dataclass(frozen=True)
class Row:
    """One upstream row. Prices are Decimals parsed from the upstream text (None when empty);
    zone is '' where the upstream has no zone column (Azure). file and header locate its cells
    in messages (column())."""
    line: int
    instance_type: str
    accelerator: str
    accelerator_count: Decimal | None
    vcpus: Decimal | None
    memory_gib: Decimal | None
    gpu_info: object
    region: str
    zone: str
    price: Decimal | None
    spot_price: Decimal | None
    file: str = field(default="", compare=False, repr=False)
    header: tuple = field(default=(), compare=False, repr=False)

    def key(self):
        """What identifies a row upstream: the same key twice is a duplicated row."""
        return (self.instance_type, self.accelerator, self.accelerator_count, self.region,
                self.zone)

    def column(self, name):
        """The CSV column of a header name, counted from 1."""
        return self.header.index(name) + 1 if name in self.header else 1

    def error(self, name, expected):
        return UpstreamFormatError(self.file, self.line, self.column(name), expected)


# ---------------------------------------------------------------- bytes -> text

def decode(data, name, limit=MAX_EXTRACT_BYTES):
    """An extract's bytes as text: at most `limit` bytes of UTF-8 (a leading byte-order mark is
    dropped); an invalid byte is named by line and byte within the line."""
    if len(data) > limit:
        raise UpstreamFormatError(name, 1, 1, f"expected a file of at most {limit} bytes, got "
                                  f"{len(data)} or more")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = error.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        raise UpstreamFormatError(name, line, column, f"expected UTF-8 text, got byte "
                                  f"0x{data[start]:02x} ({error.reason})") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_extract(path, name, limit=MAX_EXTRACT_BYTES):
    """Reads at most limit + 1 bytes of an extract (a larger file is refused, whatever its size
    claims) and decodes them."""
    with open(path, "rb") as handle:
        return decode(handle.read(limit + 1), name, limit)


# ---------------------------------------------------------------- cells

def _cell(text, name, line, column):
    """A cell's text after the readers' normalisation (surrounding blanks dropped), bounded in
    size and free of control characters."""
    if len(text) > MAX_CELL_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_CELL_BYTES:
        raise UpstreamFormatError(name, line, column, f"expected a cell of at most "
                                  f"{MAX_CELL_BYTES} bytes, got {shown(text)}")
    bad = UNPRINTABLE.search(text)
    if bad:
        raise UpstreamFormatError(name, line, column, f"expected printable text, got character "
                                  f"U+{ord(bad.group()):04X} in {shown(text)}")
    return text.strip()


def _decimal(text, column, fail):
    """A number cell as a Decimal (None when empty), from 0 to NUMBER_MAX[column]."""
    if text == "":
        return None
    top = NUMBER_MAX[column]
    if NUMBER.fullmatch(text):
        try:
            value = Decimal(text)
        except InvalidOperation:
            value = None
        if value is not None and value <= top:
            return value
    raise fail(column, f"expected {column} as a plain decimal number from 0 to {top} "
                       f"(e.g. 0.526), got {shown(text)}")


def _name(text, column, fail, required):
    """A region or zone name: it becomes part of a file name, so nothing but NAME."""
    if text == "" and not required:
        return ""
    if NAME.fullmatch(text):
        return text
    raise fail(column, f"expected a {column} name ({NAME_RULE} characters), got {shown(text)}")


def parse_gpu_info(text, fail):
    """GpuInfo is a Python-literal dict on AWS and GCP, read by a bounded parser of literals
    (literal.py: no eval, no ast, a depth limit); on Azure it repeats the GPU name. Returns a
    dict, a string, or None when empty. fail(column, expected) makes the error."""
    if text == "":
        return None
    if not text.startswith("{"):
        return text
    try:
        value = literal.parse(text)
    except literal.LiteralError as error:
        raise fail("GpuInfo", f"expected GpuInfo as a Python literal dict ({literal.RULE}): "
                              f"{error}") from None
    if not isinstance(value, dict):
        raise fail("GpuInfo", "expected GpuInfo as a dict")
    return value


def gpu_memory_mib(gpu_info):
    """Per-GPU memory the cloud reports in GpuInfo (MemoryInfo.SizeInMiB), or None."""
    if not isinstance(gpu_info, dict):
        return None
    gpus = gpu_info.get("Gpus")
    if not isinstance(gpus, list) or not gpus or not isinstance(gpus[0], dict):
        return None
    memory = gpus[0].get("MemoryInfo")
    if isinstance(memory, dict) and isinstance(memory.get("SizeInMiB"), int):
        return memory["SizeInMiB"]
    return None


# ---------------------------------------------------------------- rows

def _records(text, name):
    """(first line, cells) of each CSV record; a CSV fault is located by the line it reached."""
    reader = csv.reader(io.StringIO(text, newline=""))
    line = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise UpstreamFormatError(name, reader.line_num or 1, 1,
                                      f"expected CSV ({error})") from None
        yield line, cells
        line = reader.line_num + 1


def _header(records, provider, name):
    first = next(records, None)
    header = tuple(_cell(c, name, 1, i + 1) for i, c in enumerate(first[1])) if first else ()
    seen = set()
    for i, column in enumerate(header):
        if column in seen:
            raise UpstreamFormatError(name, 1, i + 1, f"expected each column once, got "
                                      f"{shown(column)} twice")
        seen.add(column)
    missing = [c for c in COLUMNS[provider] if c not in header]
    if missing:
        raise UpstreamFormatError(name, 1, len(header) + 1, f"expected a SkyPilot {provider} "
                                  f"vms.csv header (missing {', '.join(missing)})")
    return header


def _row(header, line, cells, name):
    if len(cells) != len(header):
        raise UpstreamFormatError(name, line, min(len(cells), len(header)) + 1,
                                  f"expected {len(header)} columns, got {len(cells)}")
    record = {column: _cell(text, name, line, i + 1)
              for i, (column, text) in enumerate(zip(header, cells))}

    def fail(column, expected):
        return UpstreamFormatError(name, line, header.index(column) + 1, expected)

    return Row(
        line=line,
        instance_type=record["InstanceType"],
        accelerator=record["AcceleratorName"],
        accelerator_count=_decimal(record["AcceleratorCount"], "AcceleratorCount", fail),
        vcpus=_decimal(record["vCPUs"], "vCPUs", fail),
        memory_gib=_decimal(record["MemoryGiB"], "MemoryGiB", fail),
        gpu_info=parse_gpu_info(record["GpuInfo"], fail),
        region=_name(record["Region"], "Region", fail, required=True),
        zone=_name(record.get("AvailabilityZone", ""), "AvailabilityZone", fail, required=False),
        price=_decimal(record["Price"], "Price", fail),
        spot_price=_decimal(record["SpotPrice"], "SpotPrice", fail),
        file=name, header=header)


def read_rows(provider, text, name):
    """Parses one provider's vms.csv text; name is used in error messages. A file without data
    rows is refused."""
    records = _records(text, name)
    header = _header(records, provider, name)
    rows = [_row(header, line, cells, name) for line, cells in records if cells]
    if not rows:
        raise UpstreamFormatError(name, 2, 1, f"expected data rows after the {provider} "
                                  "header, found none")
    return rows


def checked_price(row, column, value):
    """A price an offer will carry: 0 (the upstream's "no price"), None, or within
    [PRICE_MIN, PRICE_MAX] USD per hour; anything else is refused at its cell."""
    if value is None or value == 0 or PRICE_MIN <= value <= PRICE_MAX:
        return value
    what = " ".join(filter(None, (row.instance_type or row.accelerator, row.zone or row.region)))
    raise row.error(column, f"expected {column} of a priced offer ({what}) from {PRICE_MIN} to "
                            f"{PRICE_MAX} USD per hour, got {value}")


def deduplicate(rows):
    """Drops rows repeated upstream (GCP repeats some rows byte for byte). Returns (kept,
    dropped, conflicts): a repeated key with different values keeps the first row and is listed
    in conflicts as (first line, other line)."""
    first = {}
    kept, dropped, conflicts = [], 0, []
    for row in rows:
        seen = first.get(row.key())
        if seen is None:
            first[row.key()] = row
            kept.append(row)
            continue
        dropped += 1
        if (seen.price, seen.spot_price, seen.vcpus, seen.memory_gib) != (
                row.price, row.spot_price, row.vcpus, row.memory_gib):
            conflicts.append((seen.line, row.line))
    return kept, dropped, conflicts


def download_url(path, ref, repository=REPOSITORY):
    """The raw.githubusercontent.com address of an upstream file at a commit, tag or branch."""
    return RAW_URL.format(repo=repository, ref=ref, path=path)


def fetch(url, timeout_s=60, limit=MAX_EXTRACT_BYTES):
    """Downloads one upstream file (the --download path; never called by the tests): at most
    limit + 1 bytes are read, then decoded as an extract is."""
    import urllib.request
    with urllib.request.urlopen(url, timeout=timeout_s) as response:  # noqa: S310 (https only)
        return decode(response.read(limit + 1), url, limit)
