# SPDX-License-Identifier: MIT
"""The forward-graph exporter (samples/export_forward_graph.py), and `remat-explorer devices` on
what it writes against torch.fx's own accelerator partitioner on the same traced module.

    REMAT_EXPLORER=build/app/remat-explorer /usr/bin/python3 tests/python/test_forward_exporter.py

Runs with torch 1.13 (Debian) and 2.x. Without REMAT_EXPLORER the comparisons FAIL, they do not skip.
"""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch
import torch.nn as nn
from torch.fx.experimental.accelerator_partitioner import Partitioner
from torch.fx.experimental.partitioner_utils import (Device, NodeLatency, PartitionerConfig, PartitionMode,
                                                     get_extra_size_of, get_latency_of_partitioned_graph,
                                                     get_partition_to_latency_mapping)
from torch.fx.passes import graph_manipulation

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "samples"))
import export_forward_graph as efg  # noqa: E402


class Mixed(nn.Module):
    """call_module (Linear, EmbeddingBag), call_method (relu, view) and call_function (cat)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 64)
        self.emb = nn.EmbeddingBag(1000, 16, mode="sum")
        self.fc2 = nn.Linear(64 + 16, 32)

    def forward(self, x, idx, offsets):
        h = self.fc1(x).relu()
        z = torch.cat([h, self.emb(idx, offsets)], dim=1)
        return self.fc2(z).view(-1)


def example():
    torch.manual_seed(0)
    return Mixed(), (torch.randn(4, 16), torch.randint(0, 1000, (12,)), torch.tensor([0, 3, 6, 9]))


def strict_json(path):
    def reject(constant):
        raise ValueError(f"{path}: non-standard JSON constant {constant}")
    with open(path) as f:
        return json.load(f, parse_constant=reject)


def cli():
    exe = os.environ.get("REMAT_EXPLORER", "")
    if not exe or not os.access(exe, os.X_OK):
        raise AssertionError(f"REMAT_EXPLORER={exe!r} is not the built remat-explorer executable")
    return exe


def latency_table(gm):
    """Bytes read at 100 GB/s, output written at 10 GB/s (any table works; both sides get it)."""
    return {n: NodeLatency(n.size_bytes.total_size / 100e9, n.size_bytes.output_size / 10e9)
            for n in gm.graph.nodes if n.op not in {"placeholder", "get_attr", "output"}}


class ForwardExporter(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        model, inputs = example()
        cls.gm = efg.trace_forward(model, inputs)
        graph_manipulation.get_size_of_all_nodes(cls.gm)
        cls.latency = latency_table(cls.gm)
        cls.path = os.path.join(cls.tmp.name, "mixed.fwd.json")
        cls.doc = efg.export_forward_graph(model, inputs, cls.path,
                                           node_latency={n.name: tuple(v) for n, v in cls.latency.items()})
        total = sum(n.size_bytes.total_size for n in cls.gm.graph.nodes if n.op != "output")
        biggest = max(get_extra_size_of(n, set()) for n in cls.latency)
        cls.device = max(total // 2, biggest) + 4096   # no device holds it all; every node fits one
        assert cls.device < total

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_document(self):
        doc = strict_json(self.path)
        self.assertEqual((doc["format"], doc["version"], doc["kind"]), ("joint-graph", 1, "forward"))
        ops = {n["op"] for n in doc["nodes"]}
        self.assertTrue({"placeholder", "call_module", "call_method", "call_function", "output"} <= ops, ops)
        self.assertEqual(doc["modules"]["fc1"]["parameters"]["weight"]["shape"], [64, 16])
        self.assertIn("EmbeddingBag", doc["modules"]["emb"]["repr"])
        self.assertEqual(doc["num_fwd_outputs"], 1)
        fc2 = next(n for n in doc["nodes"] if n["name"] == "fc2")
        self.assertEqual(fc2["val"]["shape"], [4, 32])
        self.assertEqual(set(doc["node_latency"]), {n.name for n in self.latency})

    def test_command_line_flag(self):
        out = os.path.join(self.tmp.name, "from_cli.json")
        factory = os.path.join(self.tmp.name, "factory.py")
        with open(factory, "w") as f:
            f.write("import torch\n\ndef make():\n    return torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())\n")
        run = subprocess.run([sys.executable, os.path.join(REPO, "samples", "export_forward_graph.py"),
                              "--model", f"{factory}:make", "--input", "2x8", "-o", out],
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        doc = strict_json(out)
        self.assertEqual([n["op"] for n in doc["nodes"]], ["placeholder", "call_module", "call_module", "output"])
        self.assertEqual(doc["modules"]["0"]["parameters"]["bias"]["shape"], [4])

    def check_against_pytorch(self, mode, devices, rate):
        """PyTorch's partitioner on the traced module vs `remat-explorer devices` on the file."""
        config = PartitionerConfig([Device(f"dev_{i}", m, i) for i, m in enumerate(devices)], PartitionMode[mode],
                                   rate, self.latency)
        cmd = [cli(), "devices", self.path, "--mode", mode, "--transfer-rate", repr(rate), "--json"]
        for m in devices:
            cmd += ["--device", str(m)]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        partitioner = Partitioner()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                partitioner.partition_graph(self.gm, self.gm, config)
        except RuntimeError as refused:   # then we refuse too, in PyTorch's words
            self.assertEqual((run.returncode, run.stderr), (1, f"remat-explorer: {refused}\n"))
            return None
        self.assertEqual(run.returncode, 0, run.stderr)
        order = {n: i for i, n in enumerate(self.gm.graph.nodes)}
        mapping = get_partition_to_latency_mapping(partitioner.partitions, self.latency)
        ours = json.loads(run.stdout, parse_constant=lambda c: self.fail(f"non-standard JSON {c}"))
        self.assertEqual(len(ours["partitions"]), len(partitioner.partitions))
        for mine, theirs in zip(ours["partitions"], partitioner.partitions):
            self.assertEqual(mine["id"], theirs.partition_id)
            self.assertEqual(mine["nodes"], [n.name for n in sorted(theirs.nodes, key=order.get)])
            self.assertEqual(mine["logical_device_ids"], theirs.logical_device_ids)
            self.assertEqual(mine["used_mem_bytes"], theirs.used_mem_bytes)
            want = mapping[theirs]
            self.assertAlmostEqual(mine["latency"]["mem_latency_sec"], want.mem_latency_sec, places=15)
            self.assertAlmostEqual(mine["latency"]["computer_latency_sec"], want.computer_latency_sec, places=15)
            self.assertAlmostEqual(mine["latency"]["overall_latency_sec"], want.overall_latency_sec, places=15)
        critical = get_latency_of_partitioned_graph(partitioner.partitions, mapping, rate)
        self.assertAlmostEqual(ours["critical_path_latency_sec"], critical, places=15)
        return ours

    def test_size_based_matches_pytorch(self):
        ours = self.check_against_pytorch("size_based", [self.device] * 3, 10e9)
        self.assertGreater(len(ours["partitions"]), 1)

    def test_cost_aware_matches_pytorch(self):
        self.check_against_pytorch("cost_aware", [self.device] * 3, 10e9)

    def test_sparse_nn_matches_pytorch(self):
        # The embedding partition and all dense ones must share a device: PyTorch refuses here.
        self.assertIsNone(self.check_against_pytorch("sparse_nn", [self.device] * 3, 10e9))

    def test_kl_based_matches_pytorch(self):
        self.check_against_pytorch("kl_based", [self.device] * 3, 10e9)


if __name__ == "__main__":
    unittest.main(verbosity=2)
