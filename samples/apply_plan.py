# SPDX-License-Identifier: MIT
"""Replay a Remat Explorer plan: compile a model so that its forward saves exactly the plan's values.

    from apply_plan import compile_with_plan
    step = compile_with_plan(model, "plan.json")
    loss = step(x); loss.backward()          # the joint graph is traced and split on the first call
    step.plan_report["saved_values"]          # what the compiled forward really saved

A plan is the JSON that `remat-explorer partition GRAPH.json -o PLAN.json` writes:
{"saved_values": [names], "saved_sym_nodes": [], "fw_nodes": [...], "bw_nodes": [...],
 "recomputed": [...], "banned": {...}, "saved_bytes": N, "cut_value": N, ...}.  Names are
joint-graph node names: export_joint_graph.py must have exported the same model with the same
input shapes and the same torch, so that FX assigns the same names.

The partition_fn applies dead-code elimination and, for min-cut plans only, the CSE min-cut runs
before cutting (PyTorch's fx_graph_cse, which keeps the first node's name), resolves the
saved names, checks that the plan fits, and splits the graph with PyTorch's own
_extract_fwd_bwd_modules (recomputation = every forward node the backward needs and can rebuild
from the saved values; on 2.x, recomputed random ops of checkpoint regions replay their RNG state
as min-cut makes them).  Mismatches raise PlanError on the first call.  --sac-policy writes a plan
as a selective-checkpointing context_fn (torch 2.x) where a policy can express it (sac_policy.py).

Run with an interpreter that can import torch (on Debian: /usr/bin/python3).
"""
import argparse
import copy
import inspect
import json
import os
import sys

import torch
import torch.fx as fx
import torch.utils._pytree as pytree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_joint_graph as ejg  # noqa: E402  (shared helpers: CSE mirror, loaders)


class PlanError(RuntimeError):
    """The plan does not fit the traced joint graph."""


def load_plan(plan_or_path):
    if isinstance(plan_or_path, dict):
        return plan_or_path
    with open(plan_or_path) as f:
        plan = json.load(f)
    if not isinstance(plan, dict) or "saved_values" not in plan:
        raise PlanError(f"{plan_or_path}: not a plan (no 'saved_values' key)")
    return plan


def _primals(graph):
    return [n for n in graph.nodes if n.op == "placeholder" and "tangents" not in n.target]


def _tangents(graph):
    return [n for n in graph.nodes if n.op == "placeholder" and "tangents" in n.target]


def _computable(graph, inputs):
    """Nodes _extract_graph_with_inputs_outputs can rebuild from `inputs` (same rule as PyTorch)."""
    ok = set(inputs)
    for n in graph.nodes:
        if n in ok or n.op in ("placeholder", "output"):
            continue
        if n.op == "get_attr" or all(a in ok for a in n.all_input_nodes):
            ok.add(n)
    return ok


def _missing_for(output, ok, fw_ok):
    """Why `output` cannot be rebuilt in the backward: the unsaved primals it needs, and the forward
    values that backward nodes consume directly (saving those would fix it)."""
    primals, frontier, seen, stack = set(), set(), set(), [output]
    while stack:
        n = stack.pop()
        if n in seen or n in ok:
            continue
        seen.add(n)
        if n.op == "placeholder":
            primals.add(n.name)
            continue
        for a in n.all_input_nodes:
            if a not in ok:
                if a in fw_ok and n not in fw_ok and a.op != "placeholder":
                    frontier.add(a.name)
                stack.append(a)
    return sorted(primals), sorted(frontier)


