# SPDX-License-Identifier: MIT
"""Joint graphs of the programs of PyTorch's test/functorch/test_ac.py::MemoryBudgetTest
(reference doc section 9.2), same shapes as the tests, for the C++ memory-budget tests.

    /usr/bin/python3 tests/data/test_ac/make_test_ac.py           # all (seconds)
    /usr/bin/python3 tests/data/test_ac/make_test_ac.py manual_ac  # some

Writes <case>.json (format v1), expectations.json and README.md.  The tests ran on CUDA with
torch.compile; here 1.13's AOT autograd traces the programs with FakeTensors
(functorch config.use_fake_tensor): the tests' shapes cost no arithmetic (Debian's CPU BLAS needs
about a minute per 2048x4608x4608 matmul), and the graphs equal those of real-tensor tracing
(checked on rematerializes_cheap, matmul_even_chain, manual_ac, attention S1_D1,
prioritize_cheaper_matmul).  See README.md for what differs (attention, manual AC tags).
"""
import json
import math
import os
import random
import sys

import torch
from torch.library import Library

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "samples"))
from export_joint_graph import checkpoint, export_joint_graph  # noqa: E402

aten = torch.ops.aten
MIB = 1024 * 1024

# ---------------------------------------------------------------------------------------------
# torch 2.x's memory-efficient SDPA as an aten op on 1.13.  1.13's own _scaled_dot_product_attention
# decomposes into bmm/_softmax/bmm on CPU, which saves the S x S attention matrix and so breaks the
# test's memory arithmetic.  The CUDA test (fp32) runs _scaled_dot_product_efficient_attention: one
# forward op returning (output, logsumexp, philox_seed, philox_offset) and one backward op.  We
# define both with the 2.x schemas (attn_bias made optional in the backward), a math CPU kernel and
# an autograd kernel, so the joint graph has exactly those two nodes.
# ---------------------------------------------------------------------------------------------
_FRAGMENT = torch._C._dispatch_library("FRAGMENT", "aten", "", __file__, 0)   # 1.13 Library() lacks FRAGMENT
_FRAGMENT.define("_scaled_dot_product_efficient_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, "
                 "bool compute_log_sumexp, float dropout_p=0.0, bool is_causal=False, *, float? scale=None) "
                 "-> (Tensor output, Tensor log_sumexp, Tensor philox_seed, Tensor philox_offset)")
_FRAGMENT.define("_scaled_dot_product_efficient_attention_backward(Tensor grad_out_, Tensor query, Tensor key, "
                 "Tensor value, Tensor? attn_bias, Tensor out, Tensor logsumexp, Tensor philox_seed, "
                 "Tensor philox_offset, float dropout_p, bool[4] grad_input_mask, bool is_causal=False, *, "
                 "float? scale=None) -> (Tensor, Tensor, Tensor, Tensor)")
_IMPL = Library("aten", "IMPL")


def _sdpa_cpu(q, k, v, bias, compute_lse, dropout_p=0.0, is_causal=False, *, scale=None):
    scale = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    s = torch.matmul(q, k.transpose(-2, -1)) * scale
    lse = torch.logsumexp(s, dim=-1)
    out = torch.matmul(torch.exp(s - lse.unsqueeze(-1)), v)
    return out, lse, torch.zeros((), dtype=torch.int64), torch.zeros((), dtype=torch.int64)


def _sdpa_backward_cpu(g, q, k, v, bias, out, lse, seed, offset, dropout_p, mask, is_causal=False, *, scale=None):
    scale = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    a = torch.exp(torch.matmul(q, k.transpose(-2, -1)) * scale - lse.unsqueeze(-1))
    ga = torch.matmul(g, v.transpose(-2, -1))
    gs = a * (ga - (ga * a).sum(-1, keepdim=True)) * scale
    return (torch.matmul(gs, k), torch.matmul(gs.transpose(-2, -1), q), torch.matmul(a.transpose(-2, -1), g),
            torch.empty(0))


class _EfficientAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v):
        below_autograd = torch._C._AutoDispatchBelowAutograd()   # 1.13: a guard object
        out, lse, seed, offset = aten._scaled_dot_product_efficient_attention(q, k, v, None, True)
        del below_autograd
        ctx.save_for_backward(q, k, v, out, lse, seed, offset)
        ctx.mark_non_differentiable(lse, seed, offset)
        return out, lse, seed, offset

    @staticmethod
    def backward(ctx, grad_out, *_):
        q, k, v, out, lse, seed, offset = ctx.saved_tensors
        gq, gk, gv, _ = aten._scaled_dot_product_efficient_attention_backward(
            grad_out, q, k, v, None, out, lse, seed, offset, 0.0, [True, True, True, False])
        return gq, gk, gv


