# SPDX-License-Identifier: MIT
"""Make the extra torch-2.14 conformance graphs (tests/data/torch2_extra, see README.md there).

Run in the PyTorch 2.14 chroot from the repository root:
    /work/shared/tools/torch2-env.sh run python3 tests/data/torch2_extra/make_graphs.py [NAME...]
Each graph is one training step of a small program (random init, fixed seed), exported with
samples/export_joint_graph.py: its reference holds 2.14's min_cut, default and memory_budget_<b>
decisions; the programs of SOLVER_PROGRAMS also get memory_budget_<b>_greedy and
memory_budget_<b>_testing (other knapsack solver, other runtime estimator) at SOLVER_BUDGETS.
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "samples"))
import export_joint_graph as ejg  # noqa: E402


# --- dynamic shapes: SymInt placeholders, sym_size nodes, saved sym nodes ----------------------
class Mlp(nn.Module):
    def __init__(self, d=16, h=32):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, h), nn.Linear(h, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x))).sum()


class Attention(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads, self.qkv, self.proj = heads, nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1) * (d // self.heads) ** -0.5).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        return self.proj(y)


class NormBlock(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.ln, self.fc = nn.LayerNorm(d), nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(self.ln(x))
        return (h * torch.sigmoid(h)).mean(dim=1) * x.shape[1]


# --- input and buffer mutation --------------------------------------------------------------
class BatchNormNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn, self.fc = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.Linear(8, 4)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        return self.fc(h.mean(dim=(2, 3)))


def mutate_input(x, w):
    x.add_(1)                     # x needs no grad: the mutation is copied back to the input
    h = torch.tanh(x @ w)
    return (h * h).sum(dim=0)


class RunningMean(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, d), nn.Linear(d, d)
        self.register_buffer("mean", torch.zeros(d))
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        self.mean.mul_(0.9).add_(h.detach().mean(0), alpha=0.1)
        self.steps.add_(1)
        return self.fc2(h - self.mean)


# --- views and aliasing ---------------------------------------------------------------------
def alias_outputs(x, w):
    y = torch.relu(x @ w)
    return y, y.t(), y[:, :4], x.view(-1)      # views of each other and a view of an input


def view_chain(x, w):
    h = (x @ w).view(4, 2, 8, 4).transpose(1, 2).reshape(4, 8, 8)
    a, b = h.split(4, dim=-1)
    s = torch.as_strided(torch.sigmoid(a), (4, 8, 2), (32, 4, 2))
    return (s * b[..., :2]).sum() + torch.cos(h.permute(2, 0, 1)).sum()


class ViewIntermediate(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, 2 * d), nn.Linear(d, d)

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        left, right = h.chunk(2, dim=-1)
        out = self.fc2(left * torch.sigmoid(right))
        return out, h.unsqueeze(0).expand(2, -1, -1), left.t()    # views of an intermediate


class Elementwise(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d))

    def forward(self, x):
        return torch.sin(x * self.w) * x      # no size op reaches the backward


class CheckpointedMlp(Mlp):
    def forward(self, x):
        return ejg.checkpoint(lambda t: self.fc2(F.gelu(self.fc1(t))), x).sum()


def inplace_on_view(x, w):
    h = (x @ w) * 0.5
    h[:, :4].mul_(2)               # functionalized: a slice_scatter of the view's update
    h.t()[1].add_(1)
    return torch.tanh(h).sum()


class Chain(nn.Module):
    """Linear layers of uneven widths: knapsack items whose sizes and runtimes do not line up, so
    the greedy solver and the testing estimator decide differently from dp/flops at some budgets."""

    def __init__(self, widths=(32, 7, 150, 33, 77, 12, 256, 5)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            x = torch.tanh(x) if i % 2 else torch.sigmoid(x) * x
        return x.sum()


def req(*shape):
    return torch.randn(*shape, requires_grad=True)


def dyn_marked(t):
    torch._dynamo.mark_dynamic(t, 0)
    return t


# name: (category, description, factory() -> (model_or_fn, inputs), torch.compile dynamic=)
PROGRAMS = {
    "dyn_mlp": ("dynamic", "Linear-GELU-Linear, dynamic=True (batch and feature sizes symbolic)",
                lambda: (Mlp(), (torch.randn(8, 16),)), True),
    "dyn_attention": ("dynamic", "self-attention with view/permute by x.shape, batch marked dynamic",
                      lambda: (Attention(), (dyn_marked(torch.randn(4, 6, 16)),)), None),
    "dyn_norm_block": ("dynamic", "LayerNorm-Linear-SiLU, scaled by a symbolic size, dynamic=True",
                       lambda: (NormBlock(), (torch.randn(4, 6, 16),)), True),
    "dyn_elementwise": ("dynamic", "sin(x * w) * x, dynamic=True: the backward binds the batch symbol",
                        lambda: (Elementwise(), (torch.randn(8, 16),)), True),
    "dyn_checkpoint": ("dynamic", "checkpointed Linear-GELU-Linear, dynamic=True",
                       lambda: (CheckpointedMlp(), (torch.randn(8, 16),)), True),
    "mut_batchnorm": ("mutation", "Conv2d-BatchNorm2d (running stats updated in place)-Linear",
                      lambda: (BatchNormNet(), (torch.randn(4, 3, 8, 8),)), False),
    "mut_input_add": ("mutation", "x.add_(1) on an input without grad, then tanh(x @ w)",
                      lambda: (mutate_input, (torch.randn(8, 16), req(16, 16))), False),
    "mut_buffer": ("mutation", "a running-mean buffer and a step counter updated in place",
                   lambda: (RunningMean(), (torch.randn(8, 16),)), False),
    "views_outputs": ("views", "outputs that are views of each other and a view of an input",
                      lambda: (alias_outputs, (req(8, 16), req(16, 16))), False),
    "views_chain": ("views", "view/transpose/reshape/split/as_strided/permute chains, saved",
                    lambda: (view_chain, (req(16, 16), req(16, 16))), False),
    "views_intermediate": ("views", "chunk of an intermediate; expand and t() of it returned",
                           lambda: (ViewIntermediate(), (torch.randn(8, 16),)), False),
    "views_inplace": ("views", "in-place updates through a slice and a transposed row of an intermediate",
                      lambda: (inplace_on_view, (req(8, 16), req(16, 16))), False),
    "solvers_mlp": ("solvers", "Linear-GELU-Linear (static), other solvers and estimators",
                    lambda: (Mlp(16, 64), (torch.randn(8, 16),)), False),
    "solvers_chain": ("solvers", "seven Linear layers of uneven widths (greedy and testing differ from dp)",
                      lambda: (Chain(), (torch.randn(8, 32),)), False),
}
SOLVER_PROGRAMS = ("solvers_mlp", "solvers_chain", "views_chain", "mut_batchnorm", "dyn_norm_block")
# The exporter's budgets and some between them (recorded with dp/flops too, as memory_budget_<b>).
SOLVER_BUDGETS = (0.0, 0.1, 0.2, 0.25, 0.4, 0.5, 0.7, 0.75)
SOLVER_RECORDS = {"greedy": {"activation_memory_budget_solver": "greedy"},
                  "testing": {"activation_memory_budget_runtime_estimator": "testing"}}


def record_other_solvers(cap, doc):
    """memory_budget_<b>_<record> runs with a non-default solver or runtime estimator, and the
    default memory_budget_<b> runs at the SOLVER_BUDGETS the exporter does not record."""
    from torch._functorch import config as fconfig
    p = ejg._partitioners()
    order = {n.name: i for i, n in enumerate(cap["joint"].graph.nodes)}
    records = dict(SOLVER_RECORDS, dp={})
    for suffix, settings in records.items():
        for budget in SOLVER_BUDGETS:
            key = f"memory_budget_{budget:g}" + (f"_{suffix}" if settings else "")
            if key in doc["reference"]:
                continue
            with fconfig.patch(activation_memory_budget=budget, **settings):
                fw, bw, seconds = ejg._run_partitioner(p.min_cut_rematerialization_partition, cap)
            decision = ejg._decision(fw, bw, cap["num_fwd_outputs"], order, cap["joint"].graph)
            doc["reference"][key] = dict(decision, seconds=seconds)
    doc["extra"]["other_solver_records"] = {k: v for k, v in SOLVER_RECORDS.items()}


def make(name):
    category, description, factory, dynamic = PROGRAMS[name]
    torch.manual_seed(0)
    model, inputs = factory()
    if isinstance(model, nn.Module):
        model.train()
    cap = ejg.capture_joint_graph(model, inputs, dynamic=dynamic)
    doc = ejg.build_document(cap, name, f"{category}: {description}")
    if name in SOLVER_PROGRAMS:
        record_other_solvers(cap, doc)
    path = os.path.join(HERE, name + ".json")
    ejg.write_document(doc, path)
    syms = [n["name"] for n in doc["nodes"] if isinstance(n["val"], dict) and "sym" in n["val"]]
    print(f"{name}: {len(doc['nodes'])} nodes, {len(syms)} sym nodes, min-cut saves "
          f"{doc['reference']['min_cut']['saved_values']} + sym {doc['reference']['min_cut']['saved_sym_nodes']}, "
          f"{os.path.getsize(path) // 1024} KB", flush=True)


if __name__ == "__main__":
    for name in sys.argv[1:] or PROGRAMS:
        make(name)