class PlanPartitioner:
    """partition_fn(joint_module, joint_inputs, **kwargs) that saves exactly plan["saved_values"]."""

    def __init__(self, plan, strict=True, partitioner=None):
        self.plan = plan
        self.strict = strict
        self.partitioner = partitioner or plan_partitioner(plan)
        self.report = {}     # filled in place on the first call (compiled.plan_report is this dict)

    def __call__(self, joint_module, _joint_inputs, **kwargs):
        num_fwd_outputs = kwargs.get("num_fwd_outputs")
        if num_fwd_outputs is None:                      # 1.13 passes no num_fwd_outputs
            num_fwd_outputs = joint_module._out_spec.children_specs[0].num_leaves
        before = {n.name for n in joint_module.graph.nodes}
        joint_module.graph.eliminate_dead_code()
        joint_module.recompile()
        # Only min-cut runs CSE before it cuts; a default-partition plan names unmerged nodes.
        merged = ejg.min_cut_cse(joint_module, num_fwd_outputs) if self.partitioner == "min-cut" else {}
        graph = joint_module.graph
        by_name = {n.name: n for n in graph.nodes}

        saved = self._resolve(by_name, merged, before)
        self._check_forward(graph, saved)
        self._check_backward(graph, saved, num_fwd_outputs)
        fw, bw = self._extract(joint_module, saved, num_fwd_outputs, kwargs)
        self._record(joint_module, fw, bw, saved, merged, num_fwd_outputs)
        return fw, bw

    def _resolve(self, by_name, merged, before):
        if self.plan.get("saved_sym_nodes") and ejg.IS_TORCH_1:
            raise PlanError("the plan saves sym nodes, but torch 1.13 graphs have static shapes")
        saved, unknown, dead = [], [], []
        self.renamed = {}     # plan names that CSE merged into an identical earlier node
        for name in self.plan["saved_values"]:
            node = by_name.get(name) or by_name.get(merged.get(name, ""))
            if node is None:
                (dead if name in before else unknown).append(name)
                continue
            if node.name != name:
                self.renamed[name] = node.name
            if node not in saved:
                saved.append(node)
        if unknown or dead:
            msg = []
            if unknown:
                msg.append(f"saved values not in the joint graph: {unknown} (the plan was made for another "
                           f"model, input shape or torch version; this graph has {len(by_name)} nodes)")
            if dead:
                msg.append(f"saved values removed by dead-code elimination: {dead}")
            raise PlanError("; ".join(msg))
        return saved

    def _check_forward(self, graph, saved):
        fw_ok = _computable(graph, _primals(graph))
        bad = [n.name for n in saved if n not in fw_ok]
        if bad:
            raise PlanError(f"saved values {bad} depend on tangents (backward values): the forward cannot save them")
        if ejg.IS_TORCH_1:
            tuples = [n.name for n in saved if "tensor_meta" not in n.meta]
            if tuples:
                raise PlanError(f"saved values {tuples} are tuples: save their getitem users instead")

    def _check_backward(self, graph, saved, num_fwd_outputs):
        outputs = pytree.tree_flatten([n.args for n in graph.nodes if n.op == "output"])[0]
        ok = _computable(graph, list(saved) + _tangents(graph))
        fw_ok = _computable(graph, _primals(graph))
        problems = []
        for primal, out in zip(_primals(graph), outputs[num_fwd_outputs:]):
            if isinstance(out, fx.Node) and out not in ok:
                primals, frontier = _missing_for(out, ok, fw_ok)
                more = f"; saving one of the forward values {frontier[:8]}{' ...' if len(frontier) > 8 else ''}" \
                    " would help" if frontier else ""
                problems.append(f"the gradient of {primal.name} ({out.name}) needs the unsaved primals {primals}{more}")
        if problems:
            raise PlanError("the plan does not fit: the backward needs values that are neither saved nor "
                            "recomputable from the saved values:\n  " + "\n  ".join(problems))

    def _extract(self, joint_module, saved, num_fwd_outputs, kwargs):
        p = ejg._partitioners()
        if ejg.IS_TORCH_1:
            fw, bw = p._extract_fwd_bwd_modules(joint_module, list(saved))
        else:
            names = set(self.plan.get("saved_sym_nodes", []))
            sym = [n for n in joint_module.graph.nodes if n.name in names]
            extra = {"num_fwd_outputs": num_fwd_outputs}
            if "static_lifetime_input_nodes" in inspect.signature(p._extract_fwd_bwd_modules).parameters:
                primals = _primals(joint_module.graph)
                extra["static_lifetime_input_nodes"] = {
                    primals[i] for i in (kwargs.get("static_lifetime_input_indices") or []) if i < len(primals)}
            fw, bw = p._extract_fwd_bwd_modules(joint_module, list(saved), sym, **extra)
        self._check_random(joint_module, fw, bw)
        if not ejg.IS_TORCH_1 and p.has_recomputable_rng_ops(joint_module):
            # As min-cut does: a random op of a checkpoint region that the backward recomputes
            # replays the forward's RNG state (PyTorch's own rewrite; saves one state per op).
            fw, bw = p.functionalize_rng_ops(joint_module, fw, bw, len(self.plan.get("saved_sym_nodes", [])))
        return fw, bw

    @staticmethod
    def _check_random(joint_module, fw, bw):
        """A random op recomputed in the backward outside a checkpoint region would draw new numbers."""
        fw_calls = {n.name for n in fw.graph.nodes if n.op == "call_function"}
        tagged = {n.name for n in joint_module.graph.nodes
                  if getattr(n.meta.get("recompute"), "name", n.meta.get("recompute"))
                  in ("MUST_RECOMPUTE", "PREFER_RECOMPUTE")}
        bad = [n.name for n in bw.graph.nodes if n.op == "call_function" and n.name in fw_calls
               and getattr(n.target, "_nondeterministic_seeded", False) and n.name not in tagged]
        if bad:
            raise PlanError(f"the plan recomputes the random ops {bad} in the backward, outside any checkpoint "
                            "region: PyTorch replays RNG state only for ops of a region, so the backward would "
                            "draw different numbers; save them (or their users) instead")

    def _record(self, joint_module, fw, bw, saved, merged, num_fwd_outputs):
        joint_by_name = {n.name: n for n in joint_module.graph.nodes}
        fw_names, bw_names = ejg.joint_names(fw, joint_by_name), ejg.joint_names(bw, joint_by_name)
        outs = pytree.tree_flatten([n.args for n in fw.graph.nodes if n.op == "output"])[0]
        saved_outs = [n for n in outs[num_fwd_outputs:] if isinstance(n, fx.Node)]
        actual = [fw_names[n] for n in saved_outs if fw_names[n] is not None]
        fw_nodes = [fw_names[n] for n in fw.graph.nodes if n.op != "output" and fw_names[n] is not None]
        bw_nodes = [bw_names[n] for n in bw.graph.nodes if n.op != "output" and bw_names[n] is not None]
        calls = {bw_names[n] for n in bw.graph.nodes if n.op == "call_function"}
        self.report.clear()
        self.report.update(saved_values=actual, fw_nodes=fw_nodes, bw_nodes=bw_nodes,
                           recomputed=[n for n in fw_nodes if n in calls and n not in actual],
                           saved_rng_states=len(saved_outs) - len(actual), partitioner=self.partitioner,
                           cse_merged=merged, renamed=dict(self.renamed), num_fwd_outputs=num_fwd_outputs)
        unused = [n.name for n in saved if n.name not in actual]
        if unused and self.strict:
            raise PlanError(f"saved values {unused} are not used by the backward (PyTorch would drop them): "
                            "the compiled forward would not save exactly the plan")


