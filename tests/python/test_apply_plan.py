# SPDX-License-Identifier: MIT
"""apply_plan.compile_with_plan: replays PyTorch's own decisions exactly, and fails loudly on
plans that do not fit the graph.

Run: /usr/bin/python3 tests/python/test_apply_plan.py
"""
import os
import tempfile
import unittest

import torch

from common import apply_plan, ejg, replay, tiny, TinyCheckpointed
import sac_policy  # noqa: E402,I100  (samples/ is on sys.path once common is imported)

PlanError = apply_plan.PlanError


class ApplyPlan(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model, cls.inputs = tiny()
        cls.doc = ejg.export_joint_graph(cls.model, cls.inputs, os.path.join(cls.tmp.name, "tiny.json"))
        cls.vals = {n["name"]: n["val"] for n in cls.doc["nodes"]}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def plan(self, key="min_cut", **changes):
        source = self.doc["extra"] if key == "min_cut_inductor" else self.doc["reference"]
        plan = {k: list(v) if isinstance(v, list) else v for k, v in source[key].items()}
        plan.update(changes)
        return plan

    def fails(self, plan, pattern):
        compiled = apply_plan.compile_with_plan(self.model, plan)
        with self.assertRaisesRegex(PlanError, pattern):
            compiled(*self.inputs)

    def check_replay(self, plan):
        compiled, got, want = replay(self.model, self.inputs, plan)
        for g, w in zip(got, want):
            torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-5)
        report = compiled.plan_report
        self.assertEqual(report["saved_values"], plan["saved_values"])
        self.assertEqual(report["runtime_saved_shapes"], [self.vals[n]["shape"] for n in plan["saved_values"]])
        # counted from the compiled autograd function itself, not from our partition function
        self.assertEqual(report["autograd_saved_tensors"], [len(plan["saved_values"])])
        return report

    def test_replays_pytorch_min_cut(self):
        report = self.check_replay(self.plan("min_cut"))
        # Same split as PyTorch's own min-cut partitioner (which also runs DCE + CSE first).
        self.assertEqual(report["fw_nodes"], self.doc["reference"]["min_cut"]["fw_nodes"])
        self.assertEqual(report["bw_nodes"], self.doc["reference"]["min_cut"]["bw_nodes"])

    def test_replays_pytorch_default(self):
        self.check_replay(self.plan("default"))

    def test_replays_inductor_min_cut(self):
        self.check_replay(self.plan("min_cut_inductor"))

    def test_plan_from_file(self):
        path = os.path.join(self.tmp.name, "plan.json")
        ejg.write_document(self.plan("min_cut"), path)
        compiled = apply_plan.compile_with_plan(self.model, path)
        compiled(*self.inputs)
        self.assertEqual(compiled.plan_report["saved_values"], self.plan("min_cut")["saved_values"])

    def test_unknown_node(self):
        self.fails(self.plan(saved_values=["relu_999"] + self.plan()["saved_values"]),
                   r"not in the joint graph: \['relu_999'\]")

    def test_unfit_plan_missing_value(self):
        # Drop a saved primal the backward needs: nothing else can rebuild it.
        saved = self.plan()["saved_values"]
        primal = next(s for s in saved if s.startswith("primals"))
        self.fails(self.plan(saved_values=[s for s in saved if s != primal]),
                   f"does not fit(.|\\n)*{primal}")

    def test_unfit_plan_backward_value(self):
        self.fails(self.plan(saved_values=self.plan()["saved_values"] + ["tangents_1"]), "depend on tangents")

    def test_unused_saved_value(self):
        # A forward output that the backward does not need: PyTorch would drop it, so the
        # forward would not save exactly the plan.
        nfo = self.doc["num_fwd_outputs"]
        output = self.doc["nodes"][-1]["args"][0][:nfo][0]["node"]
        self.fails(self.plan(saved_values=self.plan()["saved_values"] + [output]), "not used by the backward")

    def test_not_a_plan(self):
        path = os.path.join(self.tmp.name, "bad.json")
        ejg.write_document({"nodes": []}, path)
        with self.assertRaisesRegex(PlanError, "not a plan"):
            apply_plan.compile_with_plan(self.model, path)

    def test_cse_merged_names_resolve(self):
        # x.t() twice: the joint graph has t and t_1; min-cut's CSE (and ours) keeps t.  A plan
        # naming the dropped twin saves the kept node instead, and says so.
        def fn(x, w):
            return torch.mm(x.t(), w).sin().sum() + torch.mm(x.t(), w).cos().sum()
        x, w = torch.randn(6, 4, requires_grad=True), torch.randn(6, 5, requires_grad=True)
        doc = ejg.export_joint_graph(fn, (x, w), os.path.join(self.tmp.name, "cse.json"))
        merged = doc["extra"]["min_cut_details"]["cse_merged"]
        self.assertEqual(merged.get("t_1"), "t")
        self.assertIn("t_1", doc["reference"]["default"]["saved_values"])
        plan = dict(doc["reference"]["default"])
        compiled = apply_plan.compile_with_plan(fn, plan)
        compiled(x, w).backward()
        report = compiled.plan_report
        self.assertEqual(report["renamed"].get("t_1"), "t")
        expected = []
        for name in plan["saved_values"]:
            name = report["renamed"].get(name, name)
            if name not in expected:
                expected.append(name)
        self.assertEqual(report["saved_values"], expected)

    def test_default_plan_gets_no_cse(self):
        # remat-explorer's default-partition plans (cut_value null) name nodes min-cut's CSE would
        # merge: replayed as default, t_1 is saved itself and the counts agree.
        def fn(x, w):
            return torch.mm(x.t(), w).sin().sum() + torch.mm(x.t(), w).cos().sum()
        x, w = torch.randn(6, 4, requires_grad=True), torch.randn(6, 5, requires_grad=True)
        doc = ejg.export_joint_graph(fn, (x, w), os.path.join(self.tmp.name, "cse2.json"))
        plan = dict(doc["reference"]["default"], cut_value=None)
        compiled = apply_plan.compile_with_plan(fn, plan)
        compiled(x, w).backward()
        report = compiled.plan_report
        self.assertEqual(report["partitioner"], "default")
        self.assertEqual(report["renamed"], {})
        self.assertEqual(report["saved_values"], plan["saved_values"])
        self.assertEqual(report["autograd_saved_tensors"], [len(plan["saved_values"])])

    def test_plan_partitioner(self):
        self.assertEqual(apply_plan.plan_partitioner({"saved_values": [], "cut_value": None}), "default")
        self.assertEqual(apply_plan.plan_partitioner({"saved_values": [], "cut_value": 7}), "min-cut")
        self.assertEqual(apply_plan.plan_partitioner({"saved_values": [], "cut_value": None, "budget": 0.5}), "min-cut")
        self.assertEqual(apply_plan.plan_partitioner({"saved_values": []}), "min-cut")
        self.assertEqual(apply_plan.plan_partitioner({"saved_values": [], "partitioner": "default"}), "default")
        with self.assertRaisesRegex(PlanError, "unknown partitioner"):
            apply_plan.plan_partitioner({"saved_values": [], "partitioner": "greedy"})


