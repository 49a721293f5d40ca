# SPDX-License-Identifier: MIT
"""Real torch 2.14 print_readable() dumps of joint graphs, each with 2.14's own decisions.

Run in the PyTorch 2.14 chroot from the repository root:
    /work/shared/tools/torch2-env.sh run python3 tests/data/printed/torch214/make_prints.py

A PyTorch engineer on 2.x gets a joint graph as text by printing it in a partition_fn of their own.
Two ways, and each is written here for every model (random init, seed 0):
  <model>.aot_module.txt   functorch.compile.aot_module(model, partition_fn=...): no input is static
                           (static_lifetime_input_indices is empty), as in the functorch tutorials
  <model>.compile.txt      torch.compile(model, backend=aot_autograd(partition_fn=...)): dynamo marks
                           the parameters static, which the print does not show
Each .txt is exactly what `joint_module.print_readable(print_output=False)` returned (2.14's
defaults: size annotations without strides or devices). Beside it, <name>.json is the same joint
module exported by samples/export_joint_graph.py with 2.14's min_cut, default and memory-budget
decisions under "reference", made with the arguments that partition_fn was given.
"""
import copy
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "samples"))
sys.path.insert(0, os.path.join(HERE, ".."))
import export_joint_graph as ejg  # noqa: E402
from make_printed_graphs import AOT_MODELS  # noqa: E402  (the models of the torch 1.13 prints)


class CheckpointedMlp(nn.Module):
    """A non-reentrant checkpoint: under torch.compile its nodes carry recompute tags."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(16, 32), nn.Linear(32, 32), nn.Linear(32, 8)

    def block(self, x):
        return torch.tanh(self.fc2(F.gelu(self.fc1(x))))

    def forward(self, x):
        return self.fc3(checkpoint(self.block, x, use_reentrant=False)).sum()


class TanhTail(nn.Module):
    """The forward ends with tanh, whose output its gradient reads: a detach follows the output."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(16, 32), nn.Linear(32, 8)

    def forward(self, x):
        return torch.tanh(self.fc2(torch.relu(self.fc1(x))))


class LayerNormTail(nn.Module):
    """The forward ends with a LayerNorm: the getitems of its mean and rstd follow the output."""

    def __init__(self):
        super().__init__()
        self.fc, self.norm = nn.Linear(16, 16), nn.LayerNorm(16)

    def forward(self, x):
        return self.norm(self.fc(x))


MODELS = dict(AOT_MODELS)
MODELS["checkpointed_mlp"] = (CheckpointedMlp, lambda: [torch.randn(4, 16)])
MODELS["tanh_tail"] = (TanhTail, lambda: [torch.randn(4, 16)])
MODELS["layernorm_tail"] = (LayerNormTail, lambda: [torch.randn(4, 16)])
COMPILE_ONLY = {"checkpointed_mlp"}  # aot_module runs the checkpoint eagerly: nothing to tag


def loss_of(model):
    def step(*inputs):
        out = model(*inputs)
        return out[0] if isinstance(out, tuple) else out
    return step


def capture_aot_module(model, inputs):
    """The capture dict of export_joint_graph, from aot_module's partition_fn."""
    from functorch.compile import aot_module, nop
    box = {}

    def partition_fn(joint_module, joint_inputs, **kwargs):
        box["joint"] = copy.deepcopy(joint_module)
        box["joint_inputs"], box["kwargs"] = joint_inputs, dict(kwargs)
        raise ejg._Captured()

    compiled = aot_module(model, fw_compiler=nop, bw_compiler=nop, partition_fn=partition_fn)
    try:
        loss_of(compiled)(*inputs)
    except ejg._Captured:
        pass
    joint, kwargs = box["joint"], box["kwargs"]
    values = {n.name: ejg._value_meta(n.meta["val"]) for n in joint.graph.nodes
              if isinstance(n.meta.get("val"), (torch.Tensor, list, tuple))}
    return {"joint": joint, "joint_inputs": box["joint_inputs"], "values": values,
            "num_fwd_outputs": kwargs["num_fwd_outputs"],
            "static_lifetime_input_indices": kwargs.get("static_lifetime_input_indices"),
            "partition_kwargs": kwargs, "tracing_context": None,
            "producer": f"torch {ejg.TORCH_VERSION} functorch.compile.aot_module"}


def write_text(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    torch.manual_seed(0)
    for name, (factory, make_inputs) in MODELS.items():
        for way in ("aot_module", "compile"):
            if way == "aot_module" and name in COMPILE_ONLY:
                continue
            torch.manual_seed(0)
            model, inputs = factory(), make_inputs()
            inputs = [x.requires_grad_(False) for x in inputs]
            if way == "aot_module":
                cap = capture_aot_module(model, inputs)
            else:
                cap = ejg.capture_joint_graph(loss_of(model), inputs)
            stem = os.path.join(HERE, f"{name}.{way}")
            write_text(stem + ".txt", cap["joint"].print_readable(print_output=False))
            doc = ejg.build_document(cap, name, f"{name} printed by print_readable in a {way} partition_fn")
            ejg.write_document(doc, stem + ".json")
            saved = doc["reference"]["min_cut"]["saved_values"]
            print(f"{stem}.txt: {len(doc['nodes'])} nodes, static "
                  f"{cap['static_lifetime_input_indices']}, min-cut saves {len(saved)}")


if __name__ == "__main__":
    main()
