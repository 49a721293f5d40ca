# SPDX-License-Identifier: MIT
"""Exporter tests: round trip against the oracle (same model -> same file) and the tag emulation.

Run: /usr/bin/python3 tests/python/test_exporter.py   (needs torch; the oracle in ../shared)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch

from common import REPO, ejg, load, mlp3, shared_dir, tiny, TinyCheckpointed

aten = torch.ops.aten


class RoundTripAgainstOracle(unittest.TestCase):
    """Our export of the oracle's mlp3_relu model must equal the oracle file except for timings
    and the meta keys we add (partitioner_tag, nn_module_stack)."""

    @classmethod
    def setUpClass(cls):
        oracle = os.path.join(shared_dir(), "oracle", "mlp3_relu.json")
        if not os.path.exists(oracle):
            raise AssertionError(f"oracle not found at {oracle} (set REMAT_SHARED_DIR)")
        cls.oracle = load(oracle)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "mlp.json")
        model, inputs = mlp3()
        cls.doc = ejg.export_joint_graph(model, inputs, cls.path, name="mlp3_relu")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_file_is_compact_json(self):
        with open(self.path) as f:
            text = f.read()
        self.assertEqual(json.loads(text), self.doc)
        self.assertEqual(text, json.dumps(self.doc, separators=(",", ":"), allow_nan=False))

    def test_header(self):
        for key in ("format", "version", "num_fwd_outputs"):
            self.assertEqual(self.doc[key], self.oracle[key])
        self.assertEqual(self.doc["static_lifetime_input_indices"], [0, 1, 2, 3, 4, 5])
        self.assertEqual(self.doc["reference"]["torch_version"], self.oracle["reference"]["torch_version"])

    def test_nodes_equal_oracle(self):
        strip = lambda nodes: [{k: v for k, v in n.items() if k != "meta"} for n in nodes]  # noqa: E731
        self.assertEqual(strip(self.doc["nodes"]), strip(self.oracle["nodes"]))

    def test_meta_only_emulated_keys(self):
        for n in self.doc["nodes"]:
            self.assertLessEqual(set(n["meta"]), {"partitioner_tag", "nn_module_stack"}, n["name"])
            want = "is_backward" if n["name"].startswith("tangents") else None
            if want:
                self.assertEqual(n["meta"]["partitioner_tag"], want)
        addmm = next(n for n in self.doc["nodes"] if n["name"] == "addmm_1")
        self.assertEqual(addmm["meta"], {"partitioner_tag": "is_forward", "nn_module_stack": ["2"]})
        self.assertEqual(self.doc["extra"]["emulated_meta"], ["nn_module_stack", "partitioner_tag"])

    def test_reference_decisions_equal_oracle(self):
        for part in ("min_cut", "default"):
            for key in ("saved_values", "saved_sym_nodes", "fw_nodes", "bw_nodes"):
                self.assertEqual(self.doc["reference"][part][key], self.oracle["reference"][part][key], (part, key))
        for key in ("saved_values", "fw_nodes", "bw_nodes"):
            self.assertEqual(self.doc["extra"]["min_cut_inductor"][key], self.oracle["extra"]["min_cut_inductor"][key])

    def test_extra_equal_oracle(self):
        ours, theirs = self.doc["extra"], self.oracle["extra"]
        for key in ("cut_value", "flow_graph_nodes", "flow_graph_edges", "dce_removed", "cse_merged", "deterministic"):
            self.assertEqual(ours["min_cut_details"][key], theirs["min_cut_details"][key], key)
        self.assertEqual(ours["saved_bytes"], theirs["saved_bytes"])
        self.assertEqual(ours["recomputed_in_bw"], theirs["recomputed_in_bw"])
        self.assertEqual(len(ours["seconds_runs"]["min_cut"]), 3)


class Structure(unittest.TestCase):
    """Format invariants on a graph with tuple ops, CSE merges and AC tags."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        model, inputs = tiny(TinyCheckpointed)
        cls.doc = ejg.export_joint_graph(model, inputs, os.path.join(cls.tmp.name, "t.json"), name="tiny")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_node_order_and_references(self):
        nodes = self.doc["nodes"]
        seen, placeholders_done = set(), False
        for n in nodes:
            if n["op"] != "placeholder":
                placeholders_done = True
            else:
                self.assertFalse(placeholders_done, "placeholders come first")

            def refs(a):
                if isinstance(a, dict):
                    return [a["node"]] if "node" in a else [r for v in a.values() for r in refs(v)]
                return [r for v in a for r in refs(v)] if isinstance(a, list) else []
            for r in refs(n["args"]) + refs(n["kwargs"]):
                self.assertIn(r, seen, f"{n['name']} refers to a later node {r}")
            seen.add(n["name"])
        self.assertEqual(nodes[-1]["op"], "output")

    def test_tuple_ops_have_lists(self):
        ln = [n for n in self.doc["nodes"] if n["target"] == "aten.native_layer_norm.default"]
        self.assertTrue(ln)
        for n in ln:
            self.assertIsInstance(n["val"], list)
            self.assertEqual(len(n["val"]), 3)

    def test_ac_tags(self):
        tagged = [n for n in self.doc["nodes"] if "recompute" in n["meta"]]
        self.assertTrue(tagged)
        for n in tagged:
            self.assertEqual(n["meta"]["recompute"], "PREFER_RECOMPUTE")
            self.assertEqual(n["meta"]["ac_graph_id"], 1)
            self.assertEqual(n["meta"]["partitioner_tag"], "is_forward")
        self.assertIn("aten.bmm.default", {n["target"] for n in tagged})
        self.assertNotIn("aten.native_layer_norm.default", {n["target"] for n in tagged}, "ln1 is outside the region")

    def test_cse_merges_explain_removed_nodes(self):
        details = self.doc["extra"]["min_cut_details"]
        names = {n["name"] for n in self.doc["nodes"]}
        for dropped, kept in details["cse_merged"].items():
            self.assertIn(dropped, names)
            self.assertIn(kept, names)
        self.assertTrue(details["deterministic"])


