#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the joint graph of a deep Linear+ReLU MLP in the joint-graph format, node for node the
pattern torch 1.13's aot_function produces for samples/mlp.json, with as many layers as asked.
For stress-measuring the desktop app on graphs of a given size (no torch needed):

    make_deep_mlp.py --layers 560 /tmp/deep_mlp_10k.json   # about 10k nodes
"""
import argparse
import json


def tensor(shape):
    stride, acc = [], 1
    for d in reversed(shape):
        stride.insert(0, acc)
        acc *= d
    return {"shape": shape, "dtype": "float32", "stride": stride, "device": "cpu"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=560)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("out")
    a = ap.parse_args()
    L, H, B = a.layers, a.width, a.batch
    nodes = []

    def add(name, target, args, shape, op="call_function"):
        nodes.append({"name": name, "op": op, "target": target, "args": args, "kwargs": {},
                      "val": tensor(shape) if shape is not None else None, "meta": {}})
        return {"node": name}

    params = []
    for i in range(1, L + 1):
        params.append(add(f"w{i}", f"w{i}", [], [H, H], "placeholder"))
        params.append(add(f"b{i}", f"b{i}", [], [H], "placeholder"))
    for n in nodes:
        n["name"] = n["target"] = "primals_%d" % (nodes.index(n) + 1)
    params = [{"node": n["name"]} for n in nodes]
    x = add(f"primals_{2 * L + 1}", f"primals_{2 * L + 1}", [], [B, H], "placeholder")
    tangent = add("tangents_1", "tangents_1", [], [B, H], "placeholder")

    acts, weights_t, detached = [x], [], []
    for i in range(L):
        w, b = params[2 * i], params[2 * i + 1]
        t = add(f"t_f{i}", "aten.t.default", [w], [H, H])
        y = add(f"addmm_{i}", "aten.addmm.default", [b, acts[-1], t], [B, H])
        weights_t.append(t)
        if i + 1 < L:
            r = add(f"relu_{i}", "aten.relu.default", [y], [B, H])
            d1 = add(f"detach_{i}a", "aten.detach.default", [r], [B, H])
            detached.append(add(f"detach_{i}b", "aten.detach.default", [d1], [B, H]))
            acts.append(r)
        else:
            acts.append(y)
    out = acts[-1]

    grad = tangent
    grads = [None] * (2 * L)
    for i in reversed(range(L)):
        if i + 1 < L:
            d3 = add(f"detach_{i}c", "aten.detach.default", [detached[i]], [B, H])
            d4 = add(f"detach_{i}d", "aten.detach.default", [d3], [B, H])
            grad = add(f"threshold_backward_{i}", "aten.threshold_backward.default", [grad, d4, 0], [B, H])
        if i > 0:
            tt = add(f"t_b{i}", "aten.t.default", [weights_t[i]], [H, H])
            grad_in = add(f"mm_in{i}", "aten.mm.default", [grad, tt], [B, H])
        tg = add(f"t_g{i}", "aten.t.default", [grad], [H, B])
        mw = add(f"mm_w{i}", "aten.mm.default", [tg, acts[i]], [H, H])
        tw = add(f"t_w{i}", "aten.t.default", [mw], [H, H])
        s = add(f"sum_{i}", "aten.sum.dim_IntList", [grad, [0], True], [1, H])
        grads[2 * i + 1] = add(f"view_{i}", "aten.view.default", [s, [H]], [H])
        grads[2 * i] = add(f"t_gw{i}", "aten.t.default", [tw], [H, H])
        if i > 0:
            grad = grad_in
    nodes.append({"name": "output", "op": "output", "target": "output", "args": [[out] + grads + [None]],
                  "kwargs": {}, "val": None, "meta": {}})
    graph = {"format": "joint-graph", "version": 1,
             "source": {"producer": "tests/gui/make_deep_mlp.py", "model": f"deep_mlp_{L}",
                        "description": f"{L} x (Linear {H} + ReLU), batch {B}: the mlp.json pattern, repeated"},
             "num_fwd_outputs": 1, "nodes": nodes}
    with open(a.out, "w") as f:
        json.dump(graph, f, separators=(",", ":"))
    print(f"{a.out}: {len(nodes)} nodes")


if __name__ == "__main__":
    main()
