"""Upstream rows -> gpufleet offers per provider and region (config/prices/).

An offer is one instance type gpufleet's catalog knows, in one region: on-demand and spot USD per
instance-hour with the statistic stated in the file, the zones behind them, anomalies and notes.
Prices stay Decimals parsed from the upstream text until they are written."""

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from . import upstream
from .errors import PipelineError, UpstreamFormatError

PROVIDERS = ("aws", "azure", "gcp")
ZONED = {"aws": True, "gcp": True, "azure": False}

SPOT_STATISTIC = {
    "aws": ("Standard Availability Zones only (Local Zones and Wavelength zones are opt-in and left "
            "out). spot_cost_per_hour is the cheapest zone among the region's zones whose spot price is "
            "below on-demand; zones whose spot equals on-demand have no spot capacity and are left "
            "out; spot_zones counts the zones kept and spot_median_cost_per_hour is their median; "
            "zones counts the zones that list the instance type."),
    "gcp": ("A GPU machine's price is its host row plus its accelerator row of the same zone. "
            "spot_cost_per_hour is the cheapest zone among the region's zones whose spot price is "
            "below on-demand; zones with spot at or above on-demand are left out; spot_zones counts "
            "the zones kept and spot_median_cost_per_hour is their median; zones counts the zones "
            "that offer the machine with its GPUs."),
    "azure": ("Azure's catalog has one row per region and no zones: spot_cost_per_hour is that "
              "row's spot price when it is below on-demand; a spot price equal to on-demand means "
              "the spot price is unknown and is left out."),
}


# ---------------------------------------------------------------- the catalog's instance names

@dataclass(frozen=True)
class Known:
    """One instance type of config/gpu_instances.json (a family's flagship or one of its sizes)."""
    name: str
    provider: str
    family: str
    gpus: object
    vcpus: object
    ram_gib: object
    gpu_model: str | None
    accelerator_kind: str
    usable_memory_mib: object = None    # the per-device memory the core uses (see known_instances)


def known_instances(catalog):
    """Instance types the catalog knows, by provider: each family's instance_type and the keys
    of its sizes (the provider is the family's)."""
    known = {p: {} for p in PROVIDERS}
    specs = catalog.get("gpus", {})
    for family_key, family in sorted(catalog.get("gpu_instances", {}).items()):
        provider = family.get("provider")
        if provider not in known:
            continue
        entries = [(family.get("instance_type"), family)]
        entries += sorted((family.get("sizes") or {}).items())
        for name, entry in entries:
            if not name:
                continue
            # As the core reads it: the entry's own usable figure (a size does not inherit the
            # family's), else the GPU spec's while the label matches it, else the label in GiB.
            model = entry.get("gpu_model", family.get("gpu_model"))
            label = entry.get("gpu_memory_gb", family.get("gpu_memory_gb"))
            spec = specs.get(model, {})
            usable = entry.get("usable_memory_mib")
            if usable is None and spec.get("usable_memory_mib") and spec.get("memory_gb") == label:
                usable = spec["usable_memory_mib"]
            if usable is None and label:
                usable = label * 1024
            known[provider][name] = Known(
                name=name, provider=provider, family=family_key,
                gpus=entry.get("gpus_per_instance"), vcpus=entry.get("vcpus"),
                ram_gib=entry.get("ram_gib"), gpu_model=model,
                accelerator_kind=family.get("accelerator_kind", "gpu"), usable_memory_mib=usable)
    return known


# ---------------------------------------------------------------- zone quotes

@dataclass
class Quote:
    """One zone's prices for one offer (Azure: the region's one row, zone '')."""
    zone: str
    on_demand: Decimal | None
    spot: Decimal | None
    gpus: Decimal | None
    vcpus: Decimal | None = None
    memory_gib: Decimal | None = None
    gpu_info: object = None
    parts: tuple | None = None          # GCP: (host on-demand, accelerators on-demand)
    part_not_below: tuple | None = None  # GCP: (row, spot, on-demand) of a composed row whose
    #                                      spot is at or above its own on-demand
    sentinels: list = field(default_factory=list)   # (column, value)


def _sentinel_filter(price, column, sentinels, found):
    if price is not None and price in sentinels:
        found.append((column, price))
        return None
    return price


def _sentinels(overrides, provider):
    entry = overrides.get("sentinel_prices", {}).get(provider) or {}
    return {Decimal(str(v)) for v in entry.get("values", [])}


