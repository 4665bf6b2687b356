#!/usr/bin/env python3
"""Build config/gpu_instances.json (multi-cloud GPU / accelerator / CPU catalog) from the reference data.

Inputs (defaults point at the shared reference data):
  instances_reference.json  - per-instance-type rows: AWS us-east-1, GCP us-central1, Azure eastus
                              (prices, GPU counts, vCPUs, RAM, notes per row)
  gpu_specs_reference.json  - GPU / accelerator datasheet specs (DENSE tensor TFLOPS)
  README.md (beside them)   - provider facts: spot interruption notice, reserved / committed-use discounts

Every row of instances_reference.json appears exactly once, grouped into families. One entry does not
come from the rows: the Fargate CPU option quoted by seed 003 (marked as the seed's approximation).

Rules: every number is copied or derived (formula stated in catalog_info.field_notes) from the
reference data; a missing price is omitted (no null) and price_notes says why; estimates are
labelled in an "estimates" string.

Usage:
  python3 scripts/data/build_gpu_instances.py [--instances PATH] [--specs PATH] [--out PATH] [--check]
"""
import argparse
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED_DATA = os.path.join(REPO, "..", "shared", "data")  # the reference data beside the checkout
DEFAULT_INSTANCES = os.path.join(SHARED_DATA, "instances_reference.json")
DEFAULT_SPECS = os.path.join(SHARED_DATA, "gpu_specs_reference.json")
DEFAULT_OUT = os.path.join(REPO, "config", "gpu_instances.json")

REGIONS = {"aws": "us-east-1", "gcp": "us-central1", "azure": "eastus"}
CATALOG_DATE = "2026-07-20"
CATALOG_VERSION = "2026.11.2"
BW_REFERENCE_GPU = "B200"          # fastest GPU memory in this catalog
BW_REFERENCE_GBS = 8000            # its memory_bw_gbs in gpu_specs_reference.json
PCIE_MULTIPLIER = 0.7              # estimate, from the seed's 4-way-link value
LINK_MULTIPLIER = 0.7              # same estimate, for multi-GPU links that are not NVSwitch
NVSWITCH_MULTIPLIER = 1.0
NO_LINK_MULTIPLIER = 1             # CPU-only / single fractional GPU: no multi-device scaling applies

README_SOURCE = ("shared/data/README.md of the reference data (facts gathered from public sources; "
                 "'Things these sources taught that matter for correctness')")
README_DATE = "undated: the reference-data README gives no date (compiled with the 2026-07-20 reference snapshot)"

# Fargate (seed 003): not a reference row. Dated the day this script is run (fixed here so --check is stable).
FARGATE_DATE = "2026-11-22"
FARGATE_SOURCE = "seed 003 (approximate figure, '~$0.20/hour')"

# instances_reference gpu_model -> gpu_specs_reference name (or a catalog-only key for GPUs without a spec)
GPU_NAME_MAP = {
    "T4": "T4", "A10G": "A10G", "L4": "L4", "L40S": "L40S",
    "A100-40GB": "A100-40GB", "A100-80GB": "A100-80GB",
    "H100": "H100-SXM-80GB", "H200": "H200-SXM-141GB", "B200": "B200",
    "V100": "V100-16GB", "V100-32GB": "V100-32GB", "H100-NVL": "H100-NVL-94GB", "MI300X": "MI300X",
    "Trainium1": "Trainium1", "Inferentia2": "Inferentia2",
    "L4 (1/4 partition)": "L4", "L4 (1/2 partition)": "L4",          # g6f: fractions of one L4
    "RTX PRO 6000 Server": "RTX-PRO-6000-Server",                     # no spec in gpu_specs_reference
}
FRACTIONAL_MODELS = {"L4 (1/4 partition)", "L4 (1/2 partition)"}
NO_SPEC_GPUS = {"RTX-PRO-6000-Server"}
GPU_ORDER = ["T4", "A10G", "L4", "L40S", "A100-40GB", "A100-80GB", "H100-SXM-80GB", "H200-SXM-141GB", "B200",
             "V100-16GB", "V100-32GB", "H100-NVL-94GB", "MI300X", "Trainium1", "Inferentia2",
             "RTX-PRO-6000-Server"]

SEED_FAMILIES = ["G4dn", "G5", "G6", "G6e", "P4d", "P4de", "P5", "P5e", "P6"]

NVSWITCH_NOTE = ("NVSwitch class: the GPU spec's variant note lists this instance's GPU as SXM "
                 "(8-GPU SXM boards are NVSwitch-based); interconnect_bandwidth_gbps is the spec's NVLink figure")

