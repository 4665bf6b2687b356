"""The planned runs: each a model from config/model_config.json (its config.json values, random
weights, no downloads) and a setup (inference with generate, full fine-tuning or LoRA), with the
figures it measures. Imports nothing beyond the standard library."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODEL_CONFIG = ROOT / "config" / "model_config.json"

# Recipes of full fine-tuning, as a user writes them in PyTorch:
#   bf16_adamw: the model cast to bf16, torch.optim.AdamW over its parameters (no fp32 master
#               copy; the optimizer keeps exp_avg and exp_avg_sq in the parameters' dtype);
#   fp32:       fp32 parameters, no autocast (fp32 compute, fp32 AdamW states);
#   amp_bf16:   fp32 parameters under torch.autocast(bfloat16) (fp32 master weights and states).
RECIPES = {
    "bf16_adamw": {"weight_format": "bf16", "compute_precision": "bf16", "master_weights": False},
    "fp32": {"weight_format": "fp32", "compute_precision": "fp32", "master_weights": True},
    "amp_bf16": {"weight_format": "fp32", "compute_precision": "amp_bf16", "master_weights": True},
    # Inference and LoRA: the weights in bf16 (or fp32 to show SDPA's fallback for fp32 inputs).
    "bf16": {"weight_format": "bf16", "compute_precision": "bf16", "master_weights": None},
    "fp32_inference": {"weight_format": "fp32", "compute_precision": "fp32", "master_weights": None},
}
MODES = ("inference", "full_finetune", "lora")
ATTENTION = ("eager", "sdpa")


@dataclass(frozen=True)
class Setup:
    model: str  # a key of config/model_config.json "models"
    mode: str  # inference | full_finetune | lora
    recipe: str  # a key of RECIPES
    attention: str  # eager | sdpa (transformers' attn_implementation)
    batch: int
    sequence: int  # prompt tokens (inference) or training sequence length
    new_tokens: int = 0  # generated tokens (inference)
    gradient_checkpointing: bool = False
    lora_rank: int = 0
    lora_targets: tuple = ()
    steps: int = 3  # training steps timed after one warm-up step
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def id(self) -> str:
        parts = [self.model, self.mode, self.recipe, self.attention, f"b{self.batch}x{self.sequence}"]
        if self.new_tokens:
            parts.append(f"new{self.new_tokens}")
        if self.mode != "inference":
            parts.append("gc" if self.gradient_checkpointing else "nogc")
        if self.lora_rank:
            parts.append(f"r{self.lora_rank}")
        return "MEAS-" + "-".join(parts)

    def measures(self) -> list[str]:
        """The figures a run of this setup writes, each one case."""
        if self.mode == "inference":
            return ["torch_max_allocated", "decode_tokens_per_second", "prefill_tokens_per_second"]
        return ["torch_max_allocated", "training_tokens_per_second_per_gpu"]


# Small models whose config.json values a dev case already carries with its source (the case's
# model.architecture), measured under these keys.
CASE_MODELS = {"qwen2-0.5b": "QW2-T-0.5B-BF16-1", "qwen2-1.5b": "QW2-T-1.5B-BF16-1",
               "qwen3-0.6b": "QW3-T-0.6B-BF16-1", "qwen3-1.7b": "QW3-T-1.7B-BF16-1"}
CASES = ROOT / "tests" / "data" / "cases" / "throughput_cases_dev.json"


def models() -> dict:
    """config/model_config.json's models (their config.json values and published parameters), and
    CASE_MODELS from the dev cases' architectures."""
    with open(MODEL_CONFIG, encoding="utf-8") as f:
        catalog = json.load(f)["models"]
    with open(CASES, encoding="utf-8") as f:
        by_id = {c["id"]: c for c in json.load(f)}
    for key, case_id in CASE_MODELS.items():
        case = by_id[case_id]
        catalog[key] = {"hf_id": case["model"]["name"], "computed_parameters": case["model"]["params"],
                        "config": dict(case["model"]["architecture"])}
    return catalog


