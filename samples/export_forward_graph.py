#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Export a model's forward graph (torch.fx.symbolic_trace + ShapeProp) in joint-graph format v1
with "kind": "forward", for the accelerator partitioner (remat-explorer devices).

    from export_forward_graph import export_forward_graph
    export_forward_graph(model, (x,), "model.fwd.json")

or from the command line (same model options as export_joint_graph.py):

    /usr/bin/python3 samples/export_forward_graph.py --model mymodels.py:make_mlp --input 32x784 -o mlp.fwd.json

Works with torch 1.13 and 2.x.  A call_module node's parameters go to the "modules" table (with
the repr of every module on its path, which the sparse_nn mode reads to find embeddings).
"""
import argparse
import json
import os
import sys

import torch
import torch.fx as fx
from torch.fx.passes.shape_prop import ShapeProp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_joint_graph import _dtype_name, _encode, build_from_recipe, target_name, write_document  # noqa: E402


def _tensor_meta_dict(tm):
    return {"shape": list(tm.shape), "dtype": _dtype_name(tm.dtype), "stride": list(tm.stride), "device": "cpu"}


def _node_val(node):
    """A TensorMeta dict when ShapeProp found one tensor; a list for tuples; null otherwise."""
    tm = node.meta.get("tensor_meta")
    if tm is None or node.op == "output":
        return None
    if hasattr(tm, "shape"):
        return _tensor_meta_dict(tm)
    if isinstance(tm, (list, tuple)):
        return [_tensor_meta_dict(x) if hasattr(x, "shape") else None for x in tm]
    return None


def _module_entry(module):
    cls = type(module)
    params = {name: {"shape": list(p.shape), "dtype": _dtype_name(p.dtype)} for name, p in module.named_parameters()}
    return {"type": f"{cls.__module__}.{cls.__qualname__}", "repr": repr(module), "parameters": params}


def modules_table(gm):
    """Every module on the path of a call_module target, keyed by its dotted path."""
    table = {}
    named = dict(gm.named_modules())
    for node in gm.graph.nodes:
        if node.op != "call_module":
            continue
        atoms = str(node.target).split(".")
        for i in range(1, len(atoms) + 1):
            path = ".".join(atoms[:i])
            if path not in table:
                table[path] = _module_entry(named[path])
    return table


def trace_forward(model, example_inputs):
    """symbolic_trace + shape propagation with the example inputs; returns the GraphModule."""
    inputs = tuple(example_inputs) if isinstance(example_inputs, (list, tuple)) else (example_inputs,)
    gm = fx.symbolic_trace(model)
    ShapeProp(gm).propagate(*inputs)
    return gm


def build_forward_document(gm, name, description="", node_latency=None, aot_partition=None):
    """node_latency: {node name: (mem_latency_sec, computer_latency_sec)}; aot_partition:
    ({node name: partition id}, {partition id: [logical device ids]})."""
    nodes = []
    for n in gm.graph.nodes:
        args = [list(torch.utils._pytree.tree_flatten(n.args)[0])] if n.op == "output" else n.args
        nodes.append({"name": n.name, "op": n.op, "target": target_name(n) if n.op != "call_module" else str(n.target),
                      "args": _encode(args), "kwargs": _encode(n.kwargs), "val": _node_val(n), "meta": {}})
    num_outputs = len(nodes[-1]["args"][0]) if nodes and nodes[-1]["op"] == "output" else 0
    doc = {"format": "joint-graph", "version": 1, "kind": "forward",
           "source": {"producer": f"torch {torch.__version__} fx.symbolic_trace", "model": name,
                      "description": description},
           "num_fwd_outputs": num_outputs, "nodes": nodes, "modules": modules_table(gm)}
    if node_latency:
        doc["node_latency"] = {k: {"mem_latency_sec": float(v[0]), "computer_latency_sec": float(v[1])}
                               for k, v in node_latency.items()}
    if aot_partition:
        node_to_partition, partition_to_devices = aot_partition
        doc["aot_partition"] = {"node_to_partition": dict(node_to_partition),
                                "partition_to_logical_devices": {str(k): list(v) for k, v in partition_to_devices.items()}}
    return doc


def export_forward_graph(model, example_inputs, path, name=None, description="", node_latency=None,
                         aot_partition=None):
    """Write the forward graph of model(*example_inputs) to path; returns the document (dict)."""
    if name is None:
        name = type(model).__name__
    gm = trace_forward(model, example_inputs)
    doc = build_forward_document(gm, name, description, node_latency, aot_partition)
    write_document(doc, path)
    return doc


def main(argv=None):
    ap = argparse.ArgumentParser(description="Export a model's forward graph (fx.symbolic_trace + ShapeProp) "
                                             "for `remat-explorer devices`.")
    ap.add_argument("--model", required=True, help="MODULE:FACTORY or FILE.py:FACTORY returning an nn.Module "
                                                   "(or a (module, example_inputs) pair)")
    ap.add_argument("--kwargs", default="{}", help="JSON object passed to FACTORY")
    ap.add_argument("--input", action="append", default=[], metavar="SHAPE[:DTYPE[:LO-HI]]",
                    help="a random example input, e.g. 32x784 or 4x64:int64:0-1000 (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", help="model name stored in source.model")
    ap.add_argument("-o", "--output", required=True, help="output .json path")
    args = ap.parse_args(argv)
    recipe = {"factory": args.model, "kwargs": json.loads(args.kwargs), "seed": args.seed, "input": args.input}
    try:
        made, inputs = build_from_recipe(recipe)
    except ValueError:
        raise SystemExit("no example inputs: give --input, or return (model, inputs) from FACTORY")
    doc = export_forward_graph(made, inputs, args.output, name=args.name or args.model.rpartition(":")[2])
    print(f"{args.output}: {len(doc['nodes'])} nodes, {len(doc['modules'])} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