def _corrected_count(row, provider, overrides):
    for c in overrides.get("corrections", []):
        if (c.get("provider") == provider and c.get("instance_type") == row.instance_type
                and c.get("field") == "AcceleratorCount"):
            return Decimal(str(c["value"]))
    return row.accelerator_count


AWS_STANDARD_ZONE = re.compile(r"[a-z]+[0-9]+-az[0-9]+")


def quotes_direct(provider, rows, known, overrides):
    """AWS and Azure: one upstream row is one zone's quote of one instance type.
    Returns {(name, region): [Quote]}."""
    sentinels = _sentinels(overrides, provider)
    out = {}
    for row in rows:
        if row.instance_type not in known:
            continue
        # AWS Local Zones (use1-atl2-az1) and Wavelength zones are opt-in extensions of a region
        # with their own prices: an instance launched in the region runs in a standard AZ (use1-az1).
        if provider == "aws" and row.zone and not AWS_STANDARD_ZONE.fullmatch(row.zone):
            continue
        found = []
        quote = Quote(
            zone=row.zone,
            on_demand=upstream.checked_price(
                row, "Price", _sentinel_filter(row.price, "Price", sentinels, found)),
            spot=upstream.checked_price(
                row, "SpotPrice", _sentinel_filter(row.spot_price, "SpotPrice", sentinels, found)),
            gpus=_corrected_count(row, provider, overrides),
            vcpus=row.vcpus, memory_gib=row.memory_gib, gpu_info=row.gpu_info,
            sentinels=found)
        out.setdefault((row.instance_type, row.region), []).append(quote)
    return out


def gcp_rule(name, overrides):
    """(host machine type, accelerator name, count) for a gpufleet GCP instance name, or None."""
    for rule in overrides.get("gcp_compositions", {}).get("rules", []):
        match = re.fullmatch(rule["pattern"], name)
        if match:
            return (match.expand(rule["host"]), match.expand(rule["accelerator"]),
                    Decimal(match.expand(rule["count"])))
    return None


def _add(a, b):
    return None if a is None or b is None else a + b


def _gcp_prices(row, sentinels, found):
    """(on-demand, spot) of one row composed, placeholders left out and each price checked."""
    return tuple(upstream.checked_price(row, column, _sentinel_filter(value, column, sentinels,
                                                                      found))
                 for column, value in (("Price", row.price), ("SpotPrice", row.spot_price)))


def _sum(host, acc, column, a, b):
    """A composed price: host + accelerator, within the core's bound like any price written."""
    total = _add(a, b)
    if total is not None and total > upstream.PRICE_MAX:
        raise host.error(column, f"expected {column} of {host.instance_type} plus line "
                                 f"{acc.line}'s {acc.accelerator} x{acc.accelerator_count} at "
                                 f"most {upstream.PRICE_MAX} USD per hour, got {a} + {b}")
    return total


def quotes_gcp(rows, known, overrides):
    """GCP: a machine's quote in a zone = its host row + its accelerator row of the same zone.
    Returns ({(name, region): [Quote]}, [names without a composition rule])."""
    sentinels = _sentinels(overrides, "gcp")
    hosts, accelerators = {}, {}
    for row in rows:
        if row.instance_type:
            hosts.setdefault(row.instance_type, []).append(row)
        elif row.accelerator:
            accelerators[(row.accelerator, row.accelerator_count, row.zone)] = row
    out, no_rule = {}, []
    for name in sorted(known):
        rule = gcp_rule(name, overrides)
        if rule is None:
            no_rule.append(name)
            continue
        host_type, accelerator, count = rule
        for host in hosts.get(host_type, []):
            acc = accelerators.get((accelerator, count, host.zone))
            if acc is None:
                continue
            found = []
            host_od, host_spot = _gcp_prices(host, sentinels, found)
            acc_od, acc_spot = _gcp_prices(acc, sentinels, found)
            not_below = next(((label, spot, od) for label, od, spot in (
                (f"host row {host_type}", host_od, host_spot),
                (f"accelerator row {accelerator} x{count}", acc_od, acc_spot))
                if od is not None and spot is not None and od > 0 and spot >= od), None)
            out.setdefault((name, host.region), []).append(Quote(
                zone=host.zone, on_demand=_sum(host, acc, "Price", host_od, acc_od),
                spot=_sum(host, acc, "SpotPrice", host_spot, acc_spot),
                gpus=count, vcpus=host.vcpus, memory_gib=host.memory_gib, gpu_info=acc.gpu_info,
                parts=(host_od, acc_od) if host_od is not None and acc_od is not None else None,
                part_not_below=not_below, sentinels=found))
    return out, no_rule


