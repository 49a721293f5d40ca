# SPDX-License-Identifier: MIT
"""User tags versus PyTorch 2.14's own partitioner (issue 9, section 1).

    cd <checkout> && /work/shared/tools/torch2-env.sh run python3 tests/data/user_tags_torch2/make_cases.py

Traces the joint graphs of a few small training programs with the project's exporter
(samples/export_joint_graph.py, imported by path), then tags them as Remat Explorer's app does
(a group of a block = its forward nodes except inputs; one node at a time) and runs 2.14's
min_cut_rematerialization_partition on a copy of each tagged graph: node.meta["recompute"] =
CheckpointPolicy.<policy> and node.meta["ac_graph_id"] = 100000 (the id our engine gives user
tags, tag_passes.cpp kUserTagRegion), optionally under config.activation_memory_budget.

Writes <program>.json (our joint-graph format, untagged, with the usual "reference") and
cases.json: per scenario the tags and 2.14's outcome, either its saved values (joint-graph names,
sym nodes apart) or the exception it raised.
"""
import copy
import importlib.util
import json
import os
import sys
import tempfile

import torch
import torch.nn as nn
from torch._functorch import config as fconfig
from torch._functorch import partitioners
from torch._guards import TracingContext, detect_fake_mode, tracing
from torch._subclasses.fake_tensor import FakeTensorMode, unset_fake_temporarily
from torch.utils.checkpoint import CheckpointPolicy

HERE = os.path.dirname(os.path.abspath(__file__))
USER_TAG_REGION = 100000
DEBUG_FILE_LINES = ("FX graph dump:", "Min-cut graph visualization:")


def _load_exporter():
    path = os.path.join(HERE, "..", "..", "..", "samples", "export_joint_graph.py")
    spec = importlib.util.spec_from_file_location("export_joint_graph", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ejg = _load_exporter()


def deepcopy_unfaked(x):
    """Joint modules may hold real constants: copy them with dynamo's fake mode unset."""
    with unset_fake_temporarily():
        return copy.deepcopy(x)


def fake_mode_of(joint):
    vals = [n.meta.get("val") for n in joint.graph.nodes if n.op == "placeholder"]
    return detect_fake_mode([v for v in vals if isinstance(v, torch.Tensor)]) or FakeTensorMode()


# --- the programs -----------------------------------------------------------------------------
class MlpBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.lin, self.act, self.drop = nn.Linear(width, width), nn.GELU(), nn.Dropout(0.25)

    def forward(self, x):
        return x + self.drop(self.act(self.lin(x)))


def mlp6():
    return nn.Sequential(*[MlpBlock(8) for _ in range(6)]), (torch.randn(4, 8),)


def transformer4():
    layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1, batch_first=True)
    return nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False), (torch.randn(2, 3, 8),)


def bn_mlp():
    """BatchNorm in training mode: its running statistics are input mutations (copy_ nodes that
    must run in the forward)."""
    blocks = [nn.Sequential(nn.Linear(8, 8), nn.BatchNorm1d(8), nn.ReLU()) for _ in range(2)]
    return nn.Sequential(*blocks), (torch.randn(4, 8),)


PROGRAMS = {"mlp6": (mlp6, "6 blocks Linear(8,8) + GELU + Dropout(0.25) with residual adds"),
            "transformer4": (transformer4, "nn.TransformerEncoder, 4 layers, d_model 8, 2 heads, dropout 0.1"),
            "bn_mlp": (bn_mlp, "2 blocks Linear(8,8) + BatchNorm1d (training) + ReLU")}


# --- tagging as the app does ------------------------------------------------------------------
def module_paths(node):
    return [p[0] for p in (node.meta.get("nn_module_stack") or {}).values()]


def block_of(node):
    """Index of the repeated block a forward node belongs to (the first path component after the
    model's own, e.g. "L['fn'].3.lin" or "L['fn'].layers.3.linear1" -> 3), else None."""
    for path in module_paths(node):
        for part in path.split("."):
            if part.isdigit():
                return int(part)
    return None


def is_forward(node):
    return node.meta.get("partitioner_tag") == "is_forward"


def group(joint, blocks):
    """The app's group of blocks: every forward node of them but the graph inputs (isTaggable)."""
    return [n.name for n in joint.graph.nodes
            if n.op == "call_function" and is_forward(n) and block_of(n) in blocks]


def first(joint, pred):
    for n in joint.graph.nodes:
        if pred(n):
            return n.name
    raise LookupError("no node matches")


def target_is(*names):
    return lambda n: n.op == "call_function" and str(n.target) in names and is_forward(n)