def _sdpa_meta(q, k, v, bias, compute_lse, dropout_p=0.0, is_causal=False, *, scale=None):
    scalar = torch.empty((), dtype=torch.int64, device="meta")
    return torch.empty_like(q), q.new_empty(q.shape[:-1]), scalar, scalar.clone()


def _sdpa_backward_meta(g, q, k, v, *args, **kwargs):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v), q.new_empty(0)


_IMPL.impl("_scaled_dot_product_efficient_attention", _sdpa_meta, "Meta")       # for FakeTensor tracing
_IMPL.impl("_scaled_dot_product_efficient_attention_backward", _sdpa_backward_meta, "Meta")
_IMPL.impl("_scaled_dot_product_efficient_attention", _sdpa_cpu, "CPU")
_IMPL.impl("_scaled_dot_product_efficient_attention_backward", _sdpa_backward_cpu, "CPU")
_IMPL.impl("_scaled_dot_product_efficient_attention",
           lambda q, k, v, *a, **kw: _EfficientAttention.apply(q, k, v), "Autograd")


def sdpa(q, k, v):
    """F.scaled_dot_product_attention(q, k, v) as the fp32 CUDA test runs it."""
    return aten._scaled_dot_product_efficient_attention(q, k, v, None, True)[0]


# ---------------------------------------------------------------------------------------------
# The programs (test_ac.py), returning (fn, inputs)
# ---------------------------------------------------------------------------------------------
def rand(*shape):
    return torch.randn(*shape, requires_grad=True)


def create_pair(b_i, o):
    return rand(b_i * 512, b_i * 512), rand(b_i * 512, o * 512)


def rematerializes_cheap():
    return (lambda x, w: torch.mm(x.cos(), w).sum()), (rand(512, 512), rand(512, 512))


def matmul_even_chain():
    def f(x, *ws):
        x = x.cos()
        for w in ws:
            x = torch.mm(x, w).cos()
        return x.sum()
    return f, (rand(512, 512), *[rand(512, 512) for _ in range(5)])


def matmul_uneven_chain(shapes):
    def f(x, *ws):
        xs = [torch.mm(x, w).cos() for w in ws]
        return sum(x.sum() for x in xs)
    return lambda: (f, (rand(512, 512), *[rand(512, d * 512) for d in shapes]))


def prioritize(pairs):
    def f(*xws):
        xs = [torch.mm(x, w).cos() for x, w in zip(xws[0::2], xws[1::2])]
        return sum(x.sum() for x in xs)
    return lambda: (f, tuple(t for b_i, o in pairs for t in create_pair(b_i, o)))


def attention_vs_linear(s, d):
    def f(x, w):
        orig_shape = x.shape
        x = x.reshape(1, 1, x.shape[0], x.shape[1])
        x = sdpa(x, x, x).reshape(*orig_shape)
        return torch.mm(x, w).cos().sum()
    return lambda: (f, (rand(s * 512, d * 512), rand(d * 512, d * 512)))


def manual_ac():
    def f(x):
        tmp1 = torch.matmul(x, x.T)
        tmp1 = torch.matmul(tmp1, tmp1)
        tmp1 = torch.matmul(tmp1, tmp1)
        return torch.matmul(tmp1, x)

    def g(x):      # two torch.utils.checkpoint(f, x, use_reentrant=False), tags emulated
        return checkpoint(f, checkpoint(f, x)).sum()
    return g, (rand(64, 1024),)


def random_uneven_case():
    """test_matmul_uneven_chain's third config, drawn exactly as the test does."""
    random.seed(0)
    arr = [random.randint(0, 50) for _ in range(10)]
    sums = []
    for i in range(10):
        random.shuffle(arr)
        sums.append(sum(arr[:i]))
    return arr, sums


RANDOM_SHAPES, RANDOM_SUMS = random_uneven_case()
ATTENTION = {(1, 1): "mm", (1, 3): "attention", (2, 2): "mm", (2, 1): "mm", (2, 5): "attention",
             (4, 7): "mm", (4, 9): "attention"}


def uneven_expectation(shapes, targets):
    total = sum(shapes)
    return {"eager_mem": total, "budgets": [{"budget": t / total, "mem": t} for t in targets]}


