#!/usr/bin/env python3
"""Build config/gpu_instances.json (AWS GPU catalog) from the reference data.

Inputs (defaults point at the shared reference data):
  instances_reference.json  - per-instance-type rows (AWS us-east-1 prices, GPU counts, vCPUs, RAM)
  gpu_specs_reference.json  - GPU datasheet specs (DENSE tensor TFLOPS)

Rules: every number is copied or derived (formula stated in catalog_info.field_notes) from the
reference data; a missing price is omitted (no null) and price_notes says why; estimates are
labelled in an "estimates" string.

Usage:
  python3 scripts/data/build_gpu_instances.py [--instances PATH] [--specs PATH] [--out PATH] [--check]
"""
import argparse
import json
import os
import sys
from decimal import Decimal, ROUND_HALF_UP

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED_DATA = os.path.join(REPO, "..", "shared", "data")  # the reference data beside the checkout
DEFAULT_INSTANCES = os.path.join(SHARED_DATA, "instances_reference.json")
DEFAULT_SPECS = os.path.join(SHARED_DATA, "gpu_specs_reference.json")
DEFAULT_OUT = os.path.join(REPO, "config", "gpu_instances.json")

REGION = "us-east-1"
CATALOG_DATE = "2026-07-20"
BW_REFERENCE_GPU = "B200"          # fastest GPU memory in this catalog
BW_REFERENCE_GBS = 8000            # its memory_bw_gbs in gpu_specs_reference.json
PCIE_MULTIPLIER = 0.7              # estimate, from the seed's 4-way-link value
NVSWITCH_MULTIPLIER = 1.0

# instances_reference gpu_model -> gpu_specs_reference name
GPU_NAME_MAP = {
    "T4": "T4", "A10G": "A10G", "L4": "L4", "L40S": "L40S",
    "A100-40GB": "A100-40GB", "A100-80GB": "A100-80GB",
    "H100": "H100-SXM-80GB", "H200": "H200-SXM-141GB", "B200": "B200",
}

# Family definitions. "members" = AWS instance types (g6f fractional rows deliberately excluded).
FAMILIES = {
    "G4dn": dict(series="G", prefixes=["g4dn."], gpu_type="NVIDIA T4", label="T4",
                 interconnect_type="PCIe Gen3 x16 (no NVLink)", nvlink_gbs=None, pcie_gbs=32),
    "G5":   dict(series="G", prefixes=["g5."], gpu_type="NVIDIA A10G", label="A10G",
                 interconnect_type="PCIe Gen4 x16 (no NVLink)", nvlink_gbs=None, pcie_gbs=64),
    "G6":   dict(series="G", prefixes=["g6."], extra=["gr6.4xlarge"], gpu_type="NVIDIA L4", label="L4",
                 interconnect_type="PCIe Gen4 x16 (no NVLink)", nvlink_gbs=None, pcie_gbs=64),
    "G6e":  dict(series="G", prefixes=["g6e."], gpu_type="NVIDIA L40S", label="L40S",
                 interconnect_type="PCIe Gen4 x16 (no NVLink)", nvlink_gbs=None, pcie_gbs=64),
    "P4d":  dict(series="P", exact=["p4d.24xlarge"], gpu_type="NVIDIA A100 40GB", label="A100 40GB",
                 interconnect_type="NVSwitch (NVLink 3)", nvlink_gbs=600),
    "P4de": dict(series="P", exact=["p4de.24xlarge"], gpu_type="NVIDIA A100 80GB", label="A100 80GB",
                 interconnect_type="NVSwitch (NVLink 3)", nvlink_gbs=600),
    "P5":   dict(series="P", prefixes=["p5."], gpu_type="NVIDIA H100", label="H100",
                 interconnect_type="NVSwitch (NVLink 4)", nvlink_gbs=900),
    "P5e":  dict(series="P", exact=["p5e.48xlarge"], extra=["p5en.48xlarge"], flagship="p5e.48xlarge",
                 gpu_type="NVIDIA H200", label="H200",
                 interconnect_type="NVSwitch (NVLink 4)", nvlink_gbs=900),
    "P6":   dict(series="P", exact=["p6-b200.48xlarge"], gpu_type="NVIDIA B200", label="B200",
                 interconnect_type="NVSwitch (NVLink 5)", nvlink_gbs=1800),
}