def only_used_by_backward(n):
    return (n.op == "call_function" and is_forward(n) and n.users
            and all(u.meta.get("partitioner_tag") == "is_backward" for u in n.users))


def scenarios(program, joint):
    """(name, {node: policy}, budget or None) per scenario."""
    tag = lambda names, policy: {name: policy for name in names}  # noqa: E731
    out = []
    if program == "mlp6":
        blocks_2_4 = tag(group(joint, {2, 3, 4}), "PREFER_RECOMPUTE")
        out += [("blocks 2-4 prefer recompute", blocks_2_4, None),
                ("blocks 2-4 prefer recompute, budget 0.3", blocks_2_4, 0.3),
                ("all blocks prefer recompute", tag(group(joint, set(range(6))), "PREFER_RECOMPUTE"), None),
                ("all blocks must recompute, budget 0.3", tag(group(joint, set(range(6))), "MUST_RECOMPUTE"), 0.3),
                ("block 3 must save", tag(group(joint, {3}), "MUST_SAVE"), None),
                ("block 3 must save, budget 0.3", tag(group(joint, {3}), "MUST_SAVE"), 0.3),
                ("blocks 1-2 prefer save", tag(group(joint, {1, 2}), "PREFER_SAVE"), None),
                ("must recompute a dropout (random op)",
                 tag([first(joint, target_is("aten.native_dropout.default"))], "MUST_RECOMPUTE"), None),
                ("must recompute a dropout (random op), budget 0.3",
                 tag([first(joint, target_is("aten.native_dropout.default"))], "MUST_RECOMPUTE"), 0.3),
                ("must recompute an addmm", tag([first(joint, target_is("aten.addmm.default"))], "MUST_RECOMPUTE"), None),
                ("must recompute a value only the backward uses",
                 tag([first(joint, only_used_by_backward)], "MUST_RECOMPUTE"), None),
                ("must save a view", tag([first(joint, target_is("aten.t.default"))], "MUST_SAVE"), None)]
        mix = tag(group(joint, {1, 2}), "PREFER_RECOMPUTE")
        mix.update(tag([n for n in group(joint, {2}) if n.startswith("gelu")], "MUST_SAVE"))
        mix.update(tag(group(joint, {4}), "MUST_SAVE"))
        out += [("mix: blocks 1-2 prefer recompute, its gelu and block 4 must save", mix, None),
                ("mix: blocks 1-2 prefer recompute, its gelu and block 4 must save, budget 0.3", mix, 0.3)]
    elif program == "transformer4":
        layers_1_2 = tag(group(joint, {1, 2}), "PREFER_RECOMPUTE")
        out += [("layers 1-2 prefer recompute", layers_1_2, None),
                ("layers 1-2 prefer recompute, budget 0.3", layers_1_2, 0.3),
                ("all layers prefer recompute, budget 0.3", tag(group(joint, set(range(4))), "PREFER_RECOMPUTE"), 0.3),
                ("layer 0 must save", tag(group(joint, {0}), "MUST_SAVE"), None),
                ("layer 0 must save, budget 0.3", tag(group(joint, {0}), "MUST_SAVE"), 0.3),
                ("must recompute a softmax", tag([first(joint, target_is("aten._safe_softmax.default"))], "MUST_RECOMPUTE"), None),
                ("must recompute a value only the backward uses",
                 tag([first(joint, only_used_by_backward)], "MUST_RECOMPUTE"), None),
                ("must save a view", tag([first(joint, target_is("aten.view.default"))], "MUST_SAVE"), None)]
        mix = tag(group(joint, {0, 1, 2, 3}), "PREFER_RECOMPUTE")
        mix.update(tag(group(joint, {2}), "MUST_SAVE"))
        out += [("mix: all layers prefer recompute, layer 2 must save, budget 0.3", mix, 0.3)]
    elif program == "bn_mlp":
        # 2.14 keeps a training graph's input mutations (the running statistics) out of the joint
        # graph: they are forward outputs, so no node here must run in the forward.
        running_mean = first(joint, lambda n: n.op == "call_function" and n.args and n.args[0].op == "call_function"
                             and "batch_norm" in str(n.args[0].target) and n.args[1] == 3)
        out += [("block 0 prefer recompute", tag(group(joint, {0}), "PREFER_RECOMPUTE"), None),
                ("all blocks prefer recompute, budget 0.3", tag(group(joint, {0, 1}), "PREFER_RECOMPUTE"), 0.3),
                ("must recompute a batch norm (tuple op)",
                 tag([first(joint, target_is("aten._native_batch_norm_legit_functional.default"))], "MUST_RECOMPUTE"), None),
                ("must recompute an updated running mean (a forward output)", tag([running_mean], "MUST_RECOMPUTE"), None),
                ("must recompute a value only the backward uses",
                 tag([first(joint, only_used_by_backward)], "MUST_RECOMPUTE"), None)]
    return out


