#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates this folder: the forward graphs of the modules of PyTorch's test_fx_experimental.py
accelerator-partitioner tests (written again here, same structure), and cases.json, the outcome of
a real run of torch.fx.experimental.accelerator_partitioner on each setup.

    /usr/bin/python3 tests/data/fx_partitioner/make_cases.py      # Debian's torch 1.13.1
    make_cases.py --out DIR                                       # elsewhere (e.g. with torch 2.x:
                                                                  # REMAT_FX_PARTITIONER_DIR=DIR tst_acceleratorpartitioner)

tst_acceleratorpartitioner.cpp checks the test's own assertions and everything recorded here.
"""
import contextlib
import io
import json
import os
import sys

import torch
from torch.fx.experimental.accelerator_partitioner import Partitioner
from torch.fx.experimental.partitioner_utils import (Device, NodeLatency, PartitionerConfig, PartitionMode,
                                                     get_latency_of_partitioned_graph,
                                                     get_partition_to_latency_mapping)
from torch.fx.passes import graph_manipulation

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "samples"))
from export_forward_graph import build_forward_document, trace_forward  # noqa: E402
from export_joint_graph import write_document  # noqa: E402


# ---- the tests' modules ----------------------------------------------------------------------
class AddTwo(torch.nn.Module):
    def forward(self, a, b):
        return a + b


class WithLinear(torch.nn.Module):
    """The tests' modules that own one Linear(4, 4) named linear."""
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)


class LinearPlusInput(WithLinear):
    def forward(self, a):
        return self.linear(a) + a


class AddChain(torch.nn.Module):
    def forward(self, a, b):
        add_1 = a + b
        add_2 = add_1 + torch.rand(4)
        return add_2 + torch.rand(4)


class AddLinearAdd(WithLinear):
    def __init__(self):
        super().__init__()
        self.c = torch.rand(4)

    def forward(self, a, b):
        return self.linear(a + b) + self.c


class DeviceMapping(WithLinear):
    def forward(self, a):
        add_1 = a + torch.rand(4)
        linear_1 = self.linear(add_1)
        add_2 = torch.rand(4) + a
        return add_2 + linear_1


class Recommendation(torch.nn.Module):
    @staticmethod
    def mlp(layers, width):
        out = []
        for _ in range(layers):
            out += [torch.nn.Linear(width, width), torch.nn.ReLU()]
        return out

    def __init__(self):
        super().__init__()
        self.bottom_layers = torch.nn.Sequential(*self.mlp(4, 4))
        self.top_layers = torch.nn.Sequential(*self.mlp(3, 24))
        self.embedding_layers = torch.nn.ModuleList()
        for rows in (500000, 1000000, 1000000, 1000000, 500000):
            self.embedding_layers.append(torch.nn.EmbeddingBag(rows, 4, mode="sum", sparse=True))

    def forward(self, a, b, offset):
        x = self.bottom_layers(a)
        c = [torch.randint(10, (8,)) + b for _ in range(len(self.embedding_layers))]
        y = []
        for i in range(len(self.embedding_layers)):
            idx = c[i] if i % 2 == 0 else torch.randint(10, (8,))
            y.append(self.embedding_layers[i](idx, offset))
        return self.top_layers(torch.cat([x] + y, dim=1))


class LatencyModule(WithLinear):
    def forward(self, a):
        add_1 = a + torch.rand(4)
        add_2 = add_1 + torch.rand(4)
        linear_1 = self.linear(add_1)
        add_3 = add_2 + linear_1
        return add_2 + add_3


class CostAwareModule(WithLinear):
    def forward(self, a):
        add_1 = a + torch.rand(4)
        add_2 = add_1 + torch.rand(4)
        linear_1 = self.linear(add_1)
        add_3 = add_2 + torch.rand(4)
        add_4 = add_2 + linear_1
        return add_3 + add_4


class AotModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.b = torch.rand(4)
        self.c = torch.rand(4)

    def forward(self, a):
        return self.c + (a + self.b)