# stem -> (program, PyTorch test, expectation in the test's units: MiB of activations, backward
#          FLOPs / (2 * 512^3); "extra_flops" = backward FLOPs beyond eager)
CASES = {
    "rematerializes_cheap": (rematerializes_cheap, "test_rematerializes_cheap",
                             {"eager_mem": 1.0, "budgets": [{"budget": 1.0, "mem": 1.0, "extra_flops": 0},
                                                            {"budget": 0.5, "mem": 0.0, "extra_flops": 0}]}),
    "matmul_even_chain": (matmul_even_chain, "test_matmul_even_chain (and test_profile)",
                          {"eager_mem": 10.0,
                           "budgets": [{"budget": b / 10, "mem": float(min(b, 5) if b < 10 else 10),
                                        "extra_flops": max(5 - b, 0)} for b in range(11)],
                           "profile_estimator": {"budget": 0.2, "mem": 2.0, "extra_flops": 3}}),
    "matmul_uneven_chain_11_3_4_2": (matmul_uneven_chain([11, 3, 4, 2]), "test_matmul_uneven_chain",
                                     uneven_expectation([11, 3, 4, 2], [18, 17, 16, 15, 14, 13, 11, 7, 6, 5])),
    "matmul_uneven_chain_3_5_11_17_14": (matmul_uneven_chain([3, 5, 11, 17, 14]), "test_matmul_uneven_chain",
                                         uneven_expectation([3, 5, 11, 17, 14], [42, 30, 19, 8, 3])),
    "matmul_uneven_chain_random": (matmul_uneven_chain(RANDOM_SHAPES), "test_matmul_uneven_chain (random config)",
                                   dict(uneven_expectation(RANDOM_SHAPES, RANDOM_SUMS), weight_shapes=RANDOM_SHAPES)),
    "prioritize_cheaper_matmul": (prioritize([(1, 4), (2, 2)]), "test_prioritize_cheaper_matmul",
                                  {"eager_mem": 8, "eager_flops": 24,
                                   "budgets": [{"budget": 0.5, "mem": 4, "extra_flops": 4}]}),
    "prioritize_cheaper_matmul2": (prioritize([(4, 4), (6, 2), (2, 6)]), "test_prioritize_cheaper_matmul2",
                                   {"eager_mem": 40, "eager_flops": 320,
                                    "budgets": [{"budget": 28 / 40, "mem": 28, "extra_flops": 24},
                                                {"budget": 16 / 40, "mem": 12, "extra_flops": 24 + 64}]}),
    **{f"attention_vs_linear_S{s}_D{d}": (attention_vs_linear(s, d), "test_attention_vs_linear",
                                          {"eager_mem": 2 * s * d, "budgets": [{"budget": 0.6, "mem": s * d}],
                                           "recompute": what})
       for (s, d), what in ATTENTION.items()},
    "manual_ac": (manual_ac, "test_manual_ac",
                  {"budgets": [{"budget": 0.01, "mem": "eager_mem", "extra_flops": 0}]}),
}


def saved_mib(doc, part):
    """Non-primal saved bytes of a 1.13 decision, in MiB (views counted at full size)."""
    vals = {n["name"]: n["val"] for n in doc["nodes"]}
    total = 0
    for name in doc["reference"][part]["saved_values"]:
        v = vals[name]
        if not name.startswith("primals") and isinstance(v, dict):
            total += math.prod(v["shape"]) * torch.empty((), dtype=getattr(torch, v["dtype"])).element_size()
    return round(total / MIB, 3)


