# SPDX-License-Identifier: MIT
"""The PyTorch 2.x half of test_torch2_end_to_end.py; runs inside the 2.14 chroot, one step per call,
and prints one JSON object per result line (the host side checks them and runs remat-explorer).

  torch2_steps.py export OUT.json [POLICY.py]     export the model (with a SAC policy file: its context_fn
                                                   on every checkpoint region)
  torch2_steps.py replay PLAN.json [PLAN.json ...] one training step per plan: compile_with_plan vs eager
  torch2_steps.py sac POLICY.py                    one eager step with the policy vs plain checkpointing
"""
import copy
import importlib.util
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

SAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "samples")
sys.path.insert(0, SAMPLES)
import apply_plan  # noqa: E402
import export_joint_graph as ejg  # noqa: E402


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln, self.fc1, self.fc2, self.drop = nn.LayerNorm(d), nn.Linear(d, h), nn.Linear(h, d), nn.Dropout(0.1)

    def forward(self, x):
        return x + self.drop(self.fc2(F.gelu(self.fc1(self.ln(x)))))


class CheckpointedMLP(nn.Module):
    """Two residual blocks with dropout, each a non-reentrant checkpoint region, and a head outside."""

    def __init__(self, d=32, h=64, context_fn=None):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d, h), Block(d, h)])
        self.head = nn.Linear(d, 8)
        self.context_fn = context_fn

    def forward(self, x):
        extra = {"context_fn": self.context_fn} if self.context_fn else {}
        for blk in self.blocks:
            x = checkpoint(blk, x, use_reentrant=False, **extra)
        return torch.tanh(self.head(x)).sum()


def build(context_fn=None):
    torch.manual_seed(0)
    model = CheckpointedMLP(context_fn=context_fn)
    model.train()
    return model, (torch.randn(16, 32),)


def load_context_fn(path):
    spec = importlib.util.spec_from_file_location("sac_policy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.context_fn


def grads_after_step(model, inputs, seed=1):
    torch.manual_seed(seed)           # the same dropout masks in every run
    model(*inputs).backward()
    return [p.grad.clone() for p in model.parameters()]


def max_diff(a, b):
    return max((x - y).abs().max().item() for x, y in zip(a, b))


def export(out, policy=None):
    context_fn = load_context_fn(policy) if policy else None
    model, inputs = build(context_fn)
    doc = ejg.export_joint_graph(model, inputs, out, name="checkpointed_mlp")
    ref = doc["reference"]
    print(json.dumps({"step": "export", "nodes": len(doc["nodes"]), "torch": torch.__version__,
                      "saved": {k: len(v["saved_values"]) for k, v in ref.items() if isinstance(v, dict)},
                      "rng_states": {k: v.get("saved_rng_states", 0) for k, v in ref.items() if isinstance(v, dict)},
                      "unmatched_policy_calls": len(context_fn.unmatched) if context_fn else 0}))


def replay(plans):
    for path in plans:
        model, inputs = build()
        eager = copy.deepcopy(model)
        step = apply_plan.compile_with_plan(model, path)
        torch.manual_seed(1)
        step(*inputs).backward()
        got = [p.grad.clone() for p in model.parameters()]
        want = grads_after_step(eager, inputs)
        r = step.plan_report
        print(json.dumps({"step": "replay", "plan": path, "saved_values": r["saved_values"], "renamed": r["renamed"],
                          "partitioner": r["partitioner"], "saved_rng_states": r["saved_rng_states"],
                          "autograd_saved_tensors": r["autograd_saved_tensors"],
                          "max_grad_difference": max_diff(got, want)}))


def sac(policy):
    context_fn = load_context_fn(policy)
    model, inputs = build(context_fn)
    plain, _ = build()
    got, want = grads_after_step(model, inputs), grads_after_step(plain, inputs)
    print(json.dumps({"step": "sac", "max_grad_difference": max_diff(got, want),
                      "unmatched_policy_calls": context_fn.unmatched}))


if __name__ == "__main__":
    torch.set_num_threads(1)
    step, args = sys.argv[1], sys.argv[2:]
    {"export": lambda: export(*args), "replay": lambda: replay(args), "sac": lambda: sac(*args)}[step]()
