# SPDX-License-Identifier: MIT
"""A Remat Explorer plan as a selective-checkpointing policy (torch.utils.checkpoint context_fn,
torch 2.x): sac_policy_table(plan, graph) -> per-region decisions, selective_checkpoint_context_fn
(table) -> context_fn, write_sac_policy(...) -> a standalone policy file.  Command line:
apply_plan.py --graph GRAPH.json --plan PLAN.json --sac-policy OUT.py (see samples/README.md).
"""
import inspect
import json
import os

import torch

from apply_plan import PlanError


class NotExpressible(PlanError):
    """The plan makes decisions that a selective-checkpointing policy cannot make."""


def sac_policy_table(plan, doc):
    """The plan's per-node decisions as per-region op sequences a SAC policy can replay.

    doc: the joint graph (dict) the plan was made on; its forward nodes carry ac_graph_id where
    torch.utils.checkpoint regions ran.  Returns (table, notes): table[i] (i-th region in forward
    order) is the region's op calls in order, [op name, "MUST_SAVE" | "MUST_RECOMPUTE"]; one call
    is a node plus its getitems (a tuple op's outputs are saved or recomputed together).  notes:
    where the policy only approximates the plan.  Raises NotExpressible when a policy cannot
    follow the plan: a policy only acts inside checkpoint regions, so the plan must not recompute
    anything outside them (and the graph must have regions).
    """
    nodes = doc["nodes"]
    saved = set(plan["saved_values"])
    bw_calls = set(plan.get("bw_nodes", []))
    fw = set(plan.get("fw_nodes", []))
    by_name = {n["name"]: n for n in nodes}
    region_of = {n["name"]: n["meta"].get("ac_graph_id") for n in nodes}
    recomputed = [n["name"] for n in nodes if n["op"] == "call_function" and n["name"] in fw and n["name"] in bw_calls
                  and n["name"] not in saved]
    # A view recomputed outside the regions costs no memory either way (it shares its base's
    # storage), and eager autograd keeps such views as it needs them: no decision to express.
    outside = [r for r in recomputed if region_of.get(r) is None and not _is_view(by_name[r]["target"])]
    if not any(v is not None for v in region_of.values()):
        raise NotExpressible("the graph has no activation-checkpoint regions (no node has meta ac_graph_id): "
                             "a selective-checkpointing policy decides only inside torch.utils.checkpoint regions")
    if outside:
        raise NotExpressible(f"the plan recomputes {len(outside)} forward nodes outside any checkpoint region "
                             f"({outside[:8]}{' ...' if len(outside) > 8 else ''}): a selective-checkpointing "
                             "policy cannot recompute there; wrap them in torch.utils.checkpoint first")
    table, notes, calls = {}, [], {}
    for n in nodes:
        region = region_of[n["name"]]
        if n["op"] != "call_function" or region is None:
            continue
        source = n["args"][0].get("node") if n["target"] == "_operator.getitem" and n["args"] \
            and isinstance(n["args"][0], dict) else None
        if source is not None and region_of.get(source) == region and source in calls:
            calls[source].append(n["name"])       # a tuple op's output: same call as the op
            continue
        calls[n["name"]] = [n["name"]]
        table.setdefault(region, []).append(n["name"])
    out = []
    for region in sorted(table):
        entries = []
        for head in table[region]:
            members = calls[head]
            kept = [m for m in members if m in saved]
            tensors = [m for m in members if isinstance(by_name[m]["val"], dict)]
            if kept and len(members) > 1 and set(kept) != set(tensors):
                notes.append(f"{head}: the plan saves {kept} of its outputs; the policy saves all of {tensors}")
            entries.append([by_name[head]["target"], "MUST_SAVE" if kept else "MUST_RECOMPUTE"])
        out.append(entries)
    saved_outside = sorted(v for v in saved
                           if region_of.get(v) is None and by_name.get(v, {}).get("op") == "call_function")
    if saved_outside:
        notes.append(f"{len(saved_outside)} saved values lie outside checkpoint regions: there eager autograd keeps "
                     "what each op's backward needs, not necessarily these")
    return out, notes


def _is_view(target):
    """True for an aten op whose first result aliases an input without writing it (t, view, ...)."""
    namespace, _, rest = target.partition(".")
    packet, _, overload = rest.partition(".")
    try:
        op = getattr(getattr(getattr(torch.ops, namespace), packet), overload or "default")
        returns = op._schema.returns
    except (AttributeError, RuntimeError):
        return False
    alias = returns[0].alias_info if returns else None
    return alias is not None and not alias.is_write


def selective_checkpoint_context_fn(table):
    """context_fn for torch.utils.checkpoint(..., use_reentrant=False, context_fn=...) that replays the
    table of sac_policy_table: its n-th call serves region n (modulo the number of regions), and the
    k-th call of an op in a region gets the k-th decision listed for that op there (counted apart
    in the forward and in the recomputation).  Pass it to every checkpoint call of the model, in
    the order they run.  An op the table does not list there gets PREFER_RECOMPUTE and is
    recorded in context_fn.unmatched."""
    import itertools
    from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts
    regions = [_per_op(entries) for entries in table]
    order = itertools.count()
    unmatched = []

    def context_fn():
        index = next(order) % len(regions)
        decisions, counters = regions[index], {False: {}, True: {}}

        def policy(ctx, op, *_args, **_kwargs):
            name = str(op)
            seen = counters[ctx.is_recompute]
            k = seen[name] = seen.get(name, -1) + 1
            listed = decisions.get(name, [])
            if k >= len(listed):
                unmatched.append((index, name, k))
                return CheckpointPolicy.PREFER_RECOMPUTE
            return getattr(CheckpointPolicy, listed[k])
        return create_selective_checkpoint_contexts(policy)
    context_fn.unmatched = unmatched
    return context_fn


def _per_op(entries):
    per_op = {}
    for op, decision in entries:
        per_op.setdefault(op, []).append(decision)
    return per_op


def write_sac_policy(table, notes, path, source=""):
    """A standalone Python file with the table and context_fn() (atomic write)."""
    lines = ['# Generated by apply_plan.py --sac-policy: a Remat Explorer plan as a selective-checkpointing',
             f'# policy ({source}).',
             '# Use: torch.utils.checkpoint.checkpoint(fn, *args, use_reentrant=False, context_fn=context_fn)',
             '# on every checkpoint region of the model, in the order they run (torch 2.x).']
    lines += [f'# note: {n}' for n in notes]
    regions = ["    [" + ",\n     ".join(json.dumps(e) for e in region) + "]," for region in table]
    lines += ["import torch  # noqa: F401", "", "TABLE = [", *regions, "]", "", ""]
    lines += [inspect.getsource(_per_op), '',
              inspect.getsource(selective_checkpoint_context_fn).replace("def selective_checkpoint_context_fn(table)",
                                                                         "def make_context_fn(table=TABLE)"),
              '', 'context_fn = make_context_fn()', '']
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines))
    os.replace(tmp, path)