# ---------------------------------------------------------------- one offer

def median(values):
    values = sorted(values)
    n = len(values)
    if n == 0:
        return None
    mid = n // 2
    return values[mid] if n % 2 else (values[mid - 1] + values[mid]) / 2


def classify_spot(on_demand, spot, policy, decimals, part_not_below=False):
    """One zone's spot price: 'usable', 'unchecked' (no on-demand to compare with), 'missing',
    'no_capacity' / 'unknown' (spot equals on-demand, per the provider's policy) or 'above'
    (spot at or above on-demand where that is not explained by the policy; on GCP also when one
    of the two rows composed has spot at or above its own on-demand)."""
    if spot is None or spot == 0:
        return "missing"
    if part_not_below:
        return "above"
    if on_demand is None or on_demand == 0:
        return "unchecked"
    compare = on_demand
    if decimals is not None:
        compare = on_demand.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if spot < compare:
        return "usable"
    if spot == compare and policy in ("no_capacity", "unknown"):
        return policy
    return "above"


def _money(value):
    return f"{value:.2f}" if value >= 1 else f"{value:.4f}".rstrip("0")


def _plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def summarize(quotes, provider_cfg, zoned):
    """One offer from its zone quotes: (fields, anomalies, notes)."""
    policy = provider_cfg.get("spot_at_or_above_on_demand", "anomaly")
    decimals = provider_cfg.get("spot_decimals")
    fields, anomalies, notes = {}, [], []
    zones = len({q.zone for q in quotes})
    where = _plural(zones, "zone") if zoned else "the region's row"

    sentinel_hits = sorted({(c, v) for q in quotes for c, v in q.sentinels})
    if sentinel_hits:
        anomalies.append({"code": "sentinel_price", "detail": "placeholder price " + ", ".join(
            f"{c} {v}" for c, v in sentinel_hits) + " upstream (not a price); left out"})

    ods = [q.on_demand for q in quotes if q.on_demand is not None and q.on_demand > 0]
    zero = [q for q in quotes if q.on_demand is not None and q.on_demand == 0]
    if ods:
        best = min(ods)
        fields["on_demand_cost_per_hour"] = best
        if len(set(ods)) > 1:
            notes.append(f"On-demand differs by zone ({_money(min(ods))}-{_money(max(ods))}); "
                         "the lowest is used.")
        parts = [q.parts for q in quotes if q.on_demand == best and q.parts]
        if parts:
            fields["on_demand_parts"] = {"host": parts[0][0], "accelerators": parts[0][1]}
    elif zero:
        notes.append(f"No on-demand price: the upstream gives 0.0 in {where}.")
    elif sentinel_hits and any(c == "Price" for c, _ in sentinel_hits):
        notes.append(f"No on-demand price: only a placeholder upstream in {where}.")
    else:
        notes.append(f"No on-demand price: the upstream rows leave it empty in {where}.")

    kinds = {}
    for q in quotes:
        kinds.setdefault(classify_spot(q.on_demand, q.spot, policy, decimals, q.part_not_below),
                         []).append(q)
    usable = [q.spot for q in kinds.get("usable", []) + kinds.get("unchecked", [])]
    no_capacity = len(kinds.get("no_capacity", []))
    unknown = len(kinds.get("unknown", []))
    above = kinds.get("above", [])
    if usable:
        fields["spot_cost_per_hour"] = min(usable)
        if zoned:
            fields["spot_zones"] = len(usable)
            fields["spot_median_cost_per_hour"] = median(usable)
        if kinds.get("unchecked"):
            notes.append(f"Spot in {_plural(len(kinds['unchecked']), 'zone')} has no on-demand "
                         "price to check it against.")
        if no_capacity:
            notes.append(f"{_plural(no_capacity, 'zone')} with spot equal to on-demand (no spot "
                         "capacity) left out of the spot statistic.")
        if above:
            notes.append(f"{_plural(len(above), 'zone')} with spot at or above on-demand left "
                         "out of the spot statistic.")
    else:
        if above:
            pairs = sorted({q.part_not_below or ("row", q.spot, q.on_demand) for q in above})
            anomalies.append({"code": "spot_not_below_on_demand", "detail": (
                f"spot at or above on-demand in every zone that prices spot ("
                + "; ".join(f"{label}: spot {s} vs on-demand {o}" for label, s, o in pairs)
                + ")")})
            notes.append("No spot price: the upstream spot is not below on-demand (see "
                         "anomalies).")
        elif no_capacity:
            notes.append(f"No spot price: spot equals on-demand in {where} that list it, which "
                         "means no spot capacity.")
        elif unknown:
            notes.append("No spot price: the upstream gives spot equal to on-demand, which means "
                         "the spot price is unknown.")
        else:
            notes.append(f"No spot price upstream in {where}.")
    if zoned:
        fields["zones"] = zones
    return fields, anomalies, notes


