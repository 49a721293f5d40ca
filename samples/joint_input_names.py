# SPDX-License-Identifier: MIT
"""What the model calls each input of a joint graph: "net.0.weight" for primals_1, "x" for the
example input. AOTAutograd numbers the inputs primals_1..K; the exporter writes these names to
extra.input_names so that the app can show them.

The names are matched, never guessed: by position on torch 1.13 (aot_module's order: parameters,
then buffers, then the flattened example inputs, repeated tensors once), by identity on torch 2.x
(the tensors Dynamo hands its backend), and both are checked against the shapes the graph
recorded. When anything does not match, no names are written.
"""
import inspect

import torch
from torch.utils import _pytree as pytree

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def argument_names(fn, inputs):
    """One name per flattened leaf of `inputs` (fn's positional arguments): the parameter's name
    in fn's signature ("x"), with the leaf's position when one argument holds several ("batch[1]")."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = []
    for i, value in enumerate(inputs):
        if i < len(params) and params[i].kind in _POSITIONAL:
            base = params[i].name
        elif params and params[-1].kind == inspect.Parameter.VAR_POSITIONAL:
            base = f"{params[-1].name}[{i - len(params) + 1}]"
        else:
            base = f"input{i}"
        leaves = pytree.tree_flatten(value)[0]
        names += [base] if len(leaves) == 1 else [f"{base}[{j}]" for j in range(len(leaves))]
    return names


def module_states(module):
    """(name, tensor) of the parameters then the buffers, as aot_module (and Dynamo) list them."""
    try:   # torch 1.13's named_parameters() always drops repeats; aot_module keeps them
        from functorch._src.named_members_polyfill import _named_buffers, _named_parameters
        params, buffers = _named_parameters(module, remove_duplicate=False), _named_buffers(module, remove_duplicate=False)
    except ImportError:
        params, buffers = module.named_parameters(remove_duplicate=False), module.named_buffers(remove_duplicate=False)
    return list(params) + list(buffers)


def _named_leaves(model_or_fn, inputs):
    is_module = isinstance(model_or_fn, torch.nn.Module)
    fn = model_or_fn.forward if is_module else model_or_fn
    leaves = pytree.tree_flatten(list(inputs))[0]
    states = module_states(model_or_fn) if is_module else []
    return states + list(zip(argument_names(fn, inputs), leaves))


def _primal_names(joint):
    return [n.name for n in joint.graph.nodes if n.op == "placeholder" and n.name.startswith("primals_")]


def _shapes_agree(named, values):
    """Each named tensor has the shape the graph recorded for its primal (symbolic sizes pass)."""
    for primal, tensor in named:
        meta = values.get(primal)
        if not isinstance(tensor, torch.Tensor):
            if isinstance(meta, dict):
                return False
            continue
        if not isinstance(meta, dict) or len(meta.get("shape", ())) != tensor.dim():
            return False
        if any(isinstance(a, int) and a != b for a, b in zip(meta["shape"], tensor.shape)):
            return False
    return True


def _checked(primals, tensors_and_names, values):
    if len(primals) != len(tensors_and_names):
        return None
    named = [(p, t) for p, (_, t) in zip(primals, tensors_and_names)]
    if not _shapes_agree(named, values):
        return None
    return {p: name for p, (name, _) in zip(primals, tensors_and_names)}


def dedup_positions(flat):
    """Position of each flat arg among the primals: AOT drops repeated args (`t in seen_args`)."""
    seen, pos = {}, []
    for x in flat:
        key = ("tensor", id(x)) if isinstance(x, torch.Tensor) else ("value", x)
        pos.append(seen.setdefault(key, len(seen)))
    return pos


def names_by_position(model_or_fn, inputs, joint, values):
    """torch 1.13 (aot_module / aot_function): {primal: name}, or None when they do not match."""
    named = _named_leaves(model_or_fn, inputs)
    unique = {}
    for pos, entry in zip(dedup_positions([x for _, x in named]), named):
        unique.setdefault(pos, entry)    # the first name of a repeated tensor
    return _checked(_primal_names(joint), list(unique.values()), values)


def names_by_identity(model_or_fn, inputs, dynamo_inputs, joint, values):
    """torch 2.x (torch.compile): the tensors Dynamo gave its backend, in order, looked up among the
    module's states and the example inputs. {primal: name}, or None when they do not match."""
    by_id = {}
    for name, x in _named_leaves(model_or_fn, inputs):
        if isinstance(x, torch.Tensor):
            by_id.setdefault(id(x), name)
    if not dynamo_inputs or any(isinstance(x, torch.Tensor) and id(x) not in by_id for x in dynamo_inputs):
        return None
    found = _checked(_primal_names(joint), [(by_id.get(id(x)), x) for x in dynamo_inputs], values)
    return None if found is None else {p: name for p, name in found.items() if name is not None}
