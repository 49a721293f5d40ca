# SPDX-License-Identifier: MIT
"""End to end: export a real model, partition it with our command line, replay the plan in PyTorch.

    REMAT_EXPLORER=build/app/remat-explorer /usr/bin/python3 tests/python/test_end_to_end.py

CTest passes REMAT_EXPLORER (the built remat-explorer executable); without it every test here
FAILS, it does not skip.  For each plan: compile_with_plan must produce gradients equal to eager,
and the compiled forward must hand exactly the plan's values to ctx.save_for_backward.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import torch

from common import ejg, load, replay, tiny, TinyBlock, TinyCheckpointed


def cli():
    exe = os.environ.get("REMAT_EXPLORER", "")
    if not exe:
        raise AssertionError("REMAT_EXPLORER is not set: point it at the built remat-explorer executable")
    if not os.access(exe, os.X_OK):
        raise AssertionError(f"REMAT_EXPLORER={exe} is not an executable file")
    return exe


def partition(graph, tmpdir, *options):
    """`remat-explorer partition GRAPH [options] --json -o PLAN.json` -> the plan dict."""
    plan_path = os.path.join(tmpdir, "plan_" + "_".join(o.lstrip("-") for o in options) + ".json")
    cmd = [cli(), "partition", graph, *options, "--json", "-o", plan_path]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited with {run.returncode}:\n{run.stderr}{run.stdout}")
    if os.path.exists(plan_path):
        return load(plan_path)
    return json.loads(run.stdout)


class EndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.models = {}
        for key, model_cls in (("block", TinyBlock), ("checkpointed", TinyCheckpointed)):
            model, inputs = tiny(model_cls)
            path = os.path.join(cls.tmp.name, f"{key}.json")
            doc = ejg.export_joint_graph(model, inputs, path, name=key)
            cls.models[key] = (model, inputs, path, doc)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_plan(self, key, *options):
        model, inputs, path, doc = self.models[key]
        plan = partition(path, self.tmp.name, *options)
        for field in ("saved_values", "saved_sym_nodes", "fw_nodes", "bw_nodes"):
            self.assertIn(field, plan, f"plan from {options} lacks {field}")
        compiled, got, want = replay(model, inputs, plan)
        for g, w in zip(got, want):
            torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-5)
        report = compiled.plan_report
        expected = []
        for name in plan["saved_values"]:
            name = report["renamed"].get(name, name)
            if name not in expected:
                expected.append(name)
        self.assertEqual(report["saved_values"], expected, "the compiled forward saves exactly the plan")
        shapes = {n["name"]: n["val"]["shape"] for n in doc["nodes"] if isinstance(n["val"], dict)}
        self.assertEqual(report["runtime_saved_shapes"], [shapes[n] for n in expected])
        return plan, doc

    def test_min_cut_torch113_matches_pytorch_and_replays(self):
        plan, doc = self.run_plan("block", "--partitioner", "min-cut", "--rules", "torch-1.13", "--compiler", "nvfuser")
        self.assertEqual(plan["saved_values"], doc["reference"]["min_cut"]["saved_values"],
                         "torch-1.13 min-cut must save what PyTorch 1.13's min-cut saves")
        self.assertNotEqual(set(plan["saved_values"]), set(doc["reference"]["default"]["saved_values"]),
                            "this model's min-cut plan differs from PyTorch's default partition_fn")

    def test_inductor_list_replays_and_differs_from_default(self):
        plan, doc = self.run_plan("block", "--partitioner", "min-cut", "--rules", "torch-1.13", "--compiler", "inductor")
        self.assertEqual(plan["saved_values"], doc["extra"]["min_cut_inductor"]["saved_values"])
        self.assertNotEqual(set(plan["saved_values"]), set(doc["reference"]["default"]["saved_values"]))

    def test_default_partitioner_replays(self):
        plan, doc = self.run_plan("block", "--partitioner", "default", "--rules", "torch-1.13")
        self.assertEqual(set(plan["saved_values"]), set(doc["reference"]["default"]["saved_values"]))

    def test_newest_rules_with_ac_tags_replay(self):
        plan, doc = self.run_plan("checkpointed", "--partitioner", "min-cut", "--rules", "newest")
        tagged = {n["name"] for n in doc["nodes"] if n["meta"].get("recompute") == "PREFER_RECOMPUTE"}
        self.assertTrue(tagged)
        # min-cut sends must-recompute nodes to the sink: nothing inside the region is saved.
        self.assertFalse(tagged & set(plan["saved_values"]), sorted(tagged & set(plan["saved_values"])))



MODEL_FILE = """
import torch

def make():
    torch.manual_seed(1)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Dropout(0.1),
                               torch.nn.Linear(32, 4))
"""


class RunnerScript(unittest.TestCase):
    """The script `partition --script` writes runs a training step with the plan, unedited."""

    def test_exported_from_the_command_line(self):
        tools = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples")
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "models.py"), "w") as f:
                f.write(MODEL_FILE)
            graph = os.path.join(tmp, "graphs", "model.json")
            subprocess.run([sys.executable, os.path.join(tools, "export_joint_graph.py"), "--model",
                            os.path.join(tmp, "models.py") + ":make", "--input", "8x16", "-o", graph],
                           check=True, capture_output=True, text=True, timeout=300)
            recipe = load(graph)["source"]["recipe"]
            self.assertEqual(recipe["factory"], "../models.py:make")  # relative: graph and model move together
            plan, script = os.path.join(tmp, "plan.json"), os.path.join(tmp, "run_plan.py")
            run = subprocess.run([cli(), "partition", graph, "--partitioner", "default", "-o", plan, "--script",
                                  script, "--tools", tools], capture_output=True, text=True, timeout=300)
            self.assertEqual(run.returncode, 0, run.stderr)
            step = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=300)
            self.assertEqual(step.returncode, 0, step.stderr)
            self.assertIn("one training step with " + plan, step.stdout)
            self.assertEqual(recipe["factory_file"], os.path.join(tmp, "models.py"))

            # The graph copied alone to another folder: the model file is found where it was
            # exported (it was looked for beside the graph only, and the script failed).
            moved = os.path.join(tmp, "elsewhere", "deeper", "model.json")  # ../models.py is not there
            os.makedirs(os.path.dirname(moved))
            shutil.copy(graph, moved)
            self.assert_script_runs(moved, tools, tmp)

    def test_a_sample_copied_alone(self):
        """A bundled sample copied anywhere: its factory, make_samples.py, is among the tools."""
        tools = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples")
        with tempfile.TemporaryDirectory() as tmp:
            graph = os.path.join(tmp, "mlp.json")
            shutil.copy(os.path.join(tools, "mlp.json"), graph)
            self.assertFalse(os.path.exists(os.path.join(tmp, "make_samples.py")))
            self.assert_script_runs(graph, tools, tmp)

    def assert_script_runs(self, graph, tools, tmp):
        plan, script = os.path.join(tmp, "moved.plan.json"), os.path.join(tmp, "run_moved.py")
        run = subprocess.run([cli(), "partition", graph, "-o", plan, "--script", script, "--tools", tools],
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        step = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=300)
        self.assertEqual(step.returncode, 0, step.stderr)
        self.assertIn("one training step with " + plan, step.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