# ---------------------------------------------------------------- the whole provider

@dataclass
class ProviderResult:
    provider: str
    offers: dict            # region -> name -> offer dict (Decimals inside)
    unmapped: list
    out_of_scope: dict
    rows: int
    duplicates_dropped: int
    conflicts: list
    no_rule: list
    quotes: dict            # (name, region) -> [Quote], for the hardware check
    cross_region_ratios: list   # (ratio, name, region) for every comparison made


def _offer_dict(fields, anomalies, notes):
    offer = dict(fields)
    if anomalies:
        offer["anomalies"] = anomalies
    if notes:
        offer["notes"] = " ".join(notes)
    return offer


def cross_region(offers, quotes, cfg):
    """Flags offers whose per-GPU-hour on-demand price is more than cfg['factor'] away from the
    median of the same instance type's per-GPU-hour price in the provider's other regions.
    Returns every (ratio, name, region) compared."""
    factor = Decimal(str(cfg["factor"]))
    minimum = int(cfg.get("min_other_regions", 3))
    direction = cfg.get("direction", "both")
    if direction not in ("below", "above", "both"):
        raise PipelineError("overrides.json: cross_region.direction: expected below, above or both")
    per_gpu = {}
    for region, by_name in offers.items():
        for name, offer in by_name.items():
            od = offer.get("on_demand_cost_per_hour")
            if od is None:
                continue
            gpus = next((q.gpus for q in quotes[(name, region)] if q.gpus), None)
            per_gpu.setdefault(name, {})[region] = od / gpus if gpus else od
    ratios = []
    for name, by_region in sorted(per_gpu.items()):
        for region, value in sorted(by_region.items()):
            others = [v for r, v in by_region.items() if r != region]
            if len(others) < minimum:
                continue
            reference = median(others)
            ratio = value / reference
            ratios.append((ratio, name, region))
            low, high = ratio * factor < 1, ratio > factor
            if (low and direction != "above") or (high and direction != "below"):
                offer = offers[region][name]
                offer.setdefault("anomalies", []).append({"code": "cross_region_price", "detail": (
                    f"{value:.2f} per GPU-hour here against a median of {reference:.2f} over "
                    f"{len(others)} other regions ({ratio:.2f}x; flagged "
                    + (f"below 1/{factor}" if low else f"above {factor}x") + ")")})
    return ratios


def marked(offers, provider, overrides):
    for entry in overrides.get("marked_anomalies", []):
        if entry.get("provider") != provider:
            continue
        for region in entry.get("regions", []):
            for name in entry.get("instance_types", []):
                offer = offers.get(region, {}).get(name)
                if offer is not None:
                    offer.setdefault("anomalies", []).append(
                        {"code": "marked_anomaly",
                         "detail": f"{entry['reason']} (source: {entry['source']})"})


def fargate(offers, overrides):
    """Fargate is not in SkyPilot: its offers are computed from the sourced per-vCPU and per-GB
    rates in the overrides, for the regions whose rates are given there."""
    cfg = overrides.get("fargate")
    if not cfg:
        return
    for region, rates in sorted(cfg.get("rates", {}).items()):
        if region not in offers:
            continue
        vcpu_rate = Decimal(str(rates["usd_per_vcpu_hour"]))
        gb_rate = Decimal(str(rates["usd_per_gb_hour"]))
        for name, shape in sorted(cfg.get("offers", {}).items()):
            vcpus, gb = Decimal(str(shape["vcpus"])), Decimal(str(shape["memory_gb"]))
            offers[region][name] = {
                "on_demand_cost_per_hour": vcpus * vcpu_rate + gb * gb_rate,
                "notes": (f"Fargate is not in the upstream catalog: {vcpus} vCPU x {vcpu_rate} "
                          f"+ {gb} GB x {gb_rate} USD per hour, {cfg['platform']}."),
                "source": cfg["source"],
                "source_date": cfg["source_date"],
            }