# --- 2.14's partitioner on a tagged copy --------------------------------------------------------
def run_tagged(cap, tags, budget):
    joint = deepcopy_unfaked(cap["joint"])
    by_name = {n.name: n for n in joint.graph.nodes}
    for name, policy in tags.items():
        by_name[name].meta["recompute"] = CheckpointPolicy[policy]
        by_name[name].meta["ac_graph_id"] = USER_TAG_REGION
    order = {n.name: i for i, n in enumerate(cap["joint"].graph.nodes)}
    seen = {}
    extract = partitioners._extract_fwd_bwd_modules

    def spy(joint_module, saved_values, saved_sym_nodes, *args, **kwargs):
        # The extraction drops saved values the backward does not use, in place: read the lists
        # after it, and before RNG functionalisation adds its state outputs (whose FX names could
        # collide with joint-graph names).
        modules = extract(joint_module, saved_values, saved_sym_nodes, *args, **kwargs)
        seen.setdefault("saved", [n.name for n in saved_values])
        seen.setdefault("sym", [n.name for n in saved_sym_nodes])
        return modules

    partitioners._extract_fwd_bwd_modules = spy
    try:
        with tracing(TracingContext(fake_mode_of(joint))), \
                fconfig.patch(activation_memory_budget=1.0 if budget is None else budget):
            partitioners.min_cut_rematerialization_partition(joint, cap["joint_inputs"], **cap["partition_kwargs"])
    except Exception as e:  # noqa: BLE001 -- 2.14's refusal is the data
        # Drop the lines naming the debug files 2.14 wrote (in a scratch folder, see main).
        lines = [ln for ln in str(e).splitlines() if not ln.startswith(DEBUG_FILE_LINES)]
        return {"status": "error", "type": type(e).__name__, "message": "\n".join(lines).strip()}
    finally:
        partitioners._extract_fwd_bwd_modules = extract
    return {"status": "ok", "saved_values": sorted(seen["saved"], key=order.__getitem__),
            "saved_sym_nodes": sorted(seen["sym"], key=order.__getitem__)}


def compact_json(cases):
    """Indented down to the scenarios, one line per scenario: small, and still diffs well."""
    line = lambda v: json.dumps(v, allow_nan=False, separators=(",", ":"))  # noqa: E731
    programs = []
    for name, program in cases["programs"].items():
        rows = ",\n".join("    " + line(row) for row in program["scenarios"])
        head = line({k: v for k, v in program.items() if k != "scenarios"})[:-1]
        programs.append(f"  {json.dumps(name)}: {head},\"scenarios\":[\n{rows}\n  ]}}")
    head = line({k: v for k, v in cases.items() if k != "programs"})[:-1]
    return head + ',"programs":{\n' + ",\n".join(programs) + "\n}}"


def main():
    os.chdir(tempfile.mkdtemp(prefix="user_tags_torch2_"))  # 2.14 dumps debug files where a min-cut fails
    cases = {"format": "user-tags-vs-torch", "torch_version": torch.__version__,
             "user_tag_ac_graph_id": USER_TAG_REGION, "programs": {}}
    for program, (build, description) in PROGRAMS.items():
        torch.manual_seed(0)
        model, inputs = build()
        torch._dynamo.reset()
        ejg.copy = type(sys)("copy_unfaked")
        ejg.copy.deepcopy, ejg.copy.copy = deepcopy_unfaked, copy.copy
        try:
            cap = ejg.capture_joint_graph(model, inputs)
            with tracing(TracingContext(fake_mode_of(cap["joint"]))):
                doc = ejg.build_document(cap, program, description)
        finally:
            ejg.copy = copy
        ejg.write_document(doc, os.path.join(HERE, program + ".json"))
        rows = []
        for name, tags, budget in scenarios(program, cap["joint"]):
            outcome = run_tagged(cap, tags, budget)
            rows.append({"name": name, "budget": budget, "tags": tags, "torch": outcome})
            shown = (f"saves {len(outcome['saved_values'])}" if outcome["status"] == "ok"
                     else f"{outcome['type']}: {outcome['message'][:160]!r}")
            print(f"{program}: {name}: {len(tags)} tags -> {shown}", flush=True)
        cases["programs"][program] = {"file": program + ".json", "nodes": len(doc["nodes"]), "scenarios": rows}
    path = os.path.join(HERE, "cases.json")
    with open(path + ".tmp", "w") as f:
        f.write(compact_json(cases) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