# Family definitions. Membership: provider + (prefixes | exact | extra), optionally narrowed by the rows'
# gpu_model (gpu_filter). link: "pcie" / "nvswitch" (the seed's two cases), "link" (multi-GPU link that is
# not NVSwitch: multiplier is the 0.7 estimate), "none" (CPU-only or a single fractional GPU).
FAMILIES = {
    # --- AWS, the seed's nine families (unchanged apart from provider / region / accelerator_kind) ---
    "G4dn": dict(series="G", prefixes=["g4dn."], gpu_type="NVIDIA T4", label="T4",
                 interconnect_type="PCIe Gen3 x16 (no NVLink)", link="pcie", bw=32),
    "G5":   dict(series="G", prefixes=["g5."], gpu_type="NVIDIA A10G", label="A10G",
                 interconnect_type="PCIe Gen4 x16 (no NVLink)", link="pcie", bw=64),
    "G6":   dict(series="G", prefixes=["g6."], extra=["gr6.4xlarge"], gpu_type="NVIDIA L4", label="L4",
                 interconnect_type="PCIe Gen4 x16 (no NVLink)", link="pcie", bw=64),
    "G6e":  dict(series="G", prefixes=["g6e."], gpu_type="NVIDIA L40S", label="L40S",
                 interconnect_type="PCIe Gen4 x16 (no NVLink)", link="pcie", bw=64),
    "P4d":  dict(series="P", exact=["p4d.24xlarge"], gpu_type="NVIDIA A100 40GB", label="A100 40GB",
                 interconnect_type="NVSwitch (NVLink 3)", link="nvswitch", bw=600),
    "P4de": dict(series="P", exact=["p4de.24xlarge"], gpu_type="NVIDIA A100 80GB", label="A100 80GB",
                 interconnect_type="NVSwitch (NVLink 3)", link="nvswitch", bw=600),
    "P5":   dict(series="P", prefixes=["p5."], gpu_type="NVIDIA H100", label="H100",
                 interconnect_type="NVSwitch (NVLink 4)", link="nvswitch", bw=900),
    "P5e":  dict(series="P", exact=["p5e.48xlarge"], extra=["p5en.48xlarge"], flagship="p5e.48xlarge",
                 gpu_type="NVIDIA H200", label="H200",
                 interconnect_type="NVSwitch (NVLink 4)", link="nvswitch", bw=900),
    "P6":   dict(series="P", exact=["p6-b200.48xlarge"], gpu_type="NVIDIA B200", label="B200",
                 interconnect_type="NVSwitch (NVLink 5)", link="nvswitch", bw=1800),

    # --- AWS, added ---
    "P3":   dict(series="P", prefixes=["p3."], gpu_type="NVIDIA V100 16GB", label="V100 16GB",
                 interconnect_type="NVLink 2 (SXM2)", link="link", bw=300, link_name="the V100 NVLink mesh",
                 interconnect_notes="interconnect_bandwidth_gbps is the V100 SXM2 NVLink2 total from the GPU spec "
                                    "('NVLink2 300 GB/s total (SXM2)'); the link is a mesh, not an NVSwitch, so the "
                                    "multiplier is the non-NVSwitch estimate"),
    "P3dn": dict(series="P", exact=["p3dn.24xlarge"], gpu_type="NVIDIA V100 32GB", label="V100 32GB",
                 interconnect_type="NVLink 2 (SXM2)", link="link", bw=300, link_name="the V100 NVLink mesh",
                 interconnect_notes="interconnect_bandwidth_gbps is the V100 SXM2 NVLink2 total from the GPU spec "
                                    "('NVLink2 300 GB/s total'); the link is a mesh, not an NVSwitch, so the "
                                    "multiplier is the non-NVSwitch estimate"),
    "G6f":  dict(series="G", prefixes=["g6f."], gpu_type="NVIDIA L4 (fractional partition)", label="L4 partition",
                 interconnect_type="none (a fraction of one L4; no GPU-to-GPU link)", link="none", bw=0,
                 fractional=True,
                 notes="fractional L4: gpus_per_instance is the fraction of one NVIDIA L4 (0.5 / 0.25), gpu_memory_gb "
                       "the partition's label (12 / 6 GB) and usable_memory_mib the partition's reported memory; "
                       "compute_tflops and memory_bandwidth_factor are the whole L4's spec figures (the share "
                       "follows from gpus_per_instance)"),
    "G7e":  dict(series="G", prefixes=["g7e."], gpu_type="NVIDIA RTX PRO 6000 Server", label="RTX PRO 6000 Server",
                 interconnect_type="not stated in the reference data", link="link", bw=0,
                 link_name="the (unstated) GPU-to-GPU link", no_spec=True,
                 interconnect_notes="interconnect_bandwidth_gbps 0: the reference data gives no interconnect "
                                    "figure for this GPU (unknown, not zero)"),
    "Trn1": dict(series="Trn", kind="trainium", prefixes=["trn1."], gpu_type="AWS Trainium1", label="Trainium1",
                 interconnect_type="NeuronLink-v2", link="link", bw=0, link_name="NeuronLink-v2",
                 interconnect_notes="interconnect_bandwidth_gbps 0: the Trainium1 spec names the link ('NeuronLink-v2, "
                                    "4 links per chip') but gives no bandwidth figure (unknown, not zero); "
                                    "GPU fields hold Neuron chips, as the reference rows say"),
    "Inf2": dict(series="Inf", kind="inferentia", prefixes=["inf2."], gpu_type="AWS Inferentia2", label="Inferentia2",
                 interconnect_type="NeuronLink-v2", link="link", bw=0, link_name="NeuronLink-v2",
                 interconnect_notes="interconnect_bandwidth_gbps 0: the Inferentia2 spec names the link ('NeuronLink-v2, "
                                    "2 links per chip') but gives no bandwidth figure (unknown, not zero); "
                                    "GPU fields hold Neuron chips, as the reference rows say"),
    "M5":   dict(series="CPU", kind="cpu", exact=["m5.xlarge"], label="CPU only"),
    "C5":   dict(series="CPU", kind="cpu", exact=["c5.4xlarge"], label="CPU only"),
    "R5":   dict(series="CPU", kind="cpu", exact=["r5.2xlarge"], label="CPU only"),
    "Fargate": dict(series="CPU", kind="cpu", synthetic="fargate", label="CPU only"),

    # --- GCP (us-central1): machine series + accelerator ---
    "GCP-N1-T4": dict(provider="gcp", series="N1", prefixes=["n1-standard-"], gpu_filter=["T4"],
                      gpu_type="NVIDIA T4", label="T4",
                      interconnect_type="PCIe Gen3 x16 (no NVLink)", link="pcie", bw=32),
    "GCP-N1-V100": dict(provider="gcp", series="N1", prefixes=["n1-standard-"], gpu_filter=["V100"],
                        gpu_type="NVIDIA V100 16GB", label="V100 16GB",
                        interconnect_type="not stated in the reference data (V100 spec variant note: 'SXM2/PCIe')",
                        link="link", bw=0, link_name="the (unstated) GPU-to-GPU link",
                        interconnect_notes="interconnect_bandwidth_gbps 0: the reference data does not say whether "
                                           "GCP's V100s are linked by NVLink or PCIe only (unknown, not zero)"),
    "GCP-G2": dict(provider="gcp", series="G2", prefixes=["g2-standard-"], gpu_type="NVIDIA L4", label="L4",
                   interconnect_type="PCIe Gen4 x16 (no NVLink)", link="pcie", bw=64),
    "GCP-A2-HighGPU": dict(provider="gcp", series="A2", prefixes=["a2-highgpu-"], gpu_type="NVIDIA A100 40GB",
                           label="A100 40GB", interconnect_type="NVSwitch (NVLink 3)", link="nvswitch", bw=600,
                           interconnect_notes=NVSWITCH_NOTE + " ('SXM4 (AWS p4d, GCP a2-highgpu, Azure ND96asr_v4)')"),
    "GCP-A2-UltraGPU": dict(provider="gcp", series="A2", prefixes=["a2-ultragpu-"], gpu_type="NVIDIA A100 80GB",
                            label="A100 80GB", interconnect_type="NVSwitch (NVLink 3)", link="nvswitch", bw=600,
                            interconnect_notes=NVSWITCH_NOTE + " ('SXM4 (AWS p4de, GCP a2-ultragpu, "
                                                               "Azure ND96amsr_A100_v4)')"),
    "GCP-A3-HighGPU": dict(provider="gcp", series="A3", prefixes=["a3-highgpu-"], gpu_type="NVIDIA H100",
                           label="H100", interconnect_type="NVSwitch (NVLink 4)", link="nvswitch", bw=900,
                           interconnect_notes="8x H100 SXM (the rows' 'H100' = gpu_specs H100-SXM-80GB, as for AWS p5), "
                                              "treated as NVSwitch class; interconnect_bandwidth_gbps is the spec's "
                                              "NVLink4 figure"),

    # --- Azure (eastus) ---
    "Azure-NCasT4v3": dict(provider="azure", series="NC", exact=["Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3",
                                                                "Standard_NC16as_T4_v3", "Standard_NC64as_T4_v3"],
                           gpu_type="NVIDIA T4", label="T4",
                           interconnect_type="PCIe Gen3 x16 (no NVLink)", link="pcie", bw=32),
    "Azure-NCv3": dict(provider="azure", series="NC", exact=["Standard_NC6s_v3", "Standard_NC12s_v3",
                                                            "Standard_NC24s_v3"],
                       gpu_type="NVIDIA V100 16GB", label="V100 16GB",
                       interconnect_type="not stated in the reference data (V100 spec variant note: 'SXM2/PCIe')",
                       link="link", bw=0, link_name="the (unstated) GPU-to-GPU link",
                       interconnect_notes="interconnect_bandwidth_gbps 0: the reference data does not say whether "
                                          "NCv3's V100s are linked by NVLink or PCIe only (unknown, not zero)"),
    "Azure-NCA100v4": dict(provider="azure", series="NC", exact=["Standard_NC24ads_A100_v4", "Standard_NC48ads_A100_v4",
                                                                "Standard_NC96ads_A100_v4"],
                           gpu_type="NVIDIA A100 80GB PCIe", label="A100 80GB PCIe",
                           interconnect_type="PCIe Gen4 (A100 80GB PCIe card)", link="pcie", bw=64,
                           bw_override=1935,
                           interconnect_notes="PCIe card: the A100-80GB spec says 'PCIe Gen4 for PCIe card' without a "
                                              "figure; interconnect_bandwidth_gbps 64 is the PCIe Gen4 x16 bidirectional "
                                              "figure the reference specs quote for other PCIe Gen4 x16 cards (L4, A10G, "
                                              "L40S: '~64 GB/s bidir')",
                           notes="NC A100 v4 uses the A100 80GB PCIe card, with 1935 GB/s memory bandwidth per the "
                                 "A100-80GB spec's variant note ('Azure NC A100 v4 uses PCIe 80GB (1935 GB/s)'); "
                                 "memory_bandwidth_factor uses 1935 GB/s, every other GPU figure the A100-80GB spec "
                                 "(gpus.A100-80GB, which describes the SXM4 card: 2039 GB/s)"),
    "Azure-ND96asr-v4": dict(provider="azure", series="ND", exact=["Standard_ND96asr_v4"], gpu_type="NVIDIA A100 40GB",
                             label="A100 40GB", interconnect_type="NVSwitch (NVLink 3)", link="nvswitch", bw=600,
                             interconnect_notes=NVSWITCH_NOTE + " ('SXM4 (AWS p4d, GCP a2-highgpu, Azure ND96asr_v4)')"),
    "Azure-ND96amsr-A100-v4": dict(provider="azure", series="ND", exact=["Standard_ND96amsr_A100_v4"],
                                   gpu_type="NVIDIA A100 80GB", label="A100 80GB",
                                   interconnect_type="NVSwitch (NVLink 3)", link="nvswitch", bw=600,
                                   interconnect_notes=NVSWITCH_NOTE + " ('SXM4 (AWS p4de, GCP a2-ultragpu, "
                                                                      "Azure ND96amsr_A100_v4)')"),
    "Azure-NDH100v5": dict(provider="azure", series="ND", exact=["Standard_ND96isr_H100_v5"], gpu_type="NVIDIA H100",
                           label="H100", interconnect_type="NVSwitch (NVLink 4)", link="nvswitch", bw=900,
                           interconnect_notes="8x H100 SXM (the rows' 'H100' = gpu_specs H100-SXM-80GB, as for AWS p5), "
                                              "treated as NVSwitch class; interconnect_bandwidth_gbps is the spec's "
                                              "NVLink4 figure",
                           notes="gpus_per_instance 8: the source catalog row says AcceleratorCount=12, which the "
                                 "reference row marks as wrong (8x H100 80GB); spot_cost_per_hour omitted because the "
                                 "source catalog's SpotPrice equals its Price (spot not captured)"),
    "Azure-NCH100v5": dict(provider="azure", series="NC", exact=["Standard_NC40ads_H100_v5", "Standard_NC80adis_H100_v5"],
                           gpu_type="NVIDIA H100 NVL 94GB", label="H100 NVL 94GB",
                           interconnect_type="NVLink bridge (pairs) / PCIe Gen5, per the H100 NVL spec",
                           link="link", bw=600, link_name="the H100 NVL bridge / PCIe",
                           interconnect_notes="interconnect_bandwidth_gbps is the H100 NVL spec's bridge figure "
                                              "('NVLink bridge 600 GB/s (pairs); PCIe Gen5'); whether the NC80adis "
                                              "pair is bridged is not stated in the reference data"),
    "Azure-NDMI300Xv5": dict(provider="azure", series="ND", exact=["Standard_ND_MI300X_v5"], gpu_type="AMD Instinct MI300X",
                             label="MI300X", interconnect_type="AMD Infinity Fabric", link="link", bw=896,
                             link_name="Infinity Fabric",
                             interconnect_notes="interconnect_bandwidth_gbps is the MI300X spec's peer aggregate "
                                                "('Infinity Fabric: 7 links x 128 GB/s = 896 GB/s peer aggregate')"),
}

