"""Readers for the SkyPilot catalog CSVs, in the upstream's own formats.

The same functions read the raw extracts in ../shared/data/prices/ and the upstream's current
files fetched with --download: a file is parsed by its header, never by its name."""

import ast
import csv
import io
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

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


class UpstreamFormatError(ValueError):
    """The file does not look like the upstream catalog (names the file, line and column)."""


@dataclass(frozen=True)
class Row:
    """One upstream row. Prices are Decimals parsed from the upstream text (None when empty);
    zone is '' where the upstream has no zone column (Azure)."""
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

    def key(self):
        """What identifies a row upstream: the same key twice is a duplicated row."""
        return (self.instance_type, self.accelerator, self.accelerator_count, self.region,
                self.zone)


def _decimal(text, name, where):
    text = text.strip()
    if text == "":
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise UpstreamFormatError(f"{where}: column {name}: expected a number, got {text!r}")
    if not value.is_finite() or value < 0:
        raise UpstreamFormatError(f"{where}: column {name}: expected a finite number >= 0, "
                                  f"got {text!r}")
    return value


def parse_gpu_info(text, where):
    """GpuInfo is a Python-literal dict on AWS and GCP (read with ast.literal_eval, never eval);
    on Azure it repeats the GPU name. Returns a dict, a string, or None when empty."""
    text = text.strip()
    if text == "":
        return None
    if text.startswith("{"):
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError) as error:
            raise UpstreamFormatError(f"{where}: column GpuInfo: not a Python literal ({error})")
        if not isinstance(value, dict):
            raise UpstreamFormatError(f"{where}: column GpuInfo: expected a dict")
        return value
    return text


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


def read_rows(provider, text, name):
    """Parses one provider's vms.csv text; name is used in error messages."""
    columns = COLUMNS[provider]
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    missing = [c for c in columns if c not in header]
    if missing:
        raise UpstreamFormatError(f"{name}: line 1: not a SkyPilot {provider} vms.csv header "
                                  f"(missing {', '.join(missing)})")
    rows = []
    for record in reader:
        where = f"{name}: line {reader.line_num}"
        if None in record or any(record.get(c) is None for c in columns):
            raise UpstreamFormatError(f"{where}: expected {len(header)} columns")
        rows.append(Row(
            line=reader.line_num,
            instance_type=record["InstanceType"].strip(),
            accelerator=record["AcceleratorName"].strip(),
            accelerator_count=_decimal(record["AcceleratorCount"], "AcceleratorCount", where),
            vcpus=_decimal(record["vCPUs"], "vCPUs", where),
            memory_gib=_decimal(record["MemoryGiB"], "MemoryGiB", where),
            gpu_info=parse_gpu_info(record["GpuInfo"], where),
            region=record["Region"].strip(),
            zone=record.get("AvailabilityZone", "").strip(),
            price=_decimal(record["Price"], "Price", where),
            spot_price=_decimal(record["SpotPrice"], "SpotPrice", where),
        ))
        if not rows[-1].region:
            raise UpstreamFormatError(f"{where}: column Region is empty")
    return rows


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


def fetch(url, timeout_s=60):
    """Downloads one upstream file (the --download path; never called by the tests)."""
    import urllib.request
    with urllib.request.urlopen(url, timeout=timeout_s) as response:  # noqa: S310 (https only)
        return response.read().decode("utf-8")