def small_plan() -> list[Setup]:
    """Models of 0.5-1.7B (CASE_MODELS): full fine-tuning, LoRA and generate() in bf16 with SDPA,
    transformers' default attention, where small GEMMs and launches bound the step."""
    plan: list[Setup] = []
    for model in CASE_MODELS:
        plan.append(Setup(model, "full_finetune", "bf16_adamw", "sdpa", batch=4, sequence=1024))
        plan.append(Setup(model, "lora", "bf16", "sdpa", batch=8, sequence=1024, lora_rank=16,
                          lora_targets=("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")))
        plan.append(Setup(model, "inference", "bf16", "sdpa", batch=1, sequence=512, new_tokens=128))
    for model in ("qwen2-0.5b", "qwen3-1.7b"):
        plan.append(Setup(model, "full_finetune", "amp_bf16", "sdpa", batch=4, sequence=1024))
        plan.append(Setup(model, "full_finetune", "bf16_adamw", "sdpa", batch=4, sequence=1024,
                          gradient_checkpointing=True))
    return plan


PLANS = {"default": lambda: default_plan(), "small": lambda: small_plan()}


def default_plan() -> list[Setup]:
    """The classes issue 32 names, sized for one 80-141 GB GPU: generate() at batch 1 and 8 with
    eager and SDPA attention (bf16, and fp32 inputs that SDPA's flash kernels refuse); full
    fine-tuning with bf16 + torch AdamW, fp32 and AMP bf16, with and without gradient
    checkpointing, eager and SDPA; LoRA with and without gradient checkpointing."""
    plan: list[Setup] = []
    for model in ("qwen3-4b", "llama-3.1-8b"):
        for attention in ATTENTION:
            plan.append(Setup(model, "inference", "bf16", attention, batch=1, sequence=512, new_tokens=256))
            plan.append(Setup(model, "inference", "bf16", attention, batch=8, sequence=2048, new_tokens=128))
    plan.append(Setup("qwen3-4b", "inference", "fp32_inference", "sdpa", batch=4, sequence=2048, new_tokens=64))
    for recipe in ("bf16_adamw", "fp32", "amp_bf16"):
        for attention in ATTENTION:
            for gc in (False, True):
                plan.append(Setup("qwen3-4b", "full_finetune", recipe, attention, batch=2, sequence=1024,
                                  gradient_checkpointing=gc))
    for gc in (False, True):
        plan.append(Setup("llama-3.1-8b", "full_finetune", "bf16_adamw", "sdpa", batch=1, sequence=2048,
                          gradient_checkpointing=gc))
    targets = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    for attention in ATTENTION:
        for gc in (False, True):
            plan.append(Setup("llama-3.1-8b", "lora", "bf16", attention, batch=4, sequence=1024,
                              gradient_checkpointing=gc, lora_rank=16, lora_targets=targets))
    plan.append(Setup("qwen3-4b", "lora", "bf16", "sdpa", batch=8, sequence=1024, lora_rank=8,
                      lora_targets=("q_proj", "v_proj")))
    # Small models without CUDA graphs (launch-bound layers, small GEMMs).
    for model, batch in (("gpt2-xl", 8), ("gpt2-medium", 16)):
        plan.append(Setup(model, "full_finetune", "amp_bf16", "sdpa", batch=batch, sequence=1024))
    plan.append(Setup("gpt2-xl", "inference", "bf16", "sdpa", batch=1, sequence=512, new_tokens=256))
    return plan


def select(plan: list[Setup], only: list[str] | None = None, model: str | None = None) -> list[Setup]:
    """The setups whose id contains every word of `only` (and of `model`'s key when given)."""
    out = []
    for s in plan:
        if model and s.model != model:
            continue
        if only and not all(word in s.id for word in only):
            continue
        out.append(s)
    return out


def check(setup: Setup, catalog_models: dict) -> list[str]:
    """Why a setup cannot run as planned; empty when it can."""
    faults = []
    if setup.model not in catalog_models:
        faults.append(f"{setup.id}: model {setup.model!r} is not in config/model_config.json models")
    if setup.mode not in MODES:
        faults.append(f"{setup.id}: mode {setup.mode!r}, expected one of {MODES}")
    if setup.recipe not in RECIPES:
        faults.append(f"{setup.id}: recipe {setup.recipe!r}, expected one of {tuple(RECIPES)}")
    if setup.attention not in ATTENTION:
        faults.append(f"{setup.id}: attention {setup.attention!r}, expected one of {ATTENTION}")
    if setup.batch < 1 or setup.sequence < 1:
        faults.append(f"{setup.id}: batch and sequence must be at least 1")
    if setup.mode == "inference" and setup.new_tokens < 1:
        faults.append(f"{setup.id}: inference generates at least one new token")
    if setup.mode == "lora" and (setup.lora_rank < 1 or not setup.lora_targets):
        faults.append(f"{setup.id}: LoRA needs a rank and target modules")
    return faults


def with_overrides(setup: Setup, **changes) -> Setup:
    return replace(setup, **changes)
