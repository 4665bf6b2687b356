"""Hardware facts check: config/gpu_instances.json's per-size vCPUs, RAM and GPU count, and the
usable GPU memory AWS reports (GpuInfo MemoryInfo.SizeInMiB), against the upstream rows."""

from decimal import Decimal

from . import upstream


def _num(value):
    return None if value is None else Decimal(str(value))


def _fmt(value):
    if value is None:
        return "none"
    value = Decimal(value).normalize()
    return format(value, "f")


def check(results, known, catalog, overrides):
    """Returns (mismatches, known_differences, missing): lists of printable lines."""
    allowed = {(d["gpu"], d["field"]): d for d in overrides.get("hardware_known_differences", [])}
    mismatches, known_differences, missing = [], [], []
    for provider in sorted(results):
        quotes = results[provider].quotes
        by_name = {}
        for (name, _region), zone_quotes in quotes.items():
            by_name.setdefault(name, []).extend(zone_quotes)
        for name, entry in sorted(known[provider].items()):
            zone_quotes = by_name.get(name)
            if not zone_quotes:
                if not name.startswith("fargate-"):
                    missing.append(f"{provider} {name}: not in the extracts")
                continue
            facts = (("vcpus", entry.vcpus, {q.vcpus for q in zone_quotes}),
                     ("ram_gib", entry.ram_gib, {q.memory_gib for q in zone_quotes}),
                     ("gpus_per_instance", entry.gpus, {q.gpus or Decimal(0) for q in zone_quotes}))
            for label, ours, theirs in facts:
                theirs = {t for t in theirs if t is not None}
                if theirs and (_num(ours) is None or _num(ours) not in theirs):
                    mismatches.append(f"{provider} {name}: {label} {_fmt(ours)} in the catalog, "
                                      f"{' / '.join(_fmt(t) for t in sorted(theirs))} upstream")
            if provider != "aws" or not entry.gpu_model:
                continue
            reported = sorted({upstream.gpu_memory_mib(q.gpu_info) for q in zone_quotes} - {None})
            ours = entry.usable_memory_mib
            for mib in reported:
                if ours is not None and Decimal(str(ours)) == mib:
                    continue
                line = (f"aws {name}: usable memory per GPU {_fmt(ours)} MiB in the catalog "
                        f"(gpus.{entry.gpu_model}), {mib} MiB in AWS GpuInfo")
                if (entry.gpu_model, "usable_memory_mib") in allowed:
                    known_differences.append(line + " (known: " + allowed[
                        (entry.gpu_model, "usable_memory_mib")]["reason"] + ")")
                else:
                    mismatches.append(line)
    return mismatches, known_differences, missing
