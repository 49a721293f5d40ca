"""Small joint graphs with CPU-offload checkpoint policies, and what PyTorch 2.x decides on them
with its activation-offloading pass enabled.  Run inside the 2.14 chroot from the project root:

    /work/shared/tools/torch2-env.sh run python3 tests/data/offload/make_offload_cases.py

Writes tests/data/offload/<case>.json (our joint-graph format, from samples/export_joint_graph.py)
with `extra.offload_torch2`:
- `min_cut`: saved values of min_cut_rematerialization_partition (pass off: the pass never changes them);
- `activation_offloading`: the same partitioner with config.enable_activation_offloading=True after
  a joint_custom_pass-style marking that sets meta["should_offload"] on every node whose recompute
  tag is MUST_CPU_OFFLOAD or PREFER_CPU_OFFLOAD (2.14 reads only should_offload, never the tag):
  saved_values, offloaded (values the forward hands to the backward through a cpu_offload_ node),
  refused (node -> 2.14's own debug-log reason), offload_after (forward node the device_put follows),
  reload_before (backward node the device_put back precedes);
- `tags_only_offloaded`: the pass enabled without the marking (expected empty in 2.14).
"""
import copy
import functools
import json
import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "samples"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch._functorch import config as fconfig  # noqa: E402
from torch._functorch import partitioners as P  # noqa: E402
from torch.utils.checkpoint import CheckpointPolicy as CP, checkpoint, create_selective_checkpoint_contexts  # noqa: E402

import export_joint_graph as ejg  # noqa: E402

aten = torch.ops.aten
MM = {aten.mm.default, aten.addmm.default, aten.bmm.default}
OFFLOAD = (CP.MUST_CPU_OFFLOAD, CP.PREFER_CPU_OFFLOAD)
OFFLOAD_LOGGER = "torch._functorch._activation_offloading.activation_offloading"


def sac(policy):
    return functools.partial(create_selective_checkpoint_contexts, policy)  # dynamo wants a partial


def pol_offload_mm(ctx, op, *a, **k):
    return CP.MUST_CPU_OFFLOAD if op in MM else CP.PREFER_RECOMPUTE


def pol_prefer_offload_all(ctx, op, *a, **k):
    return CP.PREFER_CPU_OFFLOAD


def pol_mixed(ctx, op, *a, **k):
    if op in MM:
        return CP.MUST_SAVE
    if op in (aten.gelu.default, aten._softmax.default, aten.relu.default):
        return CP.MUST_CPU_OFFLOAD
    if op in (aten.native_layer_norm.default,):
        return CP.PREFER_CPU_OFFLOAD
    return CP.PREFER_RECOMPUTE


def pol_conv(ctx, op, *a, **k):
    if op == aten.convolution.default:
        return CP.MUST_CPU_OFFLOAD
    if op == aten.relu.default:
        return CP.PREFER_CPU_OFFLOAD
    return CP.PREFER_RECOMPUTE


class MLP(nn.Module):
    def __init__(self, d=32, h=64, blocks=2, policy=pol_offload_mm):
        super().__init__()
        self.fc = nn.ModuleList(nn.Sequential(nn.Linear(d, h), nn.GELU(), nn.Linear(h, d)) for _ in range(blocks))
        self.policy = policy

    def forward(self, x):
        for block in self.fc:
            x = x + checkpoint(block, x, use_reentrant=False, context_fn=sac(self.policy))
        return x.sum()


class Odd(nn.Module):
    """Every op tagged PREFER_CPU_OFFLOAD: views, a getitem, a non-contiguous clone and a model
    output among them, so the pass has something to refuse."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(16, 24))

    def body(self, x):
        a = x @ self.w                        # mm
        b = a.t()                             # view
        c = torch.clone(b)                    # non-contiguous (clone keeps b's strides)
        d = c.relu()
        m, _ = d.max(dim=1)                   # getitems of max.dim
        return d.sin(), m

    def forward(self, x):
        s, m = checkpoint(self.body, x, use_reentrant=False, context_fn=sac(pol_prefer_offload_all))
        return (s * s).sum() + m.sum(), s     # s is a model output as well as saved


class Attn(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.ln, self.qkv, self.proj = nn.LayerNorm(d), nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.h = heads

    def block(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln(x)).split(C, dim=2)
        q, k, v = (t.reshape(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v))
        att = torch.softmax(q @ k.transpose(-2, -1) / (C // self.h) ** 0.5, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        x = x + self.proj(y)
        return x + self.mlp(x)

    def forward(self, x):
        x = checkpoint(self.block, x, use_reentrant=False, context_fn=sac(pol_mixed))
        return self.block(x).pow(2).mean()   # a second block outside any region


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.bn, self.c2 = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.Conv2d(8, 8, 3, padding=1)

    def body(self, x):
        return self.c2(F.relu(self.bn(self.c1(x)))).relu()

    def forward(self, x):
        return checkpoint(self.body, x, use_reentrant=False, context_fn=sac(pol_conv)).mean()


CASES = {
    "offload_mlp_mm": lambda: (MLP(), (torch.randn(4, 8, 32, requires_grad=True),)),
    "offload_prefer_all_odd": lambda: (Odd(), (torch.randn(8, 16),)),
    "offload_attn_mixed": lambda: (Attn(), (torch.randn(2, 8, 32),)),
    "offload_conv_bn": lambda: (Conv(), (torch.randn(2, 3, 8, 8),)),
}


def capture(model, inputs):
    """The exporter's capture, with default_partition (which raises on offload policies) replaced
    by min-cut for the capture only: the joint graph is taken before any partitioner runs."""
    real = P.default_partition

    def tolerant(joint, joint_inputs, **kw):
        try:
            return real(copy.deepcopy(joint), joint_inputs, **kw)
        except AssertionError:
            return P.min_cut_rematerialization_partition(joint, joint_inputs, **kw)
    P.default_partition = tolerant
    try:
        return ejg.capture_joint_graph(model, inputs)
    finally:
        P.default_partition = real


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _refusals(messages):
    """2.14's can_offload logs "Checking node X for offloading..." then "\\tSkipped! reason" or "\\tGood!"."""
    out, current = {}, None
    for m in messages:
        if m.startswith("Checking node ") and m.endswith(" for offloading..."):
            current = m[len("Checking node "):-len(" for offloading...")]
        elif current and m.strip().startswith("Skipped!"):
            out[current] = m.strip()[len("Skipped! "):]
            current = None
    return out