def build_provider(provider, rows, known, overrides):
    cfg = overrides["providers"][provider]
    raw_rows = rows
    rows, dropped, conflicts = upstream.deduplicate(rows)
    out_of_scope = {}
    if provider == "gcp":
        tpu = [r for r in raw_rows if r.accelerator.startswith("tpu-")]
        if tpu:
            out_of_scope["tpu"] = {"types": len({r.accelerator for r in tpu}), "rows": len(tpu)}
        rows_in_scope = [r for r in rows if not r.accelerator.startswith("tpu-")]
        quotes, no_rule = quotes_gcp(rows_in_scope, known, overrides)
    else:
        quotes, no_rule = quotes_direct(provider, rows, known, overrides), []

    offers = {}
    for (name, region), zone_quotes in sorted(quotes.items()):
        fields, anomalies, notes = summarize(zone_quotes, cfg, ZONED[provider])
        offers.setdefault(region, {})[name] = _offer_dict(fields, anomalies, notes)
    ratios = cross_region(offers, quotes, overrides["cross_region"])
    marked(offers, provider, overrides)
    if provider == "aws":
        fargate(offers, overrides)
    return ProviderResult(
        provider=provider, offers=offers, unmapped=unmapped(provider, rows, known, overrides),
        out_of_scope=out_of_scope, rows=len(rows) + dropped, duplicates_dropped=dropped,
        conflicts=conflicts, no_rule=no_rule, quotes=quotes, cross_region_ratios=ratios)


def unmapped(provider, rows, known, overrides):
    """Upstream GPU / accelerator types the catalog does not know (names only, sorted)."""
    names = set()
    if provider == "gcp":
        n1 = set(overrides.get("gcp_compositions", {}).get("n1_accelerators", []))
        attached = {gcp_rule(k, overrides)[1] for k in known if gcp_rule(k, overrides)}
        for row in rows:
            if row.instance_type and not row.instance_type.startswith("n1-"):
                if row.instance_type not in known:
                    names.add(row.instance_type)
            elif (not row.instance_type and row.accelerator in n1
                  and row.accelerator not in attached):
                names.add(row.accelerator)
        return sorted(names)
    cpu_prefixes = tuple(k.name.split(".")[0] + "." for k in known.values()
                         if k.accelerator_kind == "cpu" and "." in k.name)
    for row in rows:
        if row.instance_type in known:
            continue
        if row.accelerator or not row.instance_type.startswith(cpu_prefixes):
            names.add(row.instance_type)
    return sorted(names)


def require_default_region(provider, rows, result, overrides):
    """The page opens each provider's default region first: an extract that gives it no offer
    is refused, at the file's Region column."""
    default = overrides["providers"][provider]["default_region"]
    if default in result.offers:
        return
    named = any(row.region == default for row in rows)
    why = ("none of its rows is an instance type of the catalog" if named
           else "no row names it")
    raise UpstreamFormatError(rows[0].file, 1, rows[0].column("Region"), (
        f"expected offers in {provider}'s default region {default} (overrides.json "
        f"providers.{provider}.default_region): {why}"))


def spot_bands_for(provider, region, bands, overrides):
    """(the file's spot_bands object, type -> band) for one region file; None without bands."""
    if bands is None:
        return None
    if provider != "aws":
        return {"source": "none", "as_of": "unknown",
                "unknown": overrides["spot_bands"][provider]["unknown"]}, {}
    by_region, meta = bands
    return meta, by_region.get(region, {})


def region_document(provider, region, offers, snapshot, bands=None):
    doc = {"provider": provider, "region": region, "snapshot": snapshot,
           "spot_statistic": SPOT_STATISTIC[provider],
           "offers": {name: offers[name] for name in sorted(offers)}}
    if bands is not None:
        meta, by_type = bands
        doc["spot_bands"] = meta
        for name in doc["offers"]:
            if name in by_type:
                doc["offers"][name] = dict(doc["offers"][name], interruption_band=by_type[name])
    return doc


def index_document(results, overrides, snapshots):
    providers = {}
    for provider in PROVIDERS:
        result = results[provider]
        regions = {}
        for region in sorted(result.offers):
            offers = result.offers[region]
            regions[region] = {
                "file": f"{provider}/{region}.json", "offers": len(offers),
                "offers_with_spot": sum(1 for o in offers.values() if "spot_cost_per_hour" in o)}
        entry = {"default_region": overrides["providers"][provider]["default_region"],
                 "snapshot": snapshots[provider], "regions": regions,
                 "unmapped": result.unmapped}
        if result.out_of_scope.get("tpu"):
            tpu = result.out_of_scope["tpu"]
            entry["out_of_scope"] = [f"TPU: {tpu['types']} types ({tpu['rows']} rows) are out of "
                                     "scope"]
        providers[provider] = entry
    return {"generated_by": "scripts/update-prices", "providers": providers}