SIZE_NOTES = {
    "gr6.4xlarge": "gr6 variant of G6: same NVIDIA L4 GPU, more RAM per vCPU (128 GiB for 16 vCPUs)",
    "p5en.48xlarge": "P5en variant of P5e: same 8x NVIDIA H200; unlike p5e.48xlarge it has a public us-east-1 on-demand price",
}

# Spot figures replaced where the reference row's own notes show its minimum is an outlier.
SPOT_OVERRIDES = {
    "p4d.24xlarge": (7.88, "spot_cost_per_hour 7.88 is the lowest of the AZs the reference row calls normal "
                           "(7.88-8.19); its minimum 2.4655 comes from one AZ that the row flags as an outlier"),
}


def spot_of(row):
    return SPOT_OVERRIDES.get(row["instance_type"], (row["spot_usd_hr"],))[0]


PRECISIONS = ["fp32", "tf32", "fp16", "bf16", "fp8", "int8"]
SPEC_TFLOPS_KEY = {"fp32": "fp32_tflops", "tf32": "tf32_tflops", "fp16": "fp16_tflops",
                   "bf16": "bf16_tflops", "fp8": "fp8_tflops", "int8": "int8_tops"}


def round4(x):
    return float(Decimal(str(x)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


def num(x):
    """Keep integers as ints in the JSON."""
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def price_notes(row):
    notes = (row.get("notes") or "").strip()
    parts = []
    od, sp = row.get("on_demand_usd_hr"), row.get("spot_usd_hr")
    it = row["instance_type"]
    if od is None and sp is None and it.startswith("p5e."):
        parts.append("on_demand_cost_per_hour and spot_cost_per_hour absent: p5e is sold as EC2 Capacity Blocks only "
                     "(no public on-demand price; no us-east-1 spot rows)")
    else:
        if od is None:
            parts.append("on_demand_cost_per_hour absent: no us-east-1 on-demand price in the reference snapshot")
        if sp is None:
            if "not read" in notes:
                parts.append("spot_cost_per_hour absent: spot price was not captured in the reference snapshot")
            else:
                parts.append("spot_cost_per_hour absent: no usable us-east-1 spot price in the reference snapshot")
    if it in SPOT_OVERRIDES:
        parts.append(SPOT_OVERRIDES[it][1])
    if notes:
        parts.append("reference notes: " + notes)
    return "; ".join(parts)


def members_of(fam, rows):
    out = []
    for r in rows:
        it = r["instance_type"]
        if any(it.startswith(p) for p in fam.get("prefixes", [])) or it in fam.get("exact", []) \
                or it in fam.get("extra", []):
            out.append(r)
    return out


def pick_flagship(fam, members):
    if "flagship" in fam:
        return next(r for r in members if r["instance_type"] == fam["flagship"])
    # most GPUs; ties -> cheaper on-demand (missing price sorts last)
    return sorted(members, key=lambda r: (-r["gpu_count"],
                                          r["on_demand_usd_hr"] if r["on_demand_usd_hr"] is not None else float("inf")))[0]


def build(instances_path, specs_path):
    rows_all = json.load(open(instances_path))
    rows = [r for r in rows_all if r["provider"] == "aws" and r["region"] == REGION]
    specs_doc = json.load(open(specs_path))
    specs = {g["name"]: g for g in specs_doc["gpus"]}
    assert specs[BW_REFERENCE_GPU]["memory_bw_gbs"] == BW_REFERENCE_GBS

    sources = []

    def add_source(s):
        if s and s not in sources:
            sources.append(s)

    gpu_instances = {}
    used_gpus = {}   # spec name -> list of rows
    for fam_key, fam in FAMILIES.items():
        members = members_of(fam, rows)
        assert members, fam_key
        assert not any(r["instance_type"].startswith("g6f.") for r in members)
        flag = pick_flagship(fam, members)
        gpu_name = GPU_NAME_MAP[flag["gpu_model"]]
        spec = specs[gpu_name]
        for r in members:
            used_gpus.setdefault(GPU_NAME_MAP[r["gpu_model"]], []).append(r)
            add_source(r["source"])

        pcie = fam["nvlink_gbs"] is None
        bw = fam["nvlink_gbs"] if not pcie else fam["pcie_gbs"]
        assert str(bw) in spec["interconnect"] or str(bw) in spec["interconnect"].replace(",", ""), \
            (fam_key, spec["interconnect"])
        n = flag["gpu_count"]
        use = "inference" if fam["series"] == "G" else "training"
        link = "PCIe only, no NVLink" if pcie else fam["interconnect_type"].replace(" (", ", ").rstrip(")")
        desc = (f"{flag['instance_type']}: {n}x {fam['gpu_type']} ({spec['memory_gb']} GB each, {link}); "
                f"{fam['series']}-series instance typically used for {use}.")

        entry = {
            "name": f"{fam_key} ({fam['label']})",
            "family": fam["series"],
            "gpu_type": fam["gpu_type"],
            "vcpus": flag["vcpus"],
            "gpu_memory_gb": num(spec["memory_gb"]),
            "gpus_per_instance": num(n),
            "compute_tflops": num(spec["fp16_tflops"]),
            "interconnect_type": fam["interconnect_type"],
            "interconnect_bandwidth_gbps": bw,
        }
        if flag["on_demand_usd_hr"] is not None:
            entry["on_demand_cost_per_hour"] = flag["on_demand_usd_hr"]
        if flag["spot_usd_hr"] is not None:
            entry["spot_cost_per_hour"] = spot_of(flag)
        entry["memory_bandwidth_factor"] = round4(spec["memory_bw_gbs"] / BW_REFERENCE_GBS)
        entry["interconnect_multiplier"] = PCIE_MULTIPLIER if pcie else NVSWITCH_MULTIPLIER
        entry["description"] = desc
        entry["instance_type"] = flag["instance_type"]
        entry["gpu_model"] = gpu_name
        entry["ram_gib"] = num(flag["ram_gib"])
        entry["source"] = flag["source"]
        entry["source_date"] = flag["source_date"]
        entry["price_notes"] = price_notes(flag)
        entry["spec_source"] = ("gpu_memory_gb, compute_tflops, memory_bandwidth_factor, interconnect_bandwidth_gbps: "
                                f"gpus.{gpu_name} (gpu_specs_reference.json): {spec['source']}")
        if pcie:
            entry["interconnect_notes"] = (f"PCIe-only GPU: interconnect_bandwidth_gbps is the PCIe x16 bidirectional "
                                           f"figure quoted in the GPU spec ('{spec['interconnect']}'), not an NVLink link")
        estimates = []
        if pcie:
            estimates.append(f"interconnect_multiplier {PCIE_MULTIPLIER} is an estimate (the seed's value for a "
                             "4-way link; PCIe-only scaling was not measured)")
        if "confidence" in spec:
            estimates.append(f"{gpu_name} spec confidence: {spec['confidence']} (affects compute_tflops"
                             f"{'' if gpu_name != 'B200' else ', memory_bandwidth_factor'})")
        if estimates:
            entry["estimates"] = "; ".join(estimates)

        sizes = {}
        for r in sorted(members, key=lambda r: (r["gpu_count"], r["vcpus"], r["instance_type"])):
            if r is flag:
                continue
            s = {"gpus_per_instance": num(r["gpu_count"]), "vcpus": r["vcpus"], "ram_gib": num(r["ram_gib"])}
            if r["on_demand_usd_hr"] is not None:
                s["on_demand_cost_per_hour"] = r["on_demand_usd_hr"]
            if r["spot_usd_hr"] is not None:
                s["spot_cost_per_hour"] = spot_of(r)
            rg = GPU_NAME_MAP[r["gpu_model"]]
            if rg != gpu_name:
                s["gpu_model"] = rg
            if r["gpu_memory_gb"] != flag["gpu_memory_gb"]:
                s["gpu_memory_gb"] = num(r["gpu_memory_gb"])
            s["source"] = r["source"]
            s["source_date"] = r["source_date"]
            s["price_notes"] = price_notes(r)
            if r["instance_type"] in SIZE_NOTES:
                s["notes"] = SIZE_NOTES[r["instance_type"]]
            sizes[r["instance_type"]] = s
        entry["sizes"] = sizes
        gpu_instances[fam_key] = entry

    gpus = {}
    for name in ["T4", "A10G", "L4", "L40S", "A100-40GB", "A100-80GB", "H100-SXM-80GB", "H200-SXM-141GB", "B200"]:
        spec = specs[name]
        g = {"vendor": spec["vendor"], "arch": spec["arch"], "memory_gb": num(spec["memory_gb"])}
        mibs = {r["gpu_memory_mib_reported"] for r in used_gpus.get(name, []) if r["gpu_memory_mib_reported"] is not None}
        assert len(mibs) <= 1, (name, mibs)
        if mibs:
            g["usable_memory_mib"] = mibs.pop()
            g["usable_memory_source"] = ("gpu_memory_mib_reported of the AWS rows in instances_reference.json "
                                         "(cloud-reported per-GPU memory; " +
                                         used_gpus[name][0]["source"].split("; gpu: ")[-1] + ")")
        else:
            g["usable_memory_notes"] = "usable_memory_mib absent: no cloud-reported MiB figure in the reference data"
        g["memory_type"] = spec["memory_type"]
        g["memory_bandwidth_gb_per_s"] = num(spec["memory_bw_gbs"])
        g["tflops"] = {p: num(spec[SPEC_TFLOPS_KEY[p]]) for p in PRECISIONS if spec.get(SPEC_TFLOPS_KEY[p]) is not None}
        nat = ["fp32", "fp16"]
        if spec["bf16_supported"]:
            nat.append("bf16")
        if spec["fp8_supported"]:
            nat.append("fp8")
        if spec["int8_tops"] is not None:
            nat.append("int8")
        g["precisions_native"] = nat
        g["interconnect"] = spec["interconnect"]
        g["compute_capability"] = spec["compute_capability"]
        if "confidence" in spec:
            g["confidence"] = spec["confidence"]
        g["source"] = spec["source"]
        g["source_date"] = ("undated: gpu_specs_reference.json gives no per-spec date (vendor datasheets as widely "
                            "reproduced, not fetched live)")
        gpus[name] = g
        add_source(spec["source"])

    catalog = {
        "catalog_info": {
            "name": "gpufleet AWS GPU catalog",
            "version": "2026.11.1",
            "date": CATALOG_DATE,
            "region": REGION,
            "provider": "aws",
            "price_unit": "USD per instance-hour",
            "sources": sources,
            "generated_by": "scripts/data/build_gpu_instances.py from instances_reference.json and gpu_specs_reference.json",
            "field_notes": {
                "gpus": "one entry per GPU model used below, keyed by the gpu_specs_reference.json name",
                "gpus.*.memory_gb": "marketing memory per GPU (GB) from the GPU spec",
                "gpus.*.usable_memory_mib": "per-GPU memory as reported by the cloud API (gpu_memory_mib_reported); absent when unknown",
                "gpus.*.memory_bandwidth_gb_per_s": "GPU memory bandwidth, GB/s per GPU, from the spec",
                "gpus.*.tflops": "DENSE throughput per GPU by precision (TFLOPS; int8 in TOPS); precisions the spec gives as null are absent",
                "gpus.*.precisions_native": "among fp32, fp16, bf16, fp8, int8: those the hardware supports natively (bf16 if bf16_supported, fp8 if fp8_supported, int8 if int8_tops is published)",
                "gpus.*.confidence": "copied from the spec where it marks lower confidence",
                "gpu_instances": "one entry per family; each entry IS the family's flagship instance type (most GPUs, ties -> cheaper)",
                "name": "display name: family (GPU)",
                "family": "AWS series letter: G (graphics/inference) or P (training)",
                "gpu_type": "GPU product name",
                "vcpus": "vCPUs of the instance type",
                "gpu_memory_gb": "memory per GPU in GB (spec memory_gb of the GPU)",
                "gpus_per_instance": "GPUs in the instance type",
                "compute_tflops": "dense FP16/BF16 tensor TFLOPS per GPU (datasheet sparse figure / 2)",
                "interconnect_type": "GPU-to-GPU interconnect of the instance type",
                "interconnect_bandwidth_gbps": "GPU-to-GPU bandwidth per GPU in GB/s, as the seed uses the field (bidirectional total as datasheets quote it; for PCIe-only GPUs the PCIe x16 figure)",
                "on_demand_cost_per_hour": "us-east-1 on-demand USD per instance-hour; absent when no public price (see price_notes)",
                "spot_cost_per_hour": "us-east-1 spot USD per instance-hour (minimum over the AZs read, see price_notes); absent when not captured",
                "memory_bandwidth_factor": "GPU memory bandwidth divided by 8000 GB/s (B200, the fastest GPU in this catalog); derived from gpu_specs, rounded to 4 decimals",
                "interconnect_multiplier": "multi-GPU scaling efficiency used by the relative-performance figure: 1.0 for NVSwitch/NVLink all-to-all; PCIe-only estimates are marked as such",
                "description": "one factual sentence about the flagship instance type",
                "instance_type": "the AWS instance type this entry describes (the family flagship)",
                "gpu_model": "key into gpus",
                "ram_gib": "host memory in GiB",
                "source": "where the instance row (prices, counts, vCPUs, RAM) came from",
                "source_date": "date of that source",
                "price_notes": "provenance of the prices (AZs used for spot) and why any price key is absent",
                "spec_source": "where the GPU-derived fields of the entry came from",
                "interconnect_notes": "explains interconnect_bandwidth_gbps for PCIe-only GPUs",
                "estimates": "lists which figures in the entry are estimates or of reduced confidence",
                "sizes": "the family's other instance types, keyed by AWS instance type: gpus_per_instance, vcpus, ram_gib, prices where known, source, source_date, price_notes; gpu_model/gpu_memory_gb only where they differ from the family; notes for variants",
            },
        },
        "gpus": gpus,
        "gpu_instances": gpu_instances,
    }
    return catalog, rows


def find_nulls(obj, path="$"):
    bad = []
    if obj is None:
        bad.append(path)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            bad += find_nulls(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            bad += find_nulls(v, f"{path}[{i}]")
    return bad


def validate(catalog, rows):
    by_type = {r["instance_type"]: r for r in rows}
    fams = catalog["gpu_instances"]
    assert list(fams) == list(FAMILIES), list(fams)
    assert not find_nulls(catalog), find_nulls(catalog)
    seed_fields = ["name", "family", "gpu_type", "vcpus", "gpu_memory_gb", "gpus_per_instance", "compute_tflops",
                   "interconnect_type", "interconnect_bandwidth_gbps", "memory_bandwidth_factor",
                   "interconnect_multiplier", "description"]
    for k, e in fams.items():
        for f in seed_fields:
            assert f in e, (k, f)
        assert e["gpu_model"] in catalog["gpus"], k
        items = [(e["instance_type"], e)] + list(e["sizes"].items())
        for it, x in items:
            r = by_type[it]
            for key, rk in (("on_demand_cost_per_hour", "on_demand_usd_hr"), ("spot_cost_per_hour", "spot_usd_hr")):
                if r[rk] is None:
                    assert key not in x, (it, key)
                    assert "absent" in x["price_notes"], it
                else:
                    assert x[key] == (spot_of(r) if rk == "spot_usd_hr" else r[rk]), (it, key)
            assert x["gpus_per_instance"] == r["gpu_count"] and x["vcpus"] == r["vcpus"] and x["ram_gib"] == r["ram_gib"], it
            assert x["source"] and x["source_date"], it
        if e["interconnect_multiplier"] != 1.0:
            assert "estimate" in e.get("estimates", ""), k
    print(f"{'family':6} {'flagship':18} {'gpus':>4} {'on-demand':>10} {'spot':>9} {'sizes':>5}")
    for k, e in fams.items():
        od = e.get("on_demand_cost_per_hour", "-")
        sp = e.get("spot_cost_per_hour", "-")
        print(f"{k:6} {e['instance_type']:18} {e['gpus_per_instance']:>4} {od!s:>10} {sp!s:>9} {len(e['sizes']):>5}")
    print("OK: 9 families, prices match reference rows, no nulls")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--instances", default=DEFAULT_INSTANCES)
    ap.add_argument("--specs", default=DEFAULT_SPECS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="validate the existing --out file instead of writing it")
    a = ap.parse_args()
    catalog, rows = build(a.instances, a.specs)
    if a.check:
        on_disk = json.load(open(a.out))
        validate(on_disk, rows)
        if on_disk != catalog:
            sys.exit("ERROR: file on disk differs from a fresh build; regenerate it")
        return
    validate(catalog, rows)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(catalog, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
