# SPDX-License-Identifier: MIT
"""Tagged joint graphs for the CPU-reproducible cases of PyTorch's
test/dynamo/test_activation_checkpointing.py (reference doc section 9.1).

    /usr/bin/python3 tests/data/ac_tags/make_ac_tags.py

torch 1.13 has no torch.compile, so each checkpoint region runs through the exporter's tag
emulation (samples/export_joint_graph.py: checkpoint(fn, *args, policy=...)), which writes the
meta "recompute" / "ac_graph_id" / "partitioner_tag" that torch 2.x would.  Expected op counts
come from the PyTorch tests (they count nodes of the partitioned fw/bw graphs, which our C++
computes from these joint graphs); they are written to expectations.json and README.md together
with what 1.13's own partitioners (which ignore tags) do, measured from each file's "reference".
"""
import collections
import json
import os
import sys

import torch
import torch.nn as nn
from torch._decomp import get_decompositions

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "samples"))
sys.path.insert(0, os.path.join(HERE, "..", "test_ac"))   # make_test_ac: the emulated SDPA op
from export_joint_graph import checkpoint, export_joint_graph  # noqa: E402

aten = torch.ops.aten
MM, SIGMOID, COS, SIN, CAT, MUL, ERF = (aten.mm.default, aten.sigmoid.default, aten.cos.default,
                                         aten.sin.default, aten.cat.default, aten.mul.Tensor, aten.erf.default)
SDPA = "aten._scaled_dot_product_efficient_attention.default"   # defined by ../test_ac/make_test_ac.py


def must_recompute(ops):
    """_get_custom_policy(must_recompute_list=ops): MUST_RECOMPUTE for ops, else PREFER_RECOMPUTE."""
    return lambda op: "MUST_RECOMPUTE" if op in ops else "PREFER_RECOMPUTE"


def rand(*shape):
    return torch.randn(*shape, requires_grad=True)


class Wrap(nn.Module):
    """Holds a checkpointed submodule so that aot_module lifts its parameters to primals, as Dynamo does."""

    def __init__(self, mod, fn):
        super().__init__()
        self.mod, self.fn = mod, fn

    def forward(self, *args):
        return self.fn(self.mod, *args)