SIZE_NOTES = {
    "gr6.4xlarge": "gr6 variant of G6: same NVIDIA L4 GPU, more RAM per vCPU (128 GiB for 16 vCPUs)",
    "p5en.48xlarge": "P5en variant of P5e: same 8x NVIDIA H200; unlike p5e.48xlarge it has a public us-east-1 on-demand price",
    "g6f.2xlarge": "a quarter of one NVIDIA L4 (gpus_per_instance 0.25): 6 GB partition, 5722 MiB reported",
}

# Spot figures replaced where the reference row's own notes show its minimum is an outlier.
SPOT_OVERRIDES = {
    "p4d.24xlarge": (7.88, "spot_cost_per_hour 7.88 is the lowest of the AZs the reference row calls normal "
                           "(7.88-8.19); its minimum 2.4655 comes from one AZ that the row flags as an outlier"),
}

GCP_COMPONENTS = re.compile(r"host (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?) \+ accel (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)")


def spot_of(row):
    return SPOT_OVERRIDES.get(row["instance_type"], (row["spot_usd_hr"],))[0]


PRECISIONS = ["fp32", "tf32", "fp16", "bf16", "fp8", "int8"]
SPEC_TFLOPS_KEY = {"fp32": "fp32_tflops", "tf32": "tf32_tflops", "fp16": "fp16_tflops",
                   "bf16": "bf16_tflops", "fp8": "fp8_tflops", "int8": "int8_tops"}
