# SPDX-License-Identifier: MIT
"""Shared helpers of the Python bridge tests: paths, small models, plan replay checks."""
import copy
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "samples"))

import apply_plan  # noqa: E402,F401  (re-exported for the tests)
import export_joint_graph as ejg  # noqa: E402


def shared_dir():
    """The shared folder beside the checkout (docs, oracle); REMAT_SHARED_DIR overrides."""
    return os.environ.get("REMAT_SHARED_DIR") or os.path.join(REPO, "..", "shared")


class TinyBlock(nn.Module):
    """Pre-LN attention + GELU MLP block without dropout (so compiled and eager gradients match);
    min-cut and default_partition save different values for it."""

    def __init__(self, d=32, heads=2):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def attention(self, x):
        b, s, d = x.shape
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in self.qkv(x).split(d, dim=2))
        att = F.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, s, d))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyCheckpointed(TinyBlock):
    """TinyBlock whose attention runs in an (emulated) activation-checkpoint region."""

    def forward(self, x):
        x = x + ejg.checkpoint(self.attention, self.ln1(x))
        return x + self.mlp(self.ln2(x))


def mlp3():
    """The oracle's mlp3_relu: 784-512-256-10 ReLU MLP, batch 32."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
    return model, (torch.randn(32, 784),)


def tiny(cls=TinyBlock):
    torch.manual_seed(0)
    return cls(), (torch.randn(2, 16, 32),)


def replay(model, inputs, plan):
    """compile_with_plan(model, plan), one training step; returns (compiled, grads, eager grads)."""
    compiled = apply_plan.compile_with_plan(copy.deepcopy(model), plan)
    compiled(*inputs).sum().backward()            # first call: traces and partitions
    eager = copy.deepcopy(model)
    eager(*inputs).sum().backward()
    got = [p.grad for p in compiled.orig_module.parameters()]
    want = [p.grad for p in eager.parameters()]
    return compiled, got, want


def load(path):
    with open(path) as f:
        return json.load(f)