def plan_partitioner(plan):
    """"min-cut" or "default": which PyTorch partitioner the plan stands for (it decides whether
    min-cut's CSE applies).  remat-explorer's plans: a budget plan is min-cut's knapsack, a plan
    whose cut_value is null is default_partition's; plans without these keys (PyTorch's recorded
    decisions) count as min-cut unless they say "partitioner"."""
    named = plan.get("partitioner")
    if named is not None:
        named = str(named).replace("_", "-")
        if named not in ("min-cut", "default"):
            raise PlanError(f"unknown partitioner {plan['partitioner']!r} in the plan (expected min-cut or default)")
        return named
    if "cut_value" in plan and plan["cut_value"] is None and "budget" not in plan:
        return "default"
    return "min-cut"


def _compiled_backward_nodes(outputs):
    """The autograd nodes of aot_autograd's compiled function reachable from the outputs."""
    found, seen = [], set()
    stack = [t.grad_fn for t in pytree.tree_flatten(outputs)[0] if isinstance(t, torch.Tensor) and t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if "CompiledFunction" in type(node).__name__:
            found.append(node)
            continue
        stack.extend(f for f, _ in node.next_functions)
    return found


class PlannedStep:
    """What compile_with_plan returns: calls the compiled model, and after each call records in
    plan_report["autograd_saved_tensors"] how many tensors aot_autograd's compiled autograd
    function really holds for the backward (its ctx's saved tensors, one entry per compiled
    function reached from the outputs).  Other attributes come from the compiled model."""

    def __init__(self, compiled, report):
        self.compiled = compiled
        self.plan_report = report

    def __call__(self, *args, **kwargs):
        out = self.compiled(*args, **kwargs)
        nodes = _compiled_backward_nodes(out)
        self.plan_report["autograd_saved_tensors"] = [len(n.saved_tensors) for n in nodes]
        return out

    def __getattr__(self, name):
        compiled = self.__dict__.get("compiled")     # absent while copy/pickle rebuild the object
        if compiled is None:
            raise AttributeError(name)
        return getattr(compiled, name)


def compile_with_plan(model_or_fn, plan_path, strict=True, partitioner=None):
    """Compile model_or_fn (nn.Module or function) so that its forward saves the plan's values.

    torch 1.13: functorch aot_module / aot_function; torch 2.x: torch.compile + aot_autograd.
    partitioner: "min-cut" or "default", the PyTorch partitioner the plan stands for (None: from
    the plan, see plan_partitioner); min-cut's CSE is applied only for "min-cut".
    Tracing and validation happen on the first call; errors are PlanError.  After it,
    `.plan_report` holds the saved values, fw/bw node names and recomputed nodes, "renamed" (plan
    names that CSE merged into an identical earlier node, which is saved instead),
    "saved_rng_states" (RNG states 2.x saves for random ops recomputed in checkpoint regions), and
    after each call "runtime_saved_shapes" (what the forward handed to the backward) and
    "autograd_saved_tensors" (what the compiled autograd function holds; see PlannedStep).
    """
    from functorch.compile import make_boxed_func, nop
    partitioner = PlanPartitioner(load_plan(plan_path), strict, partitioner)
    report = partitioner.report

    def fw_compiler(fw_module, _inputs):
        # Runs the forward graph as is, and records the shapes of what it hands to
        # ctx.save_for_backward (its outputs beyond the forward outputs) at every call.
        def run(*args):
            outs = fw_module(*args)
            report["runtime_saved_shapes"] = [list(t.shape) if isinstance(t, torch.Tensor) else None
                                              for t in outs[report["num_fwd_outputs"]:]]
            return outs
        return make_boxed_func(run)

    if ejg.IS_TORCH_1:
        from functorch.compile import aot_function, aot_module
        wrap = aot_module if isinstance(model_or_fn, torch.nn.Module) else aot_function
        compiled = wrap(model_or_fn, fw_compiler=fw_compiler, bw_compiler=nop, partition_fn=partitioner)
    else:
        from torch._dynamo.backends.common import aot_autograd
        backend = aot_autograd(fw_compiler=fw_compiler, bw_compiler=nop, partition_fn=partitioner)
        torch._dynamo.reset()
        compiled = torch.compile(model_or_fn, backend=backend, dynamic=False, fullgraph=True)
    return PlannedStep(compiled, report)


def _loss(out):
    return sum(o.float().sum() for o in pytree.tree_flatten(out)[0] if isinstance(o, torch.Tensor))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Replay a plan on a model for one training step and compare the "
                                             "gradients with eager PyTorch; or write the plan as a "
                                             "selective-checkpointing policy (--sac-policy).")
    ap.add_argument("--model", help="MODULE:FACTORY or FILE.py:FACTORY (as export_joint_graph.py)")
    ap.add_argument("--kwargs", default="{}")
    ap.add_argument("--input", action="append", default=[], metavar="SHAPE[:DTYPE[:LO-HI]]")
    ap.add_argument("--input-requires-grad", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plan", required=True)
    ap.add_argument("--partitioner", choices=("min-cut", "default"),
                    help="the PyTorch partitioner the plan stands for (default: read from the plan)")
    ap.add_argument("--graph", help="the joint graph the plan was made on (for --sac-policy)")
    ap.add_argument("--sac-policy", metavar="OUT.py",
                    help="write the plan as a context_fn for torch.utils.checkpoint (needs --graph)")
    args = ap.parse_args(argv)
    if args.sac_policy:
        if not args.graph:
            raise SystemExit("--sac-policy needs --graph GRAPH.json (the graph the plan was made on)")
        with open(args.graph) as f:
            doc = json.load(f)
        from sac_policy import NotExpressible, sac_policy_table, write_sac_policy
        try:
            table, notes = sac_policy_table(load_plan(args.plan), doc)
        except NotExpressible as e:
            raise SystemExit(f"{args.plan}: cannot be written as a selective-checkpointing policy: {e}")
        write_sac_policy(table, notes, args.sac_policy, f"plan {args.plan}, graph {args.graph}")
        print(f"{args.sac_policy}: {len(table)} regions, {sum(len(t) for t in table)} op calls"
              + "".join(f"\n  note: {n}" for n in notes))
        if not args.model:
            return 0
    if not args.model:
        raise SystemExit("--model is required to replay the plan")
    torch.manual_seed(args.seed)
    model = ejg._load_attr(args.model)(**json.loads(args.kwargs))
    inputs = None
    if isinstance(model, tuple) and len(model) == 2 and not isinstance(model[0], torch.Tensor):
        model, inputs = model
    if args.input:
        inputs = tuple(ejg._parse_tensor_spec(s, args.input_requires_grad) for s in args.input)
    if inputs is None:
        raise SystemExit("no example inputs: give --input or return (model, inputs) from FACTORY")
    eager = copy.deepcopy(model) if isinstance(model, torch.nn.Module) else None
    compiled = compile_with_plan(model, args.plan, partitioner=args.partitioner)
    torch.manual_seed(args.seed + 1)          # same random numbers (dropout) in both runs
    _loss(compiled(*inputs)).backward()
    result = {k: compiled.plan_report[k] for k in ("saved_values", "recomputed", "renamed", "partitioner",
                                                   "saved_rng_states", "autograd_saved_tensors")}
    if eager is not None:
        torch.manual_seed(args.seed + 1)
        _loss(eager(*inputs)).backward()
        diffs = [(a.grad - b.grad).abs().max().item() for a, b in zip(model.parameters(), eager.parameters())
                 if a.grad is not None and b.grad is not None]
        result["max_grad_difference_vs_eager"] = max(diffs, default=0.0)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.modules.setdefault("apply_plan", sys.modules["__main__"])   # one PlanError for sac_policy.py
    sys.exit(main())
