# SPDX-License-Identifier: MIT
"""apply_plan.compile_with_plan: replays PyTorch's own decisions exactly, and fails loudly on
plans that do not fit the graph.

Run: /usr/bin/python3 tests/python/test_apply_plan.py
"""
import os
import tempfile
import unittest

import torch

from common import apply_plan, ejg, replay, tiny

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


if __name__ == "__main__":
    unittest.main(verbosity=2)