def run_min_cut(cap, mark, offloading):
    joint = copy.deepcopy(cap["joint"])
    if mark:
        for n in joint.graph.nodes:
            if n.meta.get("recompute") in OFFLOAD:
                n.meta["should_offload"] = True
    logger = logging.getLogger(OFFLOAD_LOGGER)
    handler, level, propagate = _Collect(), logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False  # collected, not printed
    try:
        with fconfig.patch(enable_activation_offloading=offloading):
            fw, bw = P.min_cut_rematerialization_partition(joint, cap["joint_inputs"], **cap["partition_kwargs"])
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate
    return fw, bw, _refusals(handler.messages)


def decision(cap, fw, bw, refused):
    order = {n.name: i for i, n in enumerate(cap["joint"].graph.nodes)}
    prefix, reload_prefix = "cpu_offload_", "gpu_reload_"
    outs = list(fw.graph.find_nodes(op="output")[0].args[0])
    saved = outs[cap["num_fwd_outputs"]:]
    names = [n.name[len(prefix):] if n.name.startswith(prefix) else n.name for n in saved]
    fw_list = [n for n in fw.graph.nodes if n.op != "output"]
    bw_list = [n for n in bw.graph.nodes if n.op != "output"]
    offload_after, reload_before = {}, {}
    for i, n in enumerate(fw_list):
        if n.name.startswith(prefix):
            offload_after[n.name[len(prefix):]] = fw_list[i - 1].name
    for i, n in enumerate(bw_list):
        if n.name.startswith(reload_prefix):
            nxt = bw_list[i + 1] if i + 1 < len(bw_list) else None
            reload_before[n.name[len(reload_prefix):]] = nxt.name if nxt is not None else "output"
    return {"saved_values": sorted((x for x in names if x in order), key=order.__getitem__),
            "offloaded": sorted(offload_after, key=order.__getitem__),
            "refused": dict(sorted(refused.items())),
            "offload_after": offload_after, "reload_before": reload_before}


def make(name, build):
    torch.manual_seed(0)
    model, inputs = build()
    cap = capture(model, inputs)
    doc = ejg.build_document(cap, name, description="offload probe: " + name, reference=False)
    fw, bw, _ = run_min_cut(cap, mark=False, offloading=False)
    plain = decision(cap, fw, bw, {})
    fw, bw, refused = run_min_cut(cap, mark=True, offloading=True)
    offl = decision(cap, fw, bw, refused)
    fw, bw, _ = run_min_cut(cap, mark=False, offloading=True)
    tags_only = decision(cap, fw, bw, {})
    doc["extra"]["offload_torch2"] = {
        "torch_version": torch.__version__, "generator": "tests/data/offload/make_offload_cases.py",
        "min_cut": {"saved_values": plain["saved_values"]},
        "activation_offloading": offl,
        "tags_only_offloaded": tags_only["offloaded"],
        "marking": "meta['should_offload']=True on nodes whose meta['recompute'] is MUST_CPU_OFFLOAD or PREFER_CPU_OFFLOAD",
    }
    ejg.write_document(doc, os.path.join(HERE, name + ".json"))
    tags = sum(1 for n in doc["nodes"] if str(n.get("meta", {}).get("recompute", "")).endswith("CPU_OFFLOAD"))
    print(f"{name}: {len(doc['nodes'])} nodes, {tags} offload tags, saved {len(plain['saved_values'])}, "
          f"offloaded {offl['offloaded']}, refused {offl['refused']}, tags-only offloaded {tags_only['offloaded']}",
          flush=True)
    torch._dynamo.reset()


if __name__ == "__main__":
    torch.set_num_threads(1)
    for case, build in CASES.items():
        if len(sys.argv) < 2 or any(a in case for a in sys.argv[1:]):
            make(case, build)
