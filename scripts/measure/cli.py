"""scripts/measure-cases: measure the planned setups on this machine's GPU and write the cases.

  scripts/measure-cases --dry-run                     the planned cases, without torch
  scripts/measure-cases --out FILE [--gpu NAME]       run them (CUDA GPU, torch, transformers, peft)
  --only WORD ...  only the setups whose id holds every word;  --model KEY  only that model

See docs/accuracy.md ("Measuring on a GPU")."""

from __future__ import annotations

import argparse
import json
import sys

from . import cases, plan


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="measure-cases", description=__doc__.splitlines()[0])
    p.add_argument("--dry-run", action="store_true", help="print the planned cases; needs no torch or GPU")
    p.add_argument("--out", help="write the measured cases (a JSON array, CASES.md's schema) to this file")
    p.add_argument("--gpu", help="the GPU's name in the case files (default: from torch.cuda.get_device_name)")
    p.add_argument("--only", nargs="*", default=None, help="only setups whose id holds every word")
    p.add_argument("--model", help="only this model of config/model_config.json")
    return p


def planned(args) -> list[plan.Setup]:
    catalog = plan.models()
    setups = plan.select(plan.default_plan(), args.only, args.model)
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


def measure(setups: list[plan.Setup], out: str, gpu: str | None) -> int:
    from . import torch_runs  # torch, transformers and peft: only here

    env = torch_runs.environment(gpu)
    catalog = plan.models()
    written, failed = [], []
    for s in setups:
        figures = torch_runs.run(s, catalog[s.model]["config"])
        if "error" in figures:
            failed.append(f"{s.id}: {figures['error']}")
            print(f"skipped {s.id}: {figures['error']}", file=sys.stderr)
            continue
        for figure in s.measures():
            case = cases.make_case(s, catalog[s.model], figure, figures[figure], env)
            faults = cases.validate_case(case)
            if faults:
                failed.append(f"{case['id']}: {'; '.join(faults)}")
                continue
            written.append(case)
            print(f"{case['id']}\t{case['measured']['value']} {case['measured']['unit']}", file=sys.stderr)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(written, f, indent=2)
        f.write("\n")
    print(f"# wrote {len(written)} cases to {out}; {len(failed)} setups failed", file=sys.stderr)
    for line in failed:
        print(f"#   {line}", file=sys.stderr)
    return 0 if written else 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    setups = planned(args)
    if args.dry_run:
        dry_run(setups)
        return 0
    if not args.out:
        _parser().error("--out FILE is required unless --dry-run")
    return measure(setups, args.out, args.gpu)
