"""scripts/measure-cases: measure the planned setups on this machine's GPU and write the cases.

  scripts/measure-cases --dry-run                     the planned cases, without torch
  scripts/measure-cases --out FILE [--gpu NAME]       run them (CUDA GPU, torch, transformers, peft)
  scripts/measure-cases --combine RUN.json... --out FILE   one case per id: the median of the runs
  --only WORD ...  only the setups whose id holds every word;  --model KEY  only that model

See docs/accuracy.md ("Measuring on a GPU")."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from . import cases, plan


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="measure-cases", description=__doc__.splitlines()[0])
    p.add_argument("--dry-run", action="store_true", help="print the planned cases; needs no torch or GPU")
    p.add_argument("--out", help="write the measured cases (a JSON array, CASES.md's schema) to this file")
    p.add_argument("--gpu", help="the GPU's name in the case files (default: from torch.cuda.get_device_name)")
    p.add_argument("--only", nargs="*", default=None, help="only setups whose id holds every word")
    p.add_argument("--model", help="only this model of config/model_config.json")
    p.add_argument("--plan", choices=sorted(plan.PLANS), default="default", help="which planned setups")
    p.add_argument("--combine", nargs="+", metavar="RUN",
                   help="instead of measuring: write one case per id, valued at the median of these runs' cases")
    p.add_argument("--deadline-s", type=float, default=None,
                   help="start no setup after this many seconds (the cases measured so far are kept)")
    return p


def planned(args) -> list[plan.Setup]:
    catalog = plan.models()
    setups = plan.select(plan.PLANS[args.plan](), args.only, args.model)
    faults = [f for s in setups for f in plan.check(s, catalog)]
    if faults:
        raise SystemExit("measure-cases: " + "; ".join(faults))
    return setups


def dry_run(setups: list[plan.Setup]) -> None:
    for s in setups:
        how = f"{s.mode} {s.recipe} {s.attention} batch {s.batch} x {s.sequence}"
        if s.new_tokens:
            how += f" + {s.new_tokens} new"
        if s.mode != "inference":
            how += ", gradient checkpointing" if s.gradient_checkpointing else ", no checkpointing"
        if s.lora_rank:
            how += f", LoRA r={s.lora_rank} on {','.join(s.lora_targets)}"
        for figure in s.measures():
            print(f"{s.id}\t{figure}\t{how}")
    print(f"# {len(setups)} setups, {sum(len(s.measures()) for s in setups)} cases", file=sys.stderr)


def _write(out: str, written: list[dict]) -> None:
    with open(out, "w", encoding="utf-8") as f:
        json.dump(written, f, indent=2)
        f.write("\n")


def measure(setups: list[plan.Setup], out: str, gpu: str | None, deadline_s: float | None = None) -> int:
    from . import torch_runs  # torch, transformers and peft: only here

    started = time.monotonic()
    env = torch_runs.environment(gpu)
    catalog = plan.models()
    written, failed = [], []
    seen: dict = {}  # attention_shapes of the setups run so far in this process
    for s in setups:
        if deadline_s is not None and time.monotonic() - started > deadline_s:
            failed.append(f"{s.id}: not started (past --deadline-s {deadline_s:g})")
            continue
        setup_start = time.monotonic()
        figures = torch_runs.run(s, catalog[s.model]["config"])
        print(f"# {s.id}: {time.monotonic() - setup_start:.1f} s", file=sys.stderr)
        if "error" in figures:
            failed.append(f"{s.id}: {figures['error']}")
            print(f"skipped {s.id}: {figures['error']}", file=sys.stderr)
            continue
        sdpa = s.mode == "inference" and s.attention == "sdpa"
        shapes = cases.attention_shapes(s, catalog[s.model]["config"]) if sdpa else None
        shapes_seen = cases.shapes_seen(seen, shapes)
        if shapes:
            seen.setdefault(shapes[0], []).append(shapes[1])
        for figure in s.measures():
            case = cases.make_case(s, catalog[s.model], figure, figures[figure], env, shapes_seen)
            faults = cases.validate_case(case)
            if faults:
                failed.append(f"{case['id']}: {'; '.join(faults)}")
                continue
            written.append(case)
            print(f"{case['id']}\t{case['measured']['value']} {case['measured']['unit']}", file=sys.stderr)
        _write(out, written)  # after every setup: a run stopped at its limit keeps what it measured
    _write(out, written)
    print(f"# wrote {len(written)} cases to {out}; {len(failed)} setups failed", file=sys.stderr)
    for line in failed:
        print(f"#   {line}", file=sys.stderr)
    return 0 if written else 1


def combine(runs: list[str], out: str) -> int:
    """One case per id over several runs of the same plan: the median value, every run's value in
    the notes (host-bound decode speeds vary from run to run on the same machine)."""
    by_id: dict[str, list[dict]] = {}
    for path in runs:
        with open(path, encoding="utf-8") as f:
            for case in json.load(f):
                by_id.setdefault(case["id"], []).append(case)
    written = []
    for cid, group in by_id.items():
        case = json.loads(json.dumps(group[0]))
        kinds = {(c["measured"]["metric"], c["measured"]["unit"]) for c in group}
        if len(kinds) > 1:
            raise SystemExit(f"measure-cases: {cid}: the runs measure different figures: {sorted(kinds)}")
        settings = {json.dumps(c["runtime"]["settings"], sort_keys=True) for c in group}
        if len(settings) > 1:
            raise SystemExit(f"measure-cases: {cid}: the runs ran under different settings (as attention_shapes_seen "
                             f"says when an earlier setup had run the same shapes): {sorted(settings)}")
        values = [c["measured"]["value"] for c in group]
        case["measured"]["value"] = round(statistics.median(values), 4)
        if len(values) > 1:
            case["notes"] += (f" Median of {len(values)} runs of the same script on the same machine: "
                              + ", ".join(f"{v:g}" for v in values) + f" {case['measured']['unit']}.")
        faults = cases.validate_case(case)
        if faults:
            raise SystemExit(f"measure-cases: {cid}: {'; '.join(faults)}")
        written.append(case)
    _write(out, written)
    print(f"# wrote {len(written)} cases to {out} from {len(runs)} runs", file=sys.stderr)
    return 0 if written else 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.combine:
        if not args.out:
            _parser().error("--combine needs --out FILE")
        return combine(args.combine, args.out)
    setups = planned(args)
    if args.dry_run:
        dry_run(setups)
        return 0
    if not args.out:
        _parser().error("--out FILE is required unless --dry-run")
    return measure(setups, args.out, args.gpu, args.deadline_s)