class SacPolicy(unittest.TestCase):
    """sac_policy_table on 1.13 exports with emulated region tags (the context_fn itself needs 2.x:
    tests/python/test_torch2_end_to_end.py runs it)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        model, inputs = tiny(TinyCheckpointed)
        cls.doc = ejg.export_joint_graph(model, inputs, os.path.join(cls.tmp.name, "ckpt.json"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_table_follows_the_plan(self):
        # 1.13's min-cut recomputes only inside the region here, so a policy can express the plan.
        plan = dict(self.doc["reference"]["min_cut"])
        region_names = {n["name"] for n in self.doc["nodes"] if "ac_graph_id" in n["meta"]}
        self.assertEqual([r for r in self.doc["extra"]["recomputed_in_bw"]["min_cut"] if r not in region_names], [])
        table, _notes = sac_policy.sac_policy_table(plan, self.doc)
        self.assertEqual(len(table), 1)
        region = [n for n in self.doc["nodes"] if n["meta"].get("ac_graph_id") == 1 and n["op"] == "call_function"
                  and n["target"] != "_operator.getitem"]
        self.assertEqual([op for op, _ in table[0]], [n["target"] for n in region])
        saved = set(plan["saved_values"])
        self.assertEqual([d == "MUST_SAVE" for _, d in table[0]], [n["name"] in saved for n in region])
        self.assertIn("MUST_SAVE", [d for _, d in table[0]])
        self.assertIn("MUST_RECOMPUTE", [d for _, d in table[0]])

    def test_no_regions(self):
        model, inputs = tiny()
        doc = ejg.export_joint_graph(model, inputs, os.path.join(self.tmp.name, "plain.json"))
        with self.assertRaisesRegex(sac_policy.NotExpressible, "no activation-checkpoint regions"):
            sac_policy.sac_policy_table(doc["reference"]["min_cut"], doc)

    def test_command_line_refuses_with_a_message(self):
        plan_path, out = os.path.join(self.tmp.name, "plan.json"), os.path.join(self.tmp.name, "policy.py")
        plan = dict(self.doc["reference"]["min_cut"])
        plan["bw_nodes"] = plan["bw_nodes"] + [n["name"] for n in self.doc["nodes"]
                                               if n["target"] == "aten.native_layer_norm.default"
                                               and "ac_graph_id" not in n["meta"]]
        ejg.write_document(plan, plan_path)
        graph = os.path.join(self.tmp.name, "ckpt.json")
        with self.assertRaisesRegex(SystemExit, "cannot be written as a selective-checkpointing policy"):
            apply_plan.main(["--graph", graph, "--plan", plan_path, "--sac-policy", out])
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main(verbosity=2)