SPEC_NOTE_KEYS = ["variant", "note", "memory_note", "fp8_note", "int8_note"]


def round4(x):
    return float(Decimal(str(x)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


def num(x):
    """Keep integers as ints in the JSON."""
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def fam_provider(fam):
    return fam.get("provider", "aws")


def price_notes(row):
    notes = (row.get("notes") or "").strip()
    parts = []
    od, sp = row.get("on_demand_usd_hr"), row.get("spot_usd_hr")
    it, region = row["instance_type"], row["region"]
    if od is None and sp is None and it.startswith("p5e."):
        parts.append("on_demand_cost_per_hour and spot_cost_per_hour absent: p5e is sold as EC2 Capacity Blocks only "
                     "(no public on-demand price; no us-east-1 spot rows)")
    elif od is None and sp is None and "not present in stored SkyPilot" in notes:
        parts.append("on_demand_cost_per_hour and spot_cost_per_hour absent: the instance type is not in the stored "
                     "SkyPilot Azure catalog (v6, US regions), so the reference data has no price for it")
    else:
        if od is None:
            parts.append(f"on_demand_cost_per_hour absent: no {region} on-demand price in the reference snapshot")
        if sp is None:
            if "SpotPrice==Price" in notes:
                parts.append("spot_cost_per_hour absent: the source catalog lists spot equal to on-demand "
                             "(spot not captured)")
            elif "not read" in notes:
                parts.append("spot_cost_per_hour absent: spot price was not captured in the reference snapshot")
            else:
                parts.append(f"spot_cost_per_hour absent: no usable {region} spot price in the reference snapshot")
    if it in SPOT_OVERRIDES:
        parts.append(SPOT_OVERRIDES[it][1])
    if notes:
        parts.append("reference notes: " + notes)
    if not parts:
        parts.append(f"both prices copied from the reference row ({region} Price / SpotPrice of the source catalog); "
                     "the row notes no anomaly")
    return "; ".join(parts)


def price_components(row):
    """GCP: the instance price is the machine (host VM) row plus the accelerator row, per the row notes."""
    m = GCP_COMPONENTS.search(row["notes"])
    assert m, row["instance_type"]
    mo, ms, go, gs = (float(x) for x in m.groups())
    assert abs(mo + go - row["on_demand_usd_hr"]) <= 1e-4, (row["instance_type"], mo, go)
    assert abs(ms + gs - row["spot_usd_hr"]) <= 1e-4, (row["instance_type"], ms, gs)
    return {"machine_on_demand_usd_per_hour": num(mo), "gpus_on_demand_usd_per_hour": num(go),
            "machine_spot_usd_per_hour": num(ms), "gpus_spot_usd_per_hour": num(gs)}


def members_of(fam, rows):
    out = []
    prov = fam_provider(fam)
    for r in rows:
        if r["provider"] != prov:
            continue
        it = r["instance_type"]
        if any(it.startswith(p) for p in fam.get("prefixes", [])) or it in fam.get("exact", []) \
                or it in fam.get("extra", []):
            if "gpu_filter" in fam and r["gpu_model"] not in fam["gpu_filter"]:
                continue
            out.append(r)
    return out


def pick_flagship(fam, members):
    if "flagship" in fam:
        return next(r for r in members if r["instance_type"] == fam["flagship"])
    # most GPUs; ties -> cheaper on-demand (missing price sorts last)
    return sorted(members, key=lambda r: (-r["gpu_count"],
                                          r["on_demand_usd_hr"] if r["on_demand_usd_hr"] is not None else float("inf")))[0]


def describe(fam_key, fam, flag, spec_mem):
    n = num(flag["gpu_count"])
    it = flag["instance_type"]
    kind = fam.get("kind", "gpu")
    if kind == "cpu":
        return (f"{it}: CPU-only instance, {flag['vcpus']} vCPUs and {num(flag['ram_gib'])} GiB RAM; "
                f"no accelerator.")
    if fam.get("fractional"):
        return (f"{it}: {n} of one NVIDIA L4 (a {num(flag['gpu_memory_gb'])} GB partition, "
                f"{flag['gpu_memory_mib_reported']} MiB reported); G-series fractional-GPU instance for small inference.")
    if kind in ("trainium", "inferentia"):
        use = "training" if kind == "trainium" else "inference"
        return (f"{it}: {n}x {fam['gpu_type']} Neuron chips ({spec_mem} GB HBM each, {fam['interconnect_type']}); "
                f"{fam['series']}-series accelerator instance built for {use}; GPU fields hold Neuron chips.")
    if fam_provider(fam) == "aws" and fam_key in SEED_FAMILIES:
        pcie = fam["link"] == "pcie"
        use = "inference" if fam["series"] == "G" else "training"
        link = "PCIe only, no NVLink" if pcie else fam["interconnect_type"].replace(" (", ", ").rstrip(")")
        return (f"{it}: {n}x {fam['gpu_type']} ({spec_mem} GB each, {link}); "
                f"{fam['series']}-series instance typically used for {use}.")
    link = "PCIe only, no NVLink" if fam["link"] == "pcie" else fam["interconnect_type"]
    if link.startswith("not stated"):
        link = "interconnect " + link
    prov = {"aws": "AWS", "gcp": "GCP", "azure": "Azure"}[fam_provider(fam)]
    if fam_provider(fam) == "aws":
        use = "inference" if fam["series"] == "G" else "training"
        tail = f"{fam['series']}-series instance typically used for {use}."
    else:
        tail = f"{prov} {fam['series']}-series GPU machine in {REGIONS[fam_provider(fam)]}."
    return f"{it}: {n}x {fam['gpu_type']} ({spec_mem} GB each, {link}); {tail}"


def cpu_entry(fam_key, fam, flag):
    """A CPU-only family: no accelerator; ram_gib carries the memory."""
    entry = {
        "name": f"{fam_key} ({fam['label']})",
        "family": fam["series"],
        "gpu_type": "none (CPU only)",
        "vcpus": flag["vcpus"],
        "gpu_memory_gb": 0,
        "gpus_per_instance": 0,
        "compute_tflops": 0,
        "interconnect_type": "none",
        "interconnect_bandwidth_gbps": 0,
    }
    if flag.get("on_demand_usd_hr") is not None:
        entry["on_demand_cost_per_hour"] = flag["on_demand_usd_hr"]
    if flag.get("spot_usd_hr") is not None:
        entry["spot_cost_per_hour"] = spot_of(flag)
    entry["memory_bandwidth_factor"] = 0
    entry["interconnect_multiplier"] = NO_LINK_MULTIPLIER
    entry["description"] = describe(fam_key, fam, flag, None)
    entry["provider"] = flag["provider"]
    entry["region"] = flag["region"]
    entry["accelerator_kind"] = "cpu"
    entry["instance_type"] = flag["instance_type"]
    entry["ram_gib"] = num(flag["ram_gib"])
    entry["source"] = flag["source"]
    entry["source_date"] = flag["source_date"]
    entry["price_notes"] = flag["price_notes"] if "price_notes" in flag else price_notes(flag)
    entry["notes"] = ("CPU-only: gpus_per_instance, gpu_memory_gb, compute_tflops and memory_bandwidth_factor are 0 "
                      "because there is no accelerator (not unknown); ram_gib carries the memory")
    if "estimates" in flag:
        entry["estimates"] = flag["estimates"]
    entry["sizes"] = {}
    return entry


FARGATE_ROW = {
    "provider": "aws", "instance_type": "fargate-4vcpu-16gb", "region": "us-east-1 (seed 003 says 'current region')",
    "gpu_model": None, "gpu_count": 0, "gpu_memory_gb": 0, "vcpus": 4, "ram_gib": 16,
    "on_demand_usd_hr": 0.20, "spot_usd_hr": None, "source": FARGATE_SOURCE, "source_date": FARGATE_DATE,
    "price_notes": ("on_demand_cost_per_hour is seed 003's '4 vCPU, 16GB RAM: ~$0.20/hour' for ECS Fargate in its "
                    "'current region' (not named; us-east-1 assumed); spot_cost_per_hour absent: the seed gives no "
                    "Fargate Spot price"),
    "estimates": ("on_demand_cost_per_hour 0.20 is seed 003's approximation ('~$0.20/hour'), not a price-list "
                  "figure; region assumed us-east-1 (the seed says 'current region'); ram_gib 16 is the seed's '16GB RAM'"),
}


def build(instances_path, specs_path):
    rows = json.load(open(instances_path))
    for r in rows:
        assert REGIONS[r["provider"]] == r["region"], r["instance_type"]
    specs_doc = json.load(open(specs_path))
    specs = {g["name"]: g for g in specs_doc["gpus"]}
    assert specs[BW_REFERENCE_GPU]["memory_bw_gbs"] == BW_REFERENCE_GBS

    sources = []

    def add_source(s):
        if s and s not in sources:
            sources.append(s)

    gpu_instances = {}
    used_gpus = {}   # catalog gpu name -> list of rows
    for fam_key, fam in FAMILIES.items():
        prov = fam_provider(fam)
        kind = fam.get("kind", "gpu")
        if fam.get("synthetic") == "fargate":
            add_source(FARGATE_SOURCE)
            gpu_instances[fam_key] = cpu_entry(fam_key, fam, FARGATE_ROW)
            continue
        members = members_of(fam, rows)
        assert members, fam_key
        if not fam.get("fractional"):
            assert not any(r["gpu_model"] in FRACTIONAL_MODELS for r in members), fam_key
        for r in members:
            add_source(r["source"])
        flag = pick_flagship(fam, members)
        if kind == "cpu":
            assert len(members) == 1 and flag["gpu_model"] is None, fam_key
            gpu_instances[fam_key] = cpu_entry(fam_key, fam, flag)
            continue

        gpu_name = GPU_NAME_MAP[flag["gpu_model"]]
        for r in members:
            used_gpus.setdefault(GPU_NAME_MAP[r["gpu_model"]], []).append(r)
        no_spec = fam.get("no_spec", False)
        spec = None if no_spec else specs[gpu_name]
        if fam.get("fractional"):
            fam_mem = num(flag["gpu_memory_gb"])          # the partition's label
        elif no_spec:
            fam_mem = num(flag["gpu_memory_gb"])          # no spec: the rows' per-GPU memory
        else:
            fam_mem = num(spec["memory_gb"])
            assert all(r["gpu_memory_gb"] == spec["memory_gb"] for r in members), fam_key

        link, bw = fam["link"], fam["bw"]
        if link in ("pcie", "nvswitch") and fam_key != "Azure-NCA100v4":
            assert str(bw) in spec["interconnect"] or str(bw) in spec["interconnect"].replace(",", ""), \
                (fam_key, spec["interconnect"])
        if link == "link" and bw:
            assert str(bw) in spec["interconnect"], (fam_key, spec["interconnect"])
        n = flag["gpu_count"]

        entry = {
            "name": f"{fam_key} ({fam['label']})",
            "family": fam["series"],
            "gpu_type": fam["gpu_type"],
            "vcpus": flag["vcpus"],
            "gpu_memory_gb": fam_mem,
            "gpus_per_instance": num(n),
            "compute_tflops": 0 if no_spec else num(spec["fp16_tflops"]),
            "interconnect_type": fam["interconnect_type"],
            "interconnect_bandwidth_gbps": bw,
        }
        if flag["on_demand_usd_hr"] is not None:
            entry["on_demand_cost_per_hour"] = flag["on_demand_usd_hr"]
        if flag["spot_usd_hr"] is not None:
            entry["spot_cost_per_hour"] = spot_of(flag)
        if prov == "gcp":
            entry["price_components"] = price_components(flag)
        if no_spec:
            entry["memory_bandwidth_factor"] = 0
        else:
            mem_bw = fam.get("bw_override", spec["memory_bw_gbs"])
            if "bw_override" in fam:
                assert f"({mem_bw} GB/s)" in spec["variant"], spec["variant"]
            entry["memory_bandwidth_factor"] = round4(mem_bw / BW_REFERENCE_GBS)
        entry["interconnect_multiplier"] = {"pcie": PCIE_MULTIPLIER, "nvswitch": NVSWITCH_MULTIPLIER,
                                            "link": LINK_MULTIPLIER, "none": NO_LINK_MULTIPLIER}[link]
        entry["description"] = describe(fam_key, fam, flag, fam_mem if no_spec else num(spec["memory_gb"]))
        entry["provider"] = prov
        entry["region"] = flag["region"]
        entry["accelerator_kind"] = kind
        entry["instance_type"] = flag["instance_type"]
        entry["gpu_model"] = gpu_name
        if fam.get("fractional"):
            entry["usable_memory_mib"] = flag["gpu_memory_mib_reported"]
        entry["ram_gib"] = num(flag["ram_gib"])
        entry["source"] = flag["source"]
        entry["source_date"] = flag["source_date"]
        entry["price_notes"] = price_notes(flag)
        if no_spec:
            entry["spec_source"] = ("no gpu_specs_reference.json entry for this GPU: gpu_memory_gb and the GPU's "
                                    "usable memory come from the instance rows; compute_tflops and "
                                    "memory_bandwidth_factor are 0 = unknown")
        else:
            what = "gpu_memory_gb, compute_tflops, memory_bandwidth_factor, interconnect_bandwidth_gbps"
            if fam.get("fractional"):
                what = "compute_tflops, memory_bandwidth_factor (whole L4)"
            elif bw == 0:
                what = "gpu_memory_gb, compute_tflops, memory_bandwidth_factor"
            elif fam_key == "Azure-NCA100v4":
                what = "gpu_memory_gb, compute_tflops, memory_bandwidth_factor (variant note: 1935 GB/s)"
            entry["spec_source"] = f"{what}: gpus.{gpu_name} (gpu_specs_reference.json): {spec['source']}"
        if link == "pcie" and "interconnect_notes" not in fam:
            entry["interconnect_notes"] = (f"PCIe-only GPU: interconnect_bandwidth_gbps is the PCIe x16 bidirectional "
                                           f"figure quoted in the GPU spec ('{spec['interconnect']}'), not an NVLink link")
        elif "interconnect_notes" in fam:
            entry["interconnect_notes"] = fam["interconnect_notes"]
        if "notes" in fam:
            entry["notes"] = fam["notes"]
        estimates = []
        if no_spec:
            estimates.append("compute_tflops 0 and memory_bandwidth_factor 0: no datasheet figure in the reference "
                             "data; performance not estimated")
        if link == "pcie":
            estimates.append(f"interconnect_multiplier {PCIE_MULTIPLIER} is an estimate (the seed's value for a "
                             "4-way link; PCIe-only scaling was not measured)")
        elif link == "link":
            estimates.append(f"interconnect_multiplier {LINK_MULTIPLIER} is an estimate (the seed's value for a "
                             f"4-way link; scaling over {fam['link_name']} was not measured; this catalog uses 1.0 "
                             "only for NVSwitch-based 8-GPU SXM boards)")
        if fam_key == "Azure-NCA100v4":
            estimates.append("interconnect_bandwidth_gbps 64 is the generic PCIe Gen4 x16 figure, not one the A100 "
                             "spec gives")
        if spec is not None and "confidence" in spec:
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
            if prov == "gcp":
                s["price_components"] = price_components(r)
            rg = GPU_NAME_MAP[r["gpu_model"]]
            if rg != gpu_name:
                s["gpu_model"] = rg
            if r["gpu_memory_gb"] != flag["gpu_memory_gb"]:
                s["gpu_memory_gb"] = num(r["gpu_memory_gb"])
            if r["gpu_model"] in FRACTIONAL_MODELS:
                s["usable_memory_mib"] = r["gpu_memory_mib_reported"]
            s["source"] = r["source"]
            s["source_date"] = r["source_date"]
            s["price_notes"] = price_notes(r)
            if r["instance_type"] in SIZE_NOTES:
                s["notes"] = SIZE_NOTES[r["instance_type"]]
            sizes[r["instance_type"]] = s
        entry["sizes"] = sizes
        gpu_instances[fam_key] = entry

    gpus = {}
    assert set(used_gpus) <= set(GPU_ORDER), set(used_gpus) - set(GPU_ORDER)
    for name in GPU_ORDER:
        assert name in used_gpus, name
        # usable memory: whole-GPU rows only (g6f rows report a partition's memory)
        whole = [r for r in used_gpus[name] if r["gpu_model"] not in FRACTIONAL_MODELS]
        reported = [r for r in whole if r["gpu_memory_mib_reported"] is not None]
        mibs = {r["gpu_memory_mib_reported"] for r in reported}
        assert len(mibs) <= 1, (name, mibs)
        if name in NO_SPEC_GPUS:
            mem = {r["gpu_memory_gb"] for r in whole}
            assert len(mem) == 1 and mibs, (name, mem)
            labels = sorted({r["gpu_model"] for r in whole})
            g = {"vendor": "nvidia", "memory_gb": num(mem.pop()), "usable_memory_mib": mibs.pop(),
                 "usable_memory_source": ("gpu_memory_mib_reported of the AWS rows in instances_reference.json "
                                          "(cloud-reported per-GPU memory; " +
                                          reported[0]["source"].split("; gpu: ")[-1] + ")"),
                 "notes": ("not in gpu_specs_reference.json: no datasheet figure in the reference data; performance "
                           "not estimated (no tflops, memory_bandwidth_gb_per_s, arch or precisions). memory_gb is the "
                           "instance rows' gpu_memory_gb; the rows name the GPU " +
                           ", ".join(f"'{x}'" for x in labels) + "; vendor from the product name (NVIDIA RTX PRO)"),
                 "source": "instances_reference.json rows " + ", ".join(sorted(r["instance_type"] for r in whole)) +
                           ": " + whole[0]["source"],
                 "source_date": whole[0]["source_date"]}
            gpus[name] = g
            continue
        spec = specs[name]
        g = {"vendor": spec["vendor"], "arch": spec["arch"], "memory_gb": num(spec["memory_gb"])}
        if mibs:
            g["usable_memory_mib"] = mibs.pop()
            g["usable_memory_source"] = ("gpu_memory_mib_reported of the AWS rows in instances_reference.json "
                                         "(cloud-reported per-GPU memory; " +
                                         reported[0]["source"].split("; gpu: ")[-1] + ")")
        else:
            g["usable_memory_notes"] = "usable_memory_mib absent: no cloud-reported MiB figure in the reference data"
        if "memory_type" in spec:
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
        if "compute_capability" in spec:
            g["compute_capability"] = spec["compute_capability"]
        if "confidence" in spec:
            g["confidence"] = spec["confidence"]
        spec_notes = [f"{k}: {spec[k]}" for k in SPEC_NOTE_KEYS if spec.get(k)]
        if spec_notes:
            g["spec_notes"] = "; ".join(spec_notes)
        g["source"] = spec["source"]
        g["source_date"] = ("undated: gpu_specs_reference.json gives no per-spec date (vendor datasheets as widely "
                            "reproduced, not fetched live)")
        gpus[name] = g
        add_source(spec["source"])

    readme_ri = ("reference-data README: 'Reserved/committed: AWS 1-year about 38–43 % off and 3-year about 68–72 % "
                 "(standard, varies by payment option); GCP committed-use on A2 about 37 % (1y) and 65 % (3y)'")
    readme_spot = "reference-data README: 'Spot interruption notice: AWS 2 minutes, GCP and Azure 30 seconds'"
    providers = {
        "aws": {
            "name": "Amazon Web Services",
            "region": REGIONS["aws"],
            "spot_interruption_notice_seconds": 120,
            "commitments": {
                "1y": {"discount_pct": (38 + 43) / 2, "range_pct": [38, 43],
                       "estimates": "discount_pct is the midpoint of the quoted 38-43 % range (an estimate within the "
                                    "range; the real figure varies by payment option)",
                       "source": readme_ri, "source_date": README_DATE},
                "3y": {"discount_pct": num((68 + 72) / 2), "range_pct": [68, 72],
                       "estimates": "discount_pct is the midpoint of the quoted 68-72 % range (an estimate within the "
                                    "range; the real figure varies by payment option)",
                       "source": readme_ri, "source_date": README_DATE},
            },
            "source": readme_spot + " (120 s = 2 minutes)",
            "source_date": README_DATE,
        },
        "gcp": {
            "name": "Google Cloud",
            "region": REGIONS["gcp"],
            "spot_interruption_notice_seconds": 30,
            "commitments": {
                "1y": {"discount_pct": 37,
                       "estimates": "the quoted figure is for A2 committed use ('about 37 %'); this catalog applies it "
                                    "to all GCP GPU machines as an estimate",
                       "source": readme_ri, "source_date": README_DATE},
                "3y": {"discount_pct": 65,
                       "estimates": "the quoted figure is for A2 committed use ('about 65 %'); this catalog applies it "
                                    "to all GCP GPU machines as an estimate",
                       "source": readme_ri, "source_date": README_DATE},
            },
            "source": readme_spot,
            "source_date": README_DATE,
        },
        "azure": {
            "name": "Microsoft Azure",
            "region": REGIONS["azure"],
            "spot_interruption_notice_seconds": 30,
            "commitments": {},
            "commitment_notes": "no reserved-instance discount in the reference data; reserved pricing not offered "
                                "for Azure in this catalog",
            "source": readme_spot,
            "source_date": README_DATE,
        },
    }
    add_source(README_SOURCE)

    catalog = {
        "catalog_info": {
            "name": "gpufleet multi-cloud GPU catalog",
            "version": CATALOG_VERSION,
            "date": CATALOG_DATE,
            "region": "us-east-1 (aws), us-central1 (gcp), eastus (azure)",
            "provider": "aws, gcp, azure",
            "price_unit": "USD per instance-hour",
            "sources": sources,
            "dates_note": ("AWS rows: Karpenter on-demand table generated 2026-07-20 and SkyPilot v8 AWS spot. GCP and "
                           "Azure rows come from SkyPilot catalog snapshots (gcp v8, azure v6) whose dates are not "
                           "exposed, as the rows' source_date says; the Azure v6 snapshot is older. The Fargate entry "
                           "is seed 003's approximation, dated the day it was added."),
            "generated_by": "scripts/data/build_gpu_instances.py from instances_reference.json and gpu_specs_reference.json",
            "field_notes": {
                "providers": "per provider: name, region of its rows, spot_interruption_notice_seconds, commitments "
                             "(reserved / committed-use terms keyed '1y' / '3y': discount_pct off on-demand, range_pct "
                             "where a range is quoted, estimates, source, source_date), commitment_notes where none; "
                             "source / source_date of the spot notice",
                "gpus": "one entry per GPU / accelerator model used below, keyed by the gpu_specs_reference.json name "
                        "(RTX-PRO-6000-Server has no spec there: memory only)",
                "gpus.*.memory_gb": "marketing memory per GPU (GB) from the GPU spec",
                "gpus.*.usable_memory_mib": "per-GPU memory as reported by the cloud API (gpu_memory_mib_reported); absent when unknown",
                "gpus.*.memory_bandwidth_gb_per_s": "GPU memory bandwidth, GB/s per GPU, from the spec",
                "gpus.*.tflops": "DENSE throughput per GPU by precision (TFLOPS; int8 in TOPS); precisions the spec gives as null are absent",
                "gpus.*.precisions_native": "among fp32, fp16, bf16, fp8, int8: those the hardware supports natively (bf16 if bf16_supported, fp8 if fp8_supported, int8 if int8_tops is published)",
                "gpus.*.confidence": "copied from the spec where it marks lower confidence",
                "gpus.*.spec_notes": "the spec's variant / note / memory_note / fp8_note / int8_note strings, verbatim",
                "gpus.*.notes": "why a GPU entry carries fewer figures (no spec in the reference data)",
                "gpu_instances": "one entry per family; each entry IS the family's flagship instance type (most GPUs, ties -> cheaper)",
                "name": "display name: family (GPU)",
                "family": "series name: AWS G (graphics/inference), P (training), Trn (Trainium), Inf (Inferentia), CPU (no accelerator); GCP N1, G2, A2, A3; Azure NC, ND",
                "provider": "cloud: aws, gcp or azure",
                "region": "region of the rows (us-east-1, us-central1, eastus); the Fargate entry's region is assumed, as its value says",
                "accelerator_kind": "gpu, trainium, inferentia or cpu (cpu: no accelerator; GPU fields are 0)",
                "gpu_type": "GPU product name",
                "vcpus": "vCPUs of the instance type",
                "gpu_memory_gb": "memory per GPU in GB (spec memory_gb of the GPU; for fractional GPUs the partition's label; 0 for CPU-only)",
                "gpus_per_instance": "GPUs (or Neuron chips) in the instance type; a fraction for a GPU partition (g6f); 0 for CPU-only",
                "compute_tflops": "dense FP16/BF16 tensor TFLOPS per GPU (datasheet sparse figure / 2); 0 = CPU-only or no datasheet figure (see estimates)",
                "interconnect_type": "GPU-to-GPU interconnect of the instance type",
                "interconnect_bandwidth_gbps": "GPU-to-GPU bandwidth per GPU in GB/s, as the seed uses the field (bidirectional total as datasheets quote it; for PCIe-only GPUs the PCIe x16 figure); 0 = none or not in the reference data (see interconnect_notes)",
                "on_demand_cost_per_hour": "on-demand USD per instance-hour in the entry's region; absent when no public price (see price_notes)",
                "spot_cost_per_hour": "spot USD per instance-hour in the entry's region (AWS: minimum over the AZs read, see price_notes); absent when not captured",
                "price_components": "GCP only: the instance price as machine (host VM) + GPUs, on-demand and spot, USD per hour, from the row notes; the parts sum to the totals (checked to 1e-4)",
                "memory_bandwidth_factor": "GPU memory bandwidth divided by 8000 GB/s (B200, the fastest GPU in this catalog); derived from gpu_specs, rounded to 4 decimals; 0 = CPU-only or no datasheet figure",
                "interconnect_multiplier": "multi-GPU scaling efficiency used by the relative-performance figure: 1.0 for NVSwitch/NVLink all-to-all (8-GPU SXM boards); every other multi-GPU link (PCIe, V100 NVLink mesh, NeuronLink, Infinity Fabric, NVL bridge) 0.7, an estimate marked as such; 1 where no multi-device scaling applies (CPU-only, one fractional GPU)",
                "description": "one factual sentence about the flagship instance type",
                "instance_type": "the cloud instance / machine type this entry describes (the family flagship); GCP: machine type + accelerators",
                "gpu_model": "key into gpus (absent for CPU-only)",
                "usable_memory_mib": "per-GPU usable memory reported for this instance type (fractional GPUs: the partition's); on the entry and its sizes",
                "ram_gib": "host memory in GiB",
                "source": "where the instance row (prices, counts, vCPUs, RAM) came from",
                "source_date": "date of that source (GCP / Azure: the snapshot text of the row; see dates_note)",
                "price_notes": "provenance of the prices (AZs used for spot, anomalies the rows note) and why any price key is absent",
                "spec_source": "where the GPU-derived fields of the entry came from",
                "interconnect_notes": "explains interconnect_type / interconnect_bandwidth_gbps where it is not an NVSwitch figure",
                "notes": "facts about the entry that the other fields cannot say (CPU-only, fractional GPU, catalog faults corrected)",
                "estimates": "lists which figures in the entry are estimates or of reduced confidence",
                "sizes": "the family's other instance types, keyed by instance type: gpus_per_instance, vcpus, ram_gib, prices where known, price_components (GCP), source, source_date, price_notes; gpu_model/gpu_memory_gb/usable_memory_mib only where they differ from the family; notes for variants",
            },
        },
        "providers": providers,
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
    by_key = {(r["provider"], r["instance_type"]): r for r in rows}
    assert len(by_key) == len(rows), "duplicate reference rows"
    fams = catalog["gpu_instances"]
    assert list(fams) == list(FAMILIES), list(fams)
    assert not find_nulls(catalog), find_nulls(catalog)
    seed_fields = ["name", "family", "gpu_type", "vcpus", "gpu_memory_gb", "gpus_per_instance", "compute_tflops",
                   "interconnect_type", "interconnect_bandwidth_gbps", "memory_bandwidth_factor",
                   "interconnect_multiplier", "description"]
    seen = {}
    for k, e in fams.items():
        for f in seed_fields + ["provider", "region", "accelerator_kind", "instance_type", "ram_gib",
                                "source", "source_date", "price_notes", "sizes"]:
            assert f in e, (k, f)
        assert e["provider"] in ("aws", "gcp", "azure"), k
        assert e["accelerator_kind"] in ("gpu", "trainium", "inferentia", "cpu"), k
        assert e["region"].startswith(REGIONS[e["provider"]]), k
        if e["accelerator_kind"] == "cpu":
            assert "gpu_model" not in e and e["gpus_per_instance"] == 0 and e["compute_tflops"] == 0, k
            assert e["memory_bandwidth_factor"] == 0 and e["interconnect_multiplier"] == 1 and e["ram_gib"] > 0, k
        else:
            assert e["gpu_model"] in catalog["gpus"], k
            if e["compute_tflops"] == 0 or e["memory_bandwidth_factor"] == 0:
                assert "performance not estimated" in e.get("estimates", ""), k
        if e["interconnect_multiplier"] not in (1.0, 1):
            assert "estimate" in e.get("estimates", ""), k
        if k == "Fargate":
            assert e["instance_type"] == "fargate-4vcpu-16gb" and e["on_demand_cost_per_hour"] == 0.20
            assert "approximation" in e["estimates"] and not e["sizes"], k
            continue
        items = [(e["instance_type"], e)] + list(e["sizes"].items())
        for it, x in items:
            key = (e["provider"], it)
            assert key in by_key, key
            assert key not in seen, (key, seen.get(key), k)
            seen[key] = k
            r = by_key[key]
            assert r["region"] == e["region"], it
            for fk, rk in (("on_demand_cost_per_hour", "on_demand_usd_hr"), ("spot_cost_per_hour", "spot_usd_hr")):
                if r[rk] is None:
                    assert fk not in x, (it, fk)
                    assert "absent" in x["price_notes"], it
                else:
                    assert x[fk] == (spot_of(r) if rk == "spot_usd_hr" else r[rk]), (it, fk)
            assert x["gpus_per_instance"] == r["gpu_count"] and x["vcpus"] == r["vcpus"] and x["ram_gib"] == r["ram_gib"], it
            assert x["source"] == r["source"] and x["source_date"] == r["source_date"], it
            if r["notes"]:
                assert r["notes"] in x["price_notes"], it      # the rows' notes (anomalies) kept verbatim
            if e["provider"] == "gcp":
                pc = x["price_components"]
                assert abs(pc["machine_on_demand_usd_per_hour"] + pc["gpus_on_demand_usd_per_hour"]
                           - x["on_demand_cost_per_hour"]) <= 1e-4, it
                assert abs(pc["machine_spot_usd_per_hour"] + pc["gpus_spot_usd_per_hour"]
                           - x["spot_cost_per_hour"]) <= 1e-4, it
            else:
                assert "price_components" not in x, it
            if r["gpu_model"] is not None and x is not e:
                assert x.get("gpu_model", e["gpu_model"]) == GPU_NAME_MAP[r["gpu_model"]], it
            if r["gpu_model"] in FRACTIONAL_MODELS:
                assert x["usable_memory_mib"] == r["gpu_memory_mib_reported"], it
                assert x.get("gpu_memory_gb", e["gpu_memory_gb"]) == r["gpu_memory_gb"], it
    missing = set(by_key) - set(seen)
    assert not missing, sorted(missing)
    # the providers block
    for p in ("aws", "gcp", "azure"):
        pv = catalog["providers"][p]
        assert pv["spot_interruption_notice_seconds"] > 0 and "commitments" in pv, p
        for term, c in pv["commitments"].items():
            assert 0 < c["discount_pct"] < 95 and c["source"] and c["source_date"], (p, term)
            if "range_pct" in c:
                lo, hi = c["range_pct"]
                assert c["discount_pct"] == (lo + hi) / 2 and "midpoint" in c["estimates"], (p, term)
    assert catalog["providers"]["azure"]["commitments"] == {} and catalog["providers"]["azure"]["commitment_notes"]

    for prov in ("aws", "gcp", "azure"):
        print(f"\n[{prov}]")
        print(f"{'family':24} {'flagship':26} {'gpus':>5} {'on-demand':>10} {'spot':>9} {'sizes':>5}")
        for k, e in fams.items():
            if e["provider"] != prov:
                continue
            od = e.get("on_demand_cost_per_hour", "-")
            sp = e.get("spot_cost_per_hour", "-")
            print(f"{k:24} {e['instance_type']:26} {e['gpus_per_instance']!s:>5} {od!s:>10} {sp!s:>9} "
                  f"{len(e['sizes']):>5}")
    print(f"\nOK: {len(fams)} families, all {len(rows)} reference rows placed exactly once (+ Fargate from seed 003), "
          f"prices match the rows, GCP components sum to totals, no nulls")


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