class Mlp(torch.nn.Module):
    """Not from the tests: a small MLP, the sample of the README and the command-line tests."""
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 128)
        self.fc2 = torch.nn.Linear(128, 128)
        self.fc3 = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


# ---- latency tables as the tests build them ---------------------------------------------------
def latency_from_sizes(gm, compute_when_no_params):
    """The tests' get_node_to_latency_mapping: (total, f(total)) for parameter-free nodes,
    (total, output) otherwise; f is 2*total (test_partition_latency) or 1 (test_cost_aware)."""
    table = {}
    for node in gm.graph.nodes:
        if node.op in {"output", "placeholder", "get_attr"}:
            continue
        size = node.size_bytes
        if size.total_size == size.output_size:
            table[node] = NodeLatency(size.total_size, compute_when_no_params(size.total_size))
        else:
            table[node] = NodeLatency(size.total_size, size.output_size)
    return table


def latency_from_bandwidth(gm, _unused=None):
    """For the MLP sample (not from the tests): reading the node's bytes at 100 GB/s, and producing
    its output at 10 GB/s."""
    return {node: NodeLatency(node.size_bytes.total_size / 100e9, node.size_bytes.output_size / 10e9)
            for node in gm.graph.nodes if node.op not in {"output", "placeholder", "get_attr"}}


def devices(*mems):
    return [Device(f"dev_{i}", m, i) for i, m in enumerate(mems)]


CASES = [
    # name, module, inputs, devices, mode, extra config
    ("find_single_partition", AddTwo, lambda: (torch.rand(1), torch.rand(1)), devices(125, 150, 125), "size_based", {}),
    ("lack_of_devices", AddTwo, lambda: (torch.rand(4), torch.rand(4)), devices(4, 4), "size_based", {}),
    ("large_node_error", LinearPlusInput, lambda: (torch.rand(4),), [Device(f"dev_{i}", 40, 0) for i in range(5)],
     "size_based", {}),
    ("partition_node_manipulation", AddChain, lambda: (torch.rand(4), torch.rand(4)), devices(1000), "size_based", {}),
    ("size_based", AddLinearAdd, lambda: (torch.rand(4), torch.rand(4)), devices(125, 125, 125), "size_based", {}),
    ("partition_device_mapping", DeviceMapping, lambda: (torch.rand(4),), devices(120, 160), "size_based", {}),
    ("sparse_nn", Recommendation, lambda: (torch.rand(2, 4), torch.randint(10, (8,)), torch.randint(1, (2,))),
     devices(33000000, 33000000, 33000000), "sparse_nn", {}),
    ("partition_latency", LatencyModule, lambda: (torch.rand(4),), devices(200, 200), "size_based",
     {"latency": lambda t: 2.0 * t, "rate": 2.0}),
    ("cost_aware", CostAwareModule, lambda: (torch.rand(4),), devices(125, 125, 125, 125), "cost_aware",
     {"latency": lambda t: 1, "rate": 2.0}),
    ("aot_based", AotModule, lambda: (torch.rand(4),), devices(200), "aot_based", {"aot": True}),
    ("saturate_host", LatencyModule, lambda: (torch.rand(4),), devices(200, 200, 100, 100, 200, 100), "size_based",
     {"saturate_host": True}),
    # Not in the tests: kl_based on the latency module (1.13 iterates a set: invariants only), and
    # size_based / cost_aware on the MLP sample.
    ("kl_based", LatencyModule, lambda: (torch.rand(4),), devices(200, 200), "kl_based",
     {"latency": lambda t: 2.0 * t, "rate": 2.0}),
    ("mlp_size_based", Mlp, lambda: (torch.rand(8, 64),), devices(80000, 80000, 80000), "size_based",
     {"latency": "bandwidth", "rate": 10e9}),
    ("mlp_cost_aware", Mlp, lambda: (torch.rand(8, 64),), devices(80000, 80000, 80000), "cost_aware",
     {"latency": "bandwidth", "rate": 10e9}),
    ("mlp_saturate_host", Mlp, lambda: (torch.rand(8, 64),), devices(80000, 80000, 80000, 90000, 70000, 100000),
     "size_based", {"saturate_host": True}),
    ("no_devices", AddTwo, lambda: (torch.rand(4), torch.rand(4)), [], "size_based", {}),
    ("sparse_nn_unequal_devices", LatencyModule, lambda: (torch.rand(4),), devices(100, 200), "sparse_nn", {}),
]


