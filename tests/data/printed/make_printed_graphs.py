#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Makes the real printed graphs of tests/data/printed/ with Debian's torch 1.13.1.

Run with /usr/bin/python3 (the interpreter that has torch), from anywhere:

    /usr/bin/python3 tests/data/printed/make_printed_graphs.py

For every model it writes
  <name>.torch113.txt  what GraphModule.print_readable() printed (torch 1.13: no size annotations)
  <name>.json          the same graph in joint-graph format v1 (docs/joint-graph-format.md), the
                       reference the reader's output is compared with (names, ops, targets, args,
                       kwargs, values from an interpreter run, num_fwd_outputs)
and, for the models in EMULATE_2X,
  <name>.emulated2x.txt  the same print_readable text with the size annotations torch 2.x adds
                         (`mm: "f32[4, 32][32, 1]cpu" = ...`, an annotation line before the pytree
                         inputs line), computed from the interpreter run. Synthetic: torch 2.x did
                         not print it, but its sizes can be checked against <name>.json.
Deterministic: fixed seeds, CPU only, no timings; the forward module comes from the min-cut partition,
which lists saved values in joint order (default_partition's order comes from a set()).
"""
import contextlib
import io
import json
import math
import os
import re
import sys

import torch
import torch.fx
import torch.nn as nn
from functorch.compile import aot_module, min_cut_rematerialization_partition
from torch.fx.node import _get_qualified_name

OUT = os.path.dirname(os.path.abspath(__file__))
EMULATE_2X = {"gelu_layernorm", "conv_batchnorm"}

DTYPE_ABBRS = {
    torch.bfloat16: "bf16", torch.float64: "f64", torch.float32: "f32", torch.float16: "f16",
    torch.complex64: "c64", torch.complex128: "c128", torch.int8: "i8", torch.int16: "i16",
    torch.int32: "i32", torch.int64: "i64", torch.bool: "b8", torch.uint8: "u8",
}


# ---------------------------------------------------------------------------------------------
# Models
class MlpRelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class GeluLayerNorm(nn.Module):
    """LayerNorm and max(dim) are tuple-returning ops: getitem nodes, unannotated parents."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)
        self.norm = nn.LayerNorm(16)

    def forward(self, x):
        h = self.norm(self.fc(x))
        values, indices = h.max(dim=1)
        return nn.functional.gelu(h).sum() + values.sum(), indices


class MaskedAttention(nn.Module):
    """masked_fill with -inf, softmax, dropout: float, inf and repr arguments (dtype, device)."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)
        self.drop = nn.Dropout(0.25)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(8.0)
        mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(mask, float("-inf"))
        return self.drop(torch.softmax(scores, dim=-1)) @ v


class ConvBatchNorm(nn.Module):
    """Buffers are primals without gradients (None outputs); batch norm returns a tuple."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x))).mean(dim=(2, 3))


class FxForward(nn.Module):
    """A plain torch.fx.symbolic_trace graph: call_module, call_method, get_attr, operators."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 5)
        self.layers = nn.ModuleList([nn.Linear(5, 5), nn.ReLU()])
        self.register_buffer("scale", torch.ones(5))

    def forward(self, x, y: torch.Tensor):
        h = self.lin(x + self.lin.weight.sum()).relu()
        for layer in self.layers:
            h = layer(h)
        h = h * self.scale - y
        z = torch.sum(h, dim=-1, keepdim=True)
        n = h.shape[0]
        return {"out": torch.flatten(z) / n, "aux": -h[:, 1:3]}


AOT_MODELS = {
    "mlp_relu": (MlpRelu, lambda: [torch.randn(4, 16)]),
    "gelu_layernorm": (GeluLayerNorm, lambda: [torch.randn(4, 16)]),
    "masked_attention": (MaskedAttention, lambda: [torch.randn(2, 4, 8)]),
    "conv_batchnorm": (ConvBatchNorm, lambda: [torch.randn(2, 3, 6, 6)]),
}


# ---------------------------------------------------------------------------------------------
# Export to joint-graph format v1
def tensor_meta(t):
    if not isinstance(t, torch.Tensor):
        return None
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
            "stride": list(t.stride()), "device": str(t.device)}


def value_of(v):
    if isinstance(v, torch.Tensor):
        return tensor_meta(v)
    if isinstance(v, (list, tuple)):
        return [tensor_meta(x) for x in v]
    return None


def export_arg(a):
    if isinstance(a, torch.fx.Node):
        return {"node": a.name}
    if isinstance(a, (list, tuple)):
        return [export_arg(x) for x in a]
    if isinstance(a, dict):
        return {str(k): export_arg(v) for k, v in a.items()}
    if a is None or isinstance(a, (bool, str)):
        return a
    if isinstance(a, int):
        return a
    if isinstance(a, float):
        return a if math.isfinite(a) else {"repr": repr(a)}
    return {"repr": repr(a)}


def export_target(node):
    if node.op == "output":
        return "output"
    t = node.target
    if isinstance(t, str):
        return t
    if isinstance(t, torch._ops.OpOverload):
        return str(t)
    module = getattr(t, "__module__", None)
    if module in ("_operator", "builtins"):
        return f"{module}.{t.__qualname__}"
    return _get_qualified_name(t)


class Recorder(torch.fx.Interpreter):
    def __init__(self, gm):
        super().__init__(gm)
        self.values = {}

    def run_node(self, n):
        result = super().run_node(n)
        self.values[n.name] = result
        return result


def export_graph(gm, inputs, name, description, num_fwd_outputs, kind):
    torch.manual_seed(0)
    rec = Recorder(gm)
    rec.run(*inputs)
    nodes = []
    for n in gm.graph.nodes:
        args = export_arg(n.args)
        if n.op == "output":
            flat, _ = torch.utils._pytree.tree_flatten(n.args[0])
            args = [[export_arg(x) for x in flat]]
        nodes.append({"name": n.name, "op": n.op, "target": export_target(n), "args": args,
                      "kwargs": export_arg(dict(n.kwargs)),
                      "val": None if n.op == "output" else value_of(rec.values.get(n.name)),
                      "meta": {}})
    doc = {"format": "joint-graph", "version": 1,
           "source": {"producer": f"torch {torch.__version__} (make_printed_graphs.py)",
                      "model": name, "description": description},
           "kind": kind, "num_fwd_outputs": num_fwd_outputs, "nodes": nodes}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    return rec.values


def readable(gm):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        gm.print_readable()
    return buf.getvalue()


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


# ---------------------------------------------------------------------------------------------
# torch 2.x annotations, added to the 1.13 text (see the module docstring)
def annotation(v):
    core = f"{DTYPE_ABBRS[v.dtype]}[{', '.join(map(str, v.shape))}]"
    return f"{core}[{', '.join(map(str, v.stride()))}]{v.device}"


def emulate_2x(text, values):
    out = []
    for line in text.split("\n"):
        m = re.match(r"^(\s+)(\w+) = ", line)
        flatten = re.match(r"^(\s+)((?:\w+, )+)= fx_pytree\.tree_flatten_spec", line)
        if flatten:
            names = [x for x in flatten.group(2).split(", ") if x]
            anns = "".join(f'{n}: "{annotation(values[n])}"; ' for n in names)
            out.append(flatten.group(1) + anns)
            out.append("")
        elif m and isinstance(values.get(m.group(2)), torch.Tensor):
            name = m.group(2)
            line = f'{m.group(1)}{name}: "{annotation(values[name])}" = ' + line[m.end():]
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
def export_aot(name, factory, make_inputs):
    torch.manual_seed(0)
    model = factory()
    inputs = make_inputs()
    captured = {}

    def partition(joint, joint_inputs, **kwargs):
        if "joint" not in captured:
            captured["joint"] = (readable(joint), joint, [x for group in joint_inputs for x in group])
        # min-cut lists saved values in joint order; default_partition's order comes from a set().
        fw, bw = min_cut_rematerialization_partition(joint, joint_inputs, **kwargs)
        captured.setdefault("fw", (readable(fw), fw))
        return fw, bw

    compiled = aot_module(model, fw_compiler=lambda gm, _: gm, bw_compiler=lambda gm, _: gm,
                          partition_fn=partition)
    with warnings_off():
        out = compiled(*inputs)
        (out[0] if isinstance(out, tuple) else out).sum().backward()
    text, joint, joint_inputs = captured["joint"]
    num_fwd = joint._out_spec.children_specs[0].num_leaves
    write(name + ".torch113.txt", text)
    values = export_graph(joint, joint_inputs, name, f"{factory.__name__}: {factory.__doc__ or ''}".strip(),
                          num_fwd, "joint")
    if name in EMULATE_2X:
        write(name + ".emulated2x.txt", emulate_2x(text, values))
    return captured["fw"], joint_inputs


@contextlib.contextmanager
def warnings_off():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def main():
    if not torch.__version__.startswith("1.13"):
        sys.exit(f"run with Debian's torch 1.13 (/usr/bin/python3), not torch {torch.__version__}")
    torch.use_deterministic_algorithms(True)
    for name, (factory, make_inputs) in AOT_MODELS.items():
        fw, joint_inputs = export_aot(name, factory, make_inputs)
        if name == "mlp_relu":
            # The partitioned forward module: primals only, forward outputs plus saved values.
            fw_text, fw_module = fw
            placeholders = [n for n in fw_module.graph.nodes if n.op == "placeholder"]
            fw_inputs = joint_inputs[:len(placeholders)]
            outputs = len(torch.utils._pytree.tree_flatten(list(fw_module.graph.nodes)[-1].args[0])[0])
            write("mlp_relu_fw.torch113.txt", fw_text)
            export_graph(fw_module, fw_inputs, "mlp_relu_fw",
                         "MlpRelu: min_cut_rematerialization_partition's forward module", outputs, "forward")

    torch.manual_seed(0)
    gm = torch.fx.symbolic_trace(FxForward())
    write("fx_forward.torch113.txt", readable(gm))
    out = list(gm.graph.nodes)[-1]
    outputs = len(torch.utils._pytree.tree_flatten(out.args[0])[0])
    export_graph(gm, [torch.randn(3, 4), torch.randn(3, 5)], "fx_forward",
                 "FxForward: torch.fx.symbolic_trace", outputs, "forward")


if __name__ == "__main__":
    main()