class TagEmulation(unittest.TestCase):
    def export(self, fn, *inputs):
        with tempfile.TemporaryDirectory() as d:
            return ejg.export_joint_graph(fn, inputs, os.path.join(d, "g.json"), reference=False)

    def test_regions_policies_and_backward(self):
        def fn(x, y):
            a = ejg.checkpoint(lambda t: torch.sigmoid(t @ y), torch.sin(x))
            return ejg.checkpoint(lambda t: torch.cos(t @ y), a, policy=[aten.mm.default])
        x, y = torch.randn(4, 4, requires_grad=True), torch.randn(4, 4, requires_grad=True)
        doc = self.export(fn, x, y)
        by_name = {n["name"]: n["meta"] for n in doc["nodes"]}
        self.assertNotIn("recompute", by_name["sin"])
        self.assertEqual((by_name["mm"]["recompute"], by_name["mm"]["ac_graph_id"]), ("PREFER_RECOMPUTE", 1))
        self.assertEqual((by_name["mm_1"]["recompute"], by_name["mm_1"]["ac_graph_id"]), ("MUST_SAVE", 2))
        self.assertEqual((by_name["cos"]["recompute"], by_name["cos"]["ac_graph_id"]), ("PREFER_RECOMPUTE", 2))
        for n in doc["nodes"]:
            if n["meta"].get("partitioner_tag") == "is_backward":
                self.assertNotIn("recompute", n["meta"], n["name"])
        self.assertNotIn("reference", doc)

    def test_region_outside_export_is_plain(self):
        with ejg.remat_region():
            y = torch.sin(torch.ones(2))
        self.assertTrue(torch.allclose(y, torch.sin(torch.ones(2))))

    def test_bad_policy_answer(self):
        fn = lambda x: ejg.checkpoint(torch.sin, x, policy=lambda op: "SOMETIMES")  # noqa: E731
        with self.assertRaisesRegex(ValueError, "SOMETIMES"):
            self.export(fn, torch.randn(3, requires_grad=True))