def order_of(gm):
    return {n: i for i, n in enumerate(gm.graph.nodes)}


def record(partitioner, gm, ret, latency, rate):
    pos = order_of(gm)
    parts = []
    for p in partitioner.partitions:
        parts.append({"id": p.partition_id, "nodes": [n.name for n in sorted(p.nodes, key=pos.get)],
                      "logical_device_ids": list(p.logical_device_ids), "used_mem_bytes": p.used_mem_bytes,
                      "parents": sorted(q.partition_id for q in p.parents),
                      "children": sorted(q.partition_id for q in p.children), "bfs_level": p.bfs_level})
    out = {"partitions": parts,
           "dag": [{"submodule": d.submodule_node.name, "logical_device_ids": list(d.logical_device_ids),
                    "size_bytes": d.size_bytes} for d in ret.dag.nodes],
           "split_module_nodes": len(ret.module_with_submodules.graph.nodes)}
    if latency is not None:
        mapping = get_partition_to_latency_mapping(partitioner.partitions, latency)
        out["partition_latency"] = [list(mapping[p]) for p in partitioner.partitions]
        out["critical_path_latency_sec"] = get_latency_of_partitioned_graph(partitioner.partitions, mapping, rate)
    return out


def main():
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else HERE
    os.makedirs(out, exist_ok=True)
    cases = []
    for name, make, inputs, devs, mode, extra in CASES:
        torch.manual_seed(0)
        module = make()
        example = inputs()
        gm = trace_forward(module, example)
        graph_manipulation.get_size_of_all_nodes(gm)
        latency = None
        if extra.get("latency") == "bandwidth":
            latency = latency_from_bandwidth(gm)
        elif "latency" in extra:
            latency = latency_from_sizes(gm, extra["latency"])
        aot = None
        if extra.get("aot"):
            ops = [n for n in gm.graph.nodes if n.op not in {"placeholder", "get_attr", "output"}]
            aot = ({n: i for i, n in enumerate(ops)}, {i: [0] for i in range(len(ops))})
        graph_file = f"{name}.json"
        doc = build_forward_document(
            gm, make.__name__, f"the module of test_fx_experimental's test_{name}",
            node_latency={n.name: tuple(v) for n, v in latency.items()} if latency else None,
            aot_partition=({n.name: i for n, i in aot[0].items()}, aot[1]) if aot else None)
        write_document(doc, os.path.join(out, graph_file))
        config = PartitionerConfig(devs, PartitionMode[mode], extra.get("rate", 0.0), latency or {},
                                   aot[0] if aot else {}, aot[1] if aot else {}, extra.get("saturate_host", False))
        case = {"name": name, "graph": graph_file, "mode": mode,
                "devices": [{"name": d.name, "available_mem_bytes": d.available_mem_bytes, "logical_id": d.logical_id}
                            for d in devs],
                "transfer_rate_bytes_per_sec": extra.get("rate", 0.0),
                "saturate_host": extra.get("saturate_host", False)}
        partitioner = Partitioner()
        try:
            with contextlib.redirect_stdout(io.StringIO()):   # saturate_host prints the device lists
                ret = partitioner.partition_graph(gm, module, config)
            case["outcome"] = record(partitioner, gm, ret, latency, extra.get("rate", 0.0))
        except RuntimeError as e:
            case["outcome"] = {"error": str(e)}
        if name == "partition_node_manipulation":
            part = partitioner.partitions[0]
            part.remove_node(next(n for n in part.nodes if n.name == "add_2"))
            case["outcome"]["after_removing_add_2"] = part.used_mem_bytes
        cases.append(case)
        print(name, json.dumps(case["outcome"])[:160])
    doc = {"torch_version": torch.__version__, "cases": cases}
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(doc, f, indent=1, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