README_HEAD = """# test_ac: joint graphs of PyTorch's MemoryBudgetTest

Generated by `/usr/bin/python3 tests/data/test_ac/make_test_ac.py` (seconds: traced with FakeTensors,
which gives the same graphs as real tensors; deterministic except the partitioner timings).  One file per program of `test/functorch/test_ac.py::MemoryBudgetTest`
(reference doc section 9.2), with the tests' shapes (512x512 fp32 = 1 MiB).  Each program is a
function of its tensors (all `requires_grad=True`, as the test's closure tensors): the primals are
x, w... in argument order, the output is the scalar loss, so there is one tangent.  The tests'
`get_mem_and_flops` measure activation memory (MiB held between forward and backward, inputs
excluded: count saved values that are not primals) and backward FLOPs normalised so that one
512^3 matmul = 1 (FlopCounterMode: mm 2*M*K*N, SDPA forward 2*b*h*s_q*s_k*(d_q+d_v); all other ops 0
in the test's count, but 1 in the partitioner's "flops" estimator).

What differs from the CUDA tests:
* attention (`attention_vs_linear_*`): torch 1.13 has no `F.scaled_dot_product_attention`, and
  its `aten._scaled_dot_product_attention` decomposes into bmm/_softmax/bmm on CPU, whose saved
  S x S matrix breaks the test's memory arithmetic.  The fp32 CUDA test runs the memory-efficient
  kernel, so the generator defines `aten::_scaled_dot_product_efficient_attention` and
  `aten::_scaled_dot_product_efficient_attention_backward` on 1.13 with torch 2.x's schemas (the
  backward's attn_bias made `Tensor?`), a math CPU kernel and an autograd kernel: the joint graph
  holds one forward node (outputs: output, logsumexp [B, H, S] -- CUDA pads S to a multiple of 32
  -- philox_seed, philox_offset: int64 scalars) plus getitems, and one backward node.  For the C++
  rules these should count as compute-intensive and get the SDPA FLOP formula.
* `manual_ac`: the two `checkpoint(f, x, use_reentrant=False)` regions use the exporter's tag
  emulation (meta recompute = PREFER_RECOMPUTE, ac_graph_id 1 and 2), as torch.compile tags them.
* `matmul_even_chain` also serves `test_profile` (same program, runtime_estimator="profile", GPU
  only): budget 0.2 -> mem 2, extra flops 3.
* 1.13's joint graphs contain `detach` chains (views of saved values); count a storage once when
  measuring memory (the test measures allocator bytes).

Expectations (`expectations.json`, keyed by file): `eager_mem` (MiB), `eager_flops`, and per
`budget` (config.activation_memory_budget) the activation memory `mem` (MiB, rounded to 0.1 as the
test does) and `extra_flops` (backward FLOPs beyond eager); for attention, which of the two
(`mm` or `attention`) budget 0.6 recomputes.  The last two columns are measured from the 1.13
`reference` of each file, for orientation only (no budget in 1.13; default_partition is "eager-like";
MiB counts views at full size).

| file | PyTorch test | joint nodes | expectation | 1.13 min-cut saved MiB | 1.13 default saved MiB |
|---|---|---:|---|---:|---:|
"""


def describe(e):
    parts = []
    if "eager_mem" in e:
        parts.append(f"eager mem {e['eager_mem']}")
    if "eager_flops" in e:
        parts.append(f"eager flops {e['eager_flops']}")
    for b in e["budgets"]:
        s = f"budget {b['budget']:.4g} -> mem {b['mem']}"
        if "extra_flops" in b:
            s += f", extra flops {b['extra_flops']}"
        parts.append(s)
    if "recompute" in e:
        parts.append(f"recomputes the {e['recompute']}")
    if "profile_estimator" in e:
        p = e["profile_estimator"]
        parts.append(f"profile estimator: budget {p['budget']} -> mem {p['mem']}, extra flops {p['extra_flops']}")
    return "; ".join(parts)


def main(argv):
    path = os.path.join(HERE, "expectations.json")
    expectations = json.load(open(path)) if os.path.exists(path) else {}
    for stem in argv or list(CASES):
        program, test, exp = CASES[stem]
        torch.manual_seed(0)
        fn, inputs = program()
        doc = export_joint_graph(fn, inputs, os.path.join(HERE, f"{stem}.json"), name=stem, fake_tensors=True,
                                 description=f"PyTorch test_ac.py {test}, traced on CPU by torch 1.13 "
                                             "(fake tensors)")
        expectations[f"{stem}.json"] = dict(exp, test=test, nodes=len(doc["nodes"]),
                                            torch_1_13_saved_mib={p: saved_mib(doc, p) for p in ("min_cut", "default")})
        print(f"{stem}: {len(doc['nodes'])} nodes, 1.13 saved MiB {expectations[stem + '.json']['torch_1_13_saved_mib']}")
    expectations = {k: expectations[k] for k in sorted(expectations)}
    with open(path, "w") as f:
        json.dump(expectations, f, indent=1)
        f.write("\n")
    rows = [f"| {k} | {e['test']} | {e['nodes']} | {describe(e)} | {e['torch_1_13_saved_mib']['min_cut']} | "
            f"{e['torch_1_13_saved_mib']['default']} |" for k, e in expectations.items()]
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write(README_HEAD + "\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