class InputNames(unittest.TestCase):
    """extra.input_names: each primal's name in the model, in aot_module's order (parameters, buffers,
    then the flattened inputs, a tensor used twice once), and none at all when they cannot be matched."""

    class Shared(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bn, self.lin = torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 4)
            self.again = self.lin   # the same parameters under a second name

        def forward(self, x, pair):
            return self.again(self.bn(self.lin(x))) + pair[0] * pair[1]

    def export(self, model, *inputs):
        with tempfile.TemporaryDirectory() as d:
            return ejg.export_joint_graph(model, inputs, os.path.join(d, "g.json"), reference=False)

    def test_parameters_buffers_then_inputs(self):
        x = torch.randn(8, 4)
        doc = self.export(self.Shared(), x, (torch.randn(4), x))
        self.assertEqual(list(doc["extra"]["input_names"].items()), [
            ("primals_1", "bn.weight"), ("primals_2", "bn.bias"), ("primals_3", "lin.weight"),
            ("primals_4", "lin.bias"), ("primals_5", "bn.running_mean"), ("primals_6", "bn.running_var"),
            ("primals_7", "bn.num_batches_tracked"), ("primals_8", "x"), ("primals_9", "pair[0]")])
        shapes = {n["name"]: n["val"]["shape"] for n in doc["nodes"] if n["op"] == "placeholder"}
        self.assertEqual(shapes["primals_3"], [4, 4])
        self.assertEqual(shapes["primals_9"], [4])

    def test_function_arguments(self):
        def step(a, *rest):
            return (a * rest[0]).sin().sum()
        doc = self.export(step, torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True))
        self.assertEqual(doc["extra"]["input_names"], {"primals_1": "a", "primals_2": "rest[0]"})

    def test_shapes_that_disagree_give_no_names(self):
        import joint_input_names
        model, x = self.Shared(), torch.randn(8, 4)
        cap = ejg.capture_joint_graph(model, (x, (torch.randn(4), x)))
        self.assertIsNotNone(joint_input_names.names_by_position(model, (x, (torch.randn(4), x)), cap["joint"], cap["values"]))
        other = (torch.randn(8, 4), (torch.randn(5), torch.randn(8, 4)))   # one more input, another shape
        self.assertIsNone(joint_input_names.names_by_position(model, other, cap["joint"], cap["values"]))
        self.assertIsNone(joint_input_names.names_by_position(torch.nn.Linear(4, 4), (x,), cap["joint"], cap["values"]))


class CommandLine(unittest.TestCase):
    def test_export_from_a_file(self):
        with tempfile.TemporaryDirectory() as d:
            model_file = os.path.join(d, "mymodel.py")
            with open(model_file, "w") as f:
                f.write("import torch\nfrom export_joint_graph import checkpoint\n"
                        "class M(torch.nn.Module):\n"
                        "    def __init__(self):\n        super().__init__(); self.l = torch.nn.Linear(8, 8)\n"
                        "    def forward(self, x):\n        return checkpoint(self.l, x).relu()\n"
                        "def make():\n    return M()\n")
            out = os.path.join(d, "m.json")
            run = subprocess.run([sys.executable, os.path.join(REPO, "samples", "export_joint_graph.py"),
                                  "--model", f"{model_file}:make", "--input", "4x8", "-o", out],
                                 capture_output=True, text=True, timeout=300)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("nodes", run.stdout)
            doc = load(out)
            self.assertEqual(doc["source"]["model"], "make")
            self.assertTrue(any(n["meta"].get("recompute") for n in doc["nodes"]),
                            "tags from a model file importing export_joint_graph")


if __name__ == "__main__":
    unittest.main(verbosity=2)