def mock_linear(act):
    class MockModule(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(10, 10)

        def forward(self, x):
            return act(self.linear(x))
    return MockModule()


# --- the programs (names follow the PyTorch tests) -------------------------------------------
def tags_function():
    def gn(x, y):
        return torch.sigmoid(torch.matmul(x, y))
    return (lambda x, y: checkpoint(gn, torch.sin(x), y)), (rand(4, 4), rand(4, 4))


def tags_sequential_layers():
    def gn(x):
        x = x.cos()
        for _ in range(3):
            x = torch.mm(x, x)
        return x.cos()
    return (lambda x: checkpoint(gn, checkpoint(gn, x))), (rand(4, 4),)


def tags_multiple_checkpoints():
    def gn(x, y):
        return torch.sigmoid(torch.matmul(x, y))

    def fn(x, y):
        z = checkpoint(gn, torch.sin(x), y)
        return checkpoint(gn, torch.sin(z), y)
    return fn, (rand(4, 4), rand(4, 4))


def tags_module():
    return Wrap(mock_linear(torch.sigmoid), lambda m, x: checkpoint(m, torch.sin(x))), (rand(10, 10),)


def tags_decomps():
    mod = mock_linear(torch.nn.functional.gelu)
    return Wrap(mod, lambda m, x: checkpoint(m, torch.sin(x))), (rand(10, 10),)


def selective(gn, policy, *inputs):
    return (lambda *a: checkpoint(gn, *a, policy=policy)), inputs


def must_recompute_mm():
    return selective(lambda x: torch.cos(torch.sin(torch.matmul(x, x) @ x)), must_recompute([MM]), rand(4, 4))


def must_save_mm():
    return selective(lambda x: torch.cos(torch.sin(torch.matmul(x, x) @ x)), [MM], rand(4, 4))


def must_not_recompute_gemm():
    gn = lambda x, y: torch.sigmoid(torch.matmul(torch.matmul(x, y), y)) * y  # noqa: E731
    return selective(gn, [MM], rand(4, 4), rand(4, 4))


def outplace_op():
    gn = lambda x, y: torch.sigmoid(torch.selu(torch.matmul(torch.matmul(x, y), y))).relu()  # noqa: E731
    return selective(gn, [MM, SIGMOID], rand(4, 4), rand(4, 4))


def list_ops():
    return selective(lambda x, y: torch.cat([x, y]).sin(), [], rand(4, 4), rand(4, 4))


def custom_rule():
    count = collections.Counter()

    def policy(op):              # save mm outputs except the second mm
        count[op] += 1
        return op == MM and count[op] != 2
    gn = lambda x, y: torch.sigmoid(torch.sigmoid(torch.matmul(torch.matmul(x, y) * y, y) * y))  # noqa: E731
    return selective(gn, policy, rand(4, 4), rand(4, 4))


def random_op():
    # CUDA dropout is native_dropout; 1.13's CPU torch.dropout is bernoulli_, so call native_dropout.
    gn = lambda x: torch.sigmoid(torch.native_dropout(torch.sigmoid(x), 0.5, True)[0])  # noqa: E731
    return selective(gn, [SIGMOID], rand(4, 4))


def parametrization():
    class Parametrization(nn.Module):
        def parametrization(self, x):
            return torch.sigmoid(torch.mul(x, x))

        def forward(self, x):
            policy = lambda op: "MUST_RECOMPUTE" if op in (MUL, SIGMOID) else "MUST_SAVE"  # noqa: E731
            return checkpoint(self.parametrization, x, policy=policy)

    torch.manual_seed(5)
    model = nn.Sequential()
    model.net1 = nn.Linear(16, 16, bias=False)
    for mod in list(model.modules()):
        for name, p in dict(mod.named_parameters(recurse=False)).items():
            mod.register_parameter(name, nn.Parameter(p))
            nn.utils.parametrize.register_parametrization(mod, name, Parametrization(), unsafe=True)
    return model, (rand(8, 16),)


def pattern_matcher():
    # The test checkpoints matmul/mul/softmax/matmul and inductor's pattern matcher fuses it into one
    # SDPA op before partitioning.  1.13 has neither, so the region calls the fused op directly
    # (the emulated aten._scaled_dot_product_efficient_attention of ../test_ac; its default scale is
    # the test's 1/sqrt(32)), in float32 (1.13 has no CPU half matmul).
    from make_test_ac import sdpa
    fn = lambda q, k, v: checkpoint(sdpa, q.sin(), k, v)  # noqa: E731
    return fn, tuple(rand(4, 2, 16, 32) for _ in range(3))


def custom_autograd_function():
    class MyMM(torch.autograd.Function):       # 1.13 style (no setup_context)
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x @ w

        @staticmethod
        def backward(ctx, grad):
            x, w = ctx.saved_tensors
            return grad @ w.t(), x.t() @ grad
    return (lambda x, w: checkpoint(MyMM.apply, x, w)), (rand(4, 4), rand(4, 4))


def pre_mode_decomp_has_sac_ignored_ops():
    def op_with_detach(x):
        a = x.sin()
        return (a.detach() + a).cos()
    return selective(op_with_detach, [SIN, aten.add.Tensor, COS], rand(4))


def post_mode_decomp():
    def fn(x):
        return torch.nn.functional.silu(x.sin()).cos()
    return selective(fn, [aten.silu.default], rand(4))


def multi_output_op():
    def fn(x):
        vals, _ = torch.topk(x.sin(), k=2)
        return vals.sum().cos()
    return selective(fn, [aten.topk.default], rand(4))


def nonlocal_list_mutation_hidden():
    def gn(x, z):
        o = torch.matmul(x, x) @ x
        z.append(x.sin())
        return torch.cos(torch.sin(o)), torch.sin(x)

    def fn(x):
        z = []
        outs = checkpoint(gn, x, z)
        return outs[0] + outs[-1], z[0]
    return fn, (rand(4, 4),)


BOTH = ("min_cut", "default")
# file stem -> (program, PyTorch test, expectation); counts are nodes in the partitioned graphs.
CASES = {
    "tags_function": (tags_function, "test_tags_function", {"fw": {MM: 1}, "bw": {MM: 3}}),
    "tags_sequential_layers": (tags_sequential_layers, "test_tags_sequential_layers",
                               {"fw": {MM: 6}, "bw": {COS: 2, MM: 18}}),
    "tags_multiple_checkpoints": (tags_multiple_checkpoints, "test_tags_multiple_checkpoints",
                                  {"fw": {MM: 2}, "bw": {MM: 6}}),
    "tags_module": (tags_module, "test_tags_module", {"fw": {SIGMOID: 1}, "bw": {SIGMOID: 1}}),
    "tags_decomps": (tags_decomps, "test_tags_decomps", {"fw": {ERF: 1}, "bw": {ERF: 1},
                     "note": "gelu/gelu_backward decomposed with 1.13's torch._decomp (inductor's table in the test)"}),
    "selective_must_recompute_mm": (must_recompute_mm, "test_compile_selective_checkpoint_must_recompute",
                                    {"fw": {MM: 2}, "bw": {MM: 6}, "note": "policy MUST_RECOMPUTE mm"}),
    "selective_must_save_mm": (must_save_mm, "test_compile_selective_checkpoint_must_recompute",
                               {"fw": {MM: 2}, "bw": {MM: 4}, "note": "policy MUST_SAVE mm (no_recompute_list)"}),
    "selective_must_not_recompute_gemm": (must_not_recompute_gemm,
                                          "test_compile_selective_checkpoint_must_not_recompute_gemm "
                                          "(and _partial_ctx_fn, same program)", {"fw": {MM: 2}, "bw": {MM: 4}}),
    "selective_outplace_op": (outplace_op, "test_compile_selective_checkpoint_outplace_op",
                              {"fw": {MM: 2, SIGMOID: 1}, "bw": {MM: 4, SIGMOID: 0}}),
    "selective_list_ops": (list_ops, "test_compile_selective_checkpoint_list_ops", {"fw": {CAT: 1}, "bw": {CAT: 1}}),
    "selective_custom_rule": (custom_rule, "test_compile_selective_checkpoint_custom_rule",
                              {"fw": {MM: 2}, "bw_ge": {MM: 4}}),
    "selective_random_op": (random_op, "test_compile_selective_checkpoint_random_op",
                            {"fw": {SIGMOID: 2, aten.native_dropout.default: 1},
                             "bw": {SIGMOID: 0, aten.native_dropout.default: 1},
                             "note": "torch.native_dropout called directly (CUDA dropout); recomputing it needs RNG "
                                     "functionalization (run_and_save_rng_state / run_with_rng_state)"}),
    "selective_parametrization": (parametrization, "test_compile_selective_checkpoint_parametrization",
                                  {"fw": {MUL: 1, SIGMOID: 1}, "bw": {MUL: 2, SIGMOID: 1},
                                   "bw_default": {MUL: 3, SIGMOID: 1},
                                   "note": "bw mul 2 with min-cut, 3 with default_partition (no CSE)"}),
    "pattern_matcher": (pattern_matcher, "test_pattern_matcher",
                        {"fw": {SDPA: 1}, "bw": {SDPA: 1, SIN: 0}, "partitioners": ["min_cut"],
                         "note": "the attention is the fused SDPA op the pattern matcher would produce (emulated "
                                 "efficient-attention op, float32): it is recomputed in the backward, sin is not"}),
    "custom_autograd_function": (custom_autograd_function, "test_ac_tags_through_custom_autograd_function",
                                 {"annotations": "every forward aten.mm node has partitioner_tag is_forward, "
                                                 "recompute and ac_graph_id", "partitioners": []}),
    "pre_mode_decomp_has_sac_ignored_ops": (pre_mode_decomp_has_sac_ignored_ops, "test_pre_mode_decomp_has_sac_ignored_ops",
                                            {"annotations": {"sin": "MUST_SAVE", "detach_1": "PREFER_RECOMPUTE",
                                                             "add": "MUST_SAVE", "cos": "MUST_SAVE"},
                                             "partitioners": []}),
    "post_mode_decomp": (post_mode_decomp, "test_post_mode_decomp",
                         {"annotations": "sin PREFER_RECOMPUTE; every node of the decomposed silu MUST_SAVE; "
                                         "cos PREFER_RECOMPUTE", "partitioners": [],
                          "note": "1.13 decomposes silu as x * sigmoid(x) (inductor: neg/exp/add/div)"}),
    "multi_output_op": (multi_output_op, "test_multi_output_op",
                        {"annotations": {"sin": "PREFER_RECOMPUTE", "topk": "MUST_SAVE", "getitem": "MUST_SAVE",
                                         "getitem_1": "MUST_SAVE", "sum_1": "PREFER_RECOMPUTE",
                                         "cos": "PREFER_RECOMPUTE"}, "partitioners": []}),
    "nonlocal_list_mutation_hidden": (nonlocal_list_mutation_hidden, "test_nonlocal_list_mutation_hidden",
                                      {"fw_outputs": ["add", "sin", "primals_1"], "partitioners": ["default"],
                                       "note": "expected forward graph: mm, mm_1, sin, sin_1, cos, sin_2, add "
                                               "returning (add, sin, primals_1): only the primal is saved"}),
}
DECOMPS = {"tags_decomps": [aten.gelu, aten.gelu_backward], "post_mode_decomp": [aten.silu, aten.silu_backward]}


def op_counts(doc, part, side):
    """Counts of op targets among the call_function nodes of a 1.13 partition's fw or bw graph
    (saved values are placeholders of the bw graph: not counted, as PyTorch's count_ops)."""
    target = {n["name"]: n["target"] for n in doc["nodes"]}
    ref = doc["reference"][part]
    saved = set(ref["saved_values"]) if side == "bw" else set()
    return collections.Counter(target[n] for n in ref[f"{side}_nodes"]
                               if n not in saved and target.get(n, "").startswith(("aten.", "prims.")))


def jsonable(exp):
    out = {}
    for k, v in exp.items():
        out[k] = {str(op): n for op, n in v.items()} if isinstance(v, dict) and k != "annotations" else v
    out.setdefault("partitioners", list(BOTH))
    return out


README_HEAD = """# ac_tags: tagged joint graphs for the activation-checkpointing tag rules

Generated by `/usr/bin/python3 tests/data/ac_tags/make_ac_tags.py` (deterministic except the
partitioner timings); the programs are those of PyTorch's
`test/dynamo/test_activation_checkpointing.py` (reference doc section 9.1) that do not need CUDA.

torch 1.13 has no `torch.compile`, so each `torch.utils.checkpoint(...)` of the tests is replaced by
the exporter's emulation `checkpoint(fn, *args, policy=...)` (samples/export_joint_graph.py): the
region runs plainly, and every forward node it creates gets `meta.recompute` (`PREFER_RECOMPUTE`
for plain AC; for selective AC the policy's answer: `MUST_SAVE`, `MUST_RECOMPUTE`, ...; `detach`
always `PREFER_RECOMPUTE`; getitems inherit their tuple op's policy; decomposed ops inherit the
policy of the op they came from) and `meta.ac_graph_id` (1, 2, ... per region).  Every node has
`meta.partitioner_tag`: `is_backward` for the tangents and everything traced inside
`autograd.grad`, `is_forward` otherwise.  Backward nodes carry no AC tags, as in torch 2.x.

Expectations (also in `expectations.json`, keyed by file): node counts by op in the partitioned
forward (`fw`) / backward (`bw`) graphs that the PyTorch test asserts, for every partitioner listed
(`min_cut`, `default`; torch 2.x semantics, i.e. the C++ `newest` rules); `bw_ge` = at least;
`bw_default` overrides `bw` for the default partitioner.  Counting follows the test's `count_ops`:
call_function nodes whose target is the op (saved values are placeholders of the backward graph
and do not count).  The last column is what 1.13's own partitioners (which ignore tags) did with
the same joint graph (`reference` in each file), for contrast: they are NOT the expectation.

Differences from the PyTorch tests, caused by torch 1.13 (the C++ tests must allow for them):
* joint graphs contain 1.13's `detach` chains (from autograd's saved tensors), tagged
  `PREFER_RECOMPUTE` inside regions (torch 2.x: `SAC_IGNORED_OPS`);
* `selective_random_op` calls `torch.native_dropout` (the test's CUDA dropout lowers to it; 1.13's
  CPU dropout is `bernoulli_`);
* `pattern_matcher` calls the fused attention op directly, as inductor's pattern matcher would
  have produced it: the emulated `aten._scaled_dot_product_efficient_attention` of ../test_ac
  (see its README), in float32 (no CPU half matmul on 1.13);
* `tags_decomps` / `post_mode_decomp` use 1.13's `torch._decomp` tables (silu = x * sigmoid(x),
  not inductor's neg/exp/add/div);
* not reproducible here: tests that need Dynamo graph breaks, backward hooks
  (`test_tags_must_save_tensor_that_has_backward_hook`), tensor subclasses, triton kernels, the
  region memory-budget API, and `RematerializeACNodesPassTests`.

| file | PyTorch test | partitioners | expected fw | expected bw | notes | 1.13, tags ignored: min-cut fw / bw; default fw / bw |
|---|---|---|---|---|---|---|
"""


def _fmt(counts):
    return ", ".join(f"{op.replace('aten.', '').replace('.default', '').replace('.Tensor', '')} {n}"
                     for op, n in counts.items()) or "-"


def write_readme(expectations):
    rows = []
    for name, e in expectations.items():
        bw = _fmt(e.get("bw", {}))
        if "bw_ge" in e:
            bw = ", ".join(f"{op.replace('aten.', '').replace('.default', '')} >= {n}" for op, n in e["bw_ge"].items())
        if "bw_default" in e:
            bw += f" (default: {_fmt(e['bw_default'])})"
        fw = _fmt(e.get("fw", {}))
        if "fw_outputs" in e:
            fw = "outputs " + ", ".join(e["fw_outputs"])
        if "annotations" in e:
            ann = e["annotations"]
            fw = "tags: " + (", ".join(f"{k} {v}" for k, v in ann.items()) if isinstance(ann, dict) else ann)
        t = e["torch_1_13"]
        ref = "; ".join(f"{_fmt(t[p]['fw'])} / {_fmt(t[p]['bw'])}" for p in BOTH) if e.get("fw") or e.get("bw") \
            or e.get("bw_ge") else "-"
        rows.append(f"| {name} | {e['test']} | {', '.join(e['partitioners']) or 'tags only'} | {fw} | {bw} | "
                    f"{e.get('note', '')} | {ref} |")
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write(README_HEAD + "\n".join(rows) + "\n")


def main():
    expectations = {}
    for stem, (program, test, exp) in CASES.items():
        torch.manual_seed(0)
        fn, inputs = program()
        decomps = get_decompositions(DECOMPS[stem]) if stem in DECOMPS else None
        doc = export_joint_graph(fn, inputs, os.path.join(HERE, f"{stem}.json"), name=stem,
                                 description=f"PyTorch {test}, tags emulated on torch 1.13", decompositions=decomps)
        e = jsonable(exp)
        e["test"] = test
        ops = [op for side in ("fw", "bw", "bw_ge") for op in e.get(side, {})]
        e["torch_1_13"] = {part: {side: {op: op_counts(doc, part, side)[op] for op in ops}
                                  for side in ("fw", "bw")} for part in BOTH}
        e["tags"] = dict(collections.Counter(n["meta"]["recompute"] for n in doc["nodes"] if "recompute" in n["meta"]))
        expectations[f"{stem}.json"] = e
        print(f"{stem}: {len(doc['nodes'])} nodes, tags {e['tags']}")
    with open(os.path.join(HERE, "expectations.json"), "w") as f:
        json.dump(expectations, f, indent=1, sort_keys=True)
        f.write("\n")
    write_readme(expectations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
