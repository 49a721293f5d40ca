# SPDX-License-Identifier: MIT
"""Export the joint (forward+backward) graph of one training step in joint-graph format v1.

Run with an interpreter that can import torch (on Debian: /usr/bin/python3, NOT a pyenv/venv
python without torch).  See samples/README.md for the command line.

Public API:
  export_joint_graph(model_or_fn, example_inputs, path, name=None, ...) -> dict
  remat_region(policy=None)        context manager: emulates torch 2.x activation-checkpoint tags
  checkpoint(fn, *args, policy=None) function form of remat_region (real checkpoint on torch 2.x)

On torch 1.13 the graph comes from functorch's aot_function/aot_module with a partition_fn that
captures the joint module; PyTorch's own partitioners are then re-run on copies of it to record
their decisions under "reference".  On torch 2.x it comes from torch.compile with an aot_autograd
backend whose partition_fn keeps a copy and stops the compilation (see the _capture_2x section;
tested under 2.14 by tests/python/test_torch2_end_to_end.py and torch2_oracle_programs.py).
"""
import argparse
import contextlib
import copy
import importlib
import importlib.util
import inspect
import json
import math
import operator
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.fx as fx
import torch.utils._pytree as pytree

import joint_input_names

TORCH_VERSION = torch.__version__
IS_TORCH_1 = TORCH_VERSION.startswith("1.")

# Keys of node.meta that the format carries (torch 2.x names); everything else is dropped.
TAG_KEYS = ("recompute", "ac_graph_id", "partitioner_tag", "memory_budget", "nn_module_stack")
POLICIES = ("MUST_SAVE", "PREFER_SAVE", "MUST_RECOMPUTE", "PREFER_RECOMPUTE")
MEMORY_BUDGETS_2X = (0.0, 0.25, 0.5, 0.75)   # reference.memory_budget_<b> runs (torch 2.x only)


# ---------------------------------------------------------------------------------------------
# Tag emulation (torch 1.13).  torch 2.x tags checkpointed forward nodes with meta "recompute" and
# "ac_graph_id" (TagActivationCheckpoint + _CachingTorchDispatchMode) and every node with
# "partitioner_tag".  1.13 has none of this, so while the exporter traces we hook FX node creation
# and stamp the same keys ourselves.  aot_autograd traces twice (plain, then functionalized by
# replaying the first graph through an fx.Interpreter): nodes of the first trace get tags from
# the Python context that created them; nodes of the second inherit the tags of the first-trace
# node being replayed, exactly like torch 2.x's "every FX node created while executing that op".
# ---------------------------------------------------------------------------------------------
_SAC_IGNORED = {"aten.detach.default", "prim.device.default"}   # torch 2.x SAC_IGNORED_OPS


class _TagState:
    """Mutable state of one export; only active between _tagging_hooks() enter and exit."""

    def __init__(self, module_paths=None):
        self.active = False
        self.phase = None            # None (not in the joint trace), "is_forward", "is_backward"
        self.regions = []            # stack of (ac_graph_id, policy)
        self.next_region_id = 1
        self.module_stack = []       # module paths, outermost first
        self.module_paths = module_paths or {}   # id(module) -> dotted path
        self.replay_meta = None      # tags of the first-trace node being replayed (2nd trace)
        self.values = {}             # fx.Node -> recorded output (TensorMeta dicts), 2nd trace


_STATE = _TagState()


def _policy_value(policy, target):
    """Map a SAC policy answer for one op to a CheckpointPolicy name (torch 2.x semantics)."""
    if policy is None or str(target) in _SAC_IGNORED:
        return "PREFER_RECOMPUTE"
    if isinstance(policy, (list, tuple, set, frozenset)):
        packet = getattr(target, "overloadpacket", None)
        return "MUST_SAVE" if (target in policy or packet in policy) else "PREFER_RECOMPUTE"
    answer = policy(target)
    if isinstance(answer, bool):
        return "MUST_SAVE" if answer else "PREFER_RECOMPUTE"
    name = getattr(answer, "name", answer)     # accept CheckpointPolicy-like enums and strings
    if name not in POLICIES:
        raise ValueError(f"remat_region policy returned {answer!r}; expected bool or one of {POLICIES}")
    return name


def _tag_new_node(node):
    """Stamp tags on a node just created by FX tracing (see the section comment)."""
    st = _STATE
    if st.replay_meta is not None:
        if node.op == "call_function":
            node.meta.update(copy.deepcopy(st.replay_meta))
        return
    if st.phase is None or node.op != "call_function":
        return
    node.meta["partitioner_tag"] = st.phase
    if st.phase != "is_forward":
        return                       # only forward ops carry module stacks and AC tags
    if st.module_stack:
        node.meta["nn_module_stack"] = list(st.module_stack)
    if st.regions:
        region_id, policy = st.regions[-1]
        node.meta["ac_graph_id"] = region_id
        source = node.args[0] if node.target is operator.getitem and node.args else None
        if isinstance(source, fx.Node) and "recompute" in source.meta:
            node.meta["recompute"] = source.meta["recompute"]   # getitems follow their tuple op
        else:
            node.meta["recompute"] = _policy_value(policy, node.target)


@contextlib.contextmanager
def remat_region(policy=None):
    """Mark the ops run inside as one activation-checkpoint region (torch 2.x tag emulation).

    The body runs plainly (no torch.utils.checkpoint).  While export_joint_graph traces on 1.13,
    every forward node created inside gets meta "ac_graph_id" (one id per region, increasing from
    1) and "recompute": PREFER_RECOMPUTE for plain AC (policy None); for selective AC, policy is a
    list of ops (MUST_SAVE for those, PREFER_RECOMPUTE otherwise; OpOverloads or packets) or a
    callable op -> bool (True = MUST_SAVE) or a policy name ("MUST_RECOMPUTE", ...).  Outside an
    export it does nothing.
    """
    st = _STATE
    if not (st.active and st.phase == "is_forward"):
        yield
        return
    st.regions.append((st.next_region_id, policy))
    st.next_region_id += 1
    try:
        yield
    finally:
        st.regions.pop()


def checkpoint(fn, *args, policy=None, **kwargs):
    """checkpoint-like wrapper: real non-reentrant checkpoint on torch 2.x, tag emulation on 1.13."""
    if IS_TORCH_1:
        with remat_region(policy):
            return fn(*args, **kwargs)
    from torch.utils.checkpoint import checkpoint as torch_checkpoint
    context_fn = None
    if policy is not None:
        from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts

        def policy_fn(_ctx, op, *_a, **_k):
            return getattr(CheckpointPolicy, _policy_value(policy, op))
        context_fn = lambda: create_selective_checkpoint_contexts(policy_fn)   # noqa: E731
    extra = {"context_fn": context_fn} if context_fn else {}
    return torch_checkpoint(fn, *args, use_reentrant=False, **extra, **kwargs)


@contextlib.contextmanager
def _tagging_hooks(module_paths):
    """Install the 1.13 tracing hooks for the duration of one export."""
    from functorch._src import aot_autograd as aa
    from torch.fx.experimental import proxy_tensor

    global _STATE
    saved_state, _STATE = _STATE, _TagState(module_paths)
    st = _STATE
    orig_create_node = fx.Graph.create_node
    orig_run_node = fx.Interpreter.run_node
    orig_make_joint = aa.create_joint_forward_backward
    orig_track = proxy_tensor.track_tensor_tree

    def create_node(self, *a, **k):
        node = orig_create_node(self, *a, **k)
        _tag_new_node(node)
        return node

    def run_node(self, n):
        prev = st.replay_meta
        st.replay_meta = {k: n.meta[k] for k in TAG_KEYS if k in n.meta}
        try:
            return orig_run_node(self, n)
        finally:
            st.replay_meta = prev

    def track_tensor_tree(inner_res, proxy_res, *, constant, tracer):
        # The real value of every traced op: gives 'val' for tuple ops and the device.
        if isinstance(proxy_res, fx.Proxy):
            st.values[proxy_res.node] = _value_meta(inner_res)
        elif isinstance(proxy_res, (list, tuple)):
            for v, p in zip(inner_res, proxy_res):
                if isinstance(p, fx.Proxy):
                    st.values[p.node] = _value_meta(v)
        return orig_track(inner_res, proxy_res, constant=constant, tracer=tracer)

    def make_joint(fn):
        joint = orig_make_joint(fn)

        def tagged_joint(primals, tangents):
            orig_grad = torch.autograd.grad

            def grad(*a, **k):
                st.phase = "is_backward"
                try:
                    return orig_grad(*a, **k)
                finally:
                    st.phase = "is_forward"
            st.phase, st.next_region_id = "is_forward", 1
            torch.autograd.grad = grad
            try:
                return joint(primals, tangents)
            finally:
                torch.autograd.grad = orig_grad
                st.phase = None
        return tagged_joint

    def pre_hook(module, _inputs):
        path = st.module_paths.get(id(module))
        if path:
            st.module_stack.append(path)

    def post_hook(module, _inputs, _outputs):
        path = st.module_paths.get(id(module))
        if path and st.module_stack and st.module_stack[-1] == path:
            st.module_stack.pop()

    handles = [torch.nn.modules.module.register_module_forward_pre_hook(pre_hook),
               torch.nn.modules.module.register_module_forward_hook(post_hook)]
    fx.Graph.create_node = create_node
    fx.Interpreter.run_node = run_node
    aa.create_joint_forward_backward = make_joint
    proxy_tensor.track_tensor_tree = track_tensor_tree
    st.active = True
    try:
        yield st
    finally:
        st.active = False
        fx.Graph.create_node = orig_create_node
        fx.Interpreter.run_node = orig_run_node
        aa.create_joint_forward_backward = orig_make_joint
        proxy_tensor.track_tensor_tree = orig_track
        for h in handles:
            h.remove()
        _STATE = saved_state


# ---------------------------------------------------------------------------------------------
# JSON encoding of nodes (format v1 conventions)
# ---------------------------------------------------------------------------------------------
def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _hint(d):
    """A size as an int: a symbolic size (torch.compile(dynamic=True)) by its example value."""
    node = getattr(d, "node", None)
    return int(node.hint) if node is not None and getattr(node, "hint", None) is not None else int(d)


def _value_meta(v):
    """TensorMeta dict for a tensor (symbolic sizes by their example values), a list for
    tuples/lists, {"sym": expr, "hint": example} for a SymInt/SymFloat/SymBool, None otherwise."""
    if isinstance(v, torch.Tensor):
        return {"shape": [_hint(d) for d in v.shape], "dtype": _dtype_name(v.dtype),
                "stride": [_hint(d) for d in v.stride()], "device": str(v.device)}
    if not IS_TORCH_1 and isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        hint = v.node.hint
        return {"sym": str(v.node.expr), "hint": hint if isinstance(hint, (bool, int, float)) else None}
    if isinstance(v, (list, tuple)):
        return [_value_meta(x) if isinstance(x, torch.Tensor) else None for x in v]
    return None


def _encode(a):
    """args/kwargs: node refs, nested lists, literals; anything else as {"repr": ...}."""
    if isinstance(a, fx.Node):
        return {"node": a.name}
    if isinstance(a, (list, tuple)):
        return [_encode(x) for x in a]
    if isinstance(a, dict):
        return {str(k): _encode(v) for k, v in a.items()}
    if isinstance(a, float) and not math.isfinite(a):
        return {"repr": repr(a)}
    if a is None or isinstance(a, (bool, int, float, str)):
        return a
    return {"repr": repr(a)}


def target_name(node):
    """'aten.mm.default' for OpOverloads, 'module.qualname' for Python callables."""
    t = node.target
    if node.op in ("placeholder", "get_attr", "output"):
        return str(t)
    if isinstance(t, torch._ops.OpOverload):
        return str(t)
    mod, qual = getattr(t, "__module__", None), getattr(t, "__qualname__", None)
    return f"{mod}.{qual}" if mod and qual else str(t)


def _meta_out(meta):
    """Keep the format's meta keys; stack_trace only when it is a real Python trace."""
    out = {}
    for k in TAG_KEYS:
        if k not in meta:
            continue
        v = meta[k]
        if k == "recompute" and v is not None:
            v = getattr(v, "name", v)
        if k == "nn_module_stack" and isinstance(v, dict):     # torch 2.x: {key: (path, type)}
            v = [p[0] if isinstance(p, tuple) else str(p) for p in v.values()]
        out[k] = v
    trace = meta.get("stack_trace")
    if isinstance(trace, str) and 'File "' in trace:
        lines = [ln for ln in trace.strip().splitlines() if ln.strip()]
        frames = [i for i, ln in enumerate(lines) if ln.strip().startswith('File "')]
        if frames:
            out["stack_trace"] = "\n".join(ln.strip() for ln in lines[frames[-1]:frames[-1] + 2])
    return out


def _node_val(node, values):
    """TensorMeta dict exactly when the node has tensor_meta (1.13); lists for tuple ops."""
    if node.op == "output":
        return None
    tm = node.meta.get("tensor_meta")
    rec = values.get(node.name)
    if tm is not None and hasattr(tm, "shape"):
        device = rec["device"] if isinstance(rec, dict) else "cpu"
        out = {"shape": [_hint(d) for d in tm.shape], "dtype": _dtype_name(tm.dtype),
               "stride": [_hint(d) for d in tm.stride], "device": device}
        if isinstance(rec, dict) and "free_symbols" in rec:
            out["free_symbols"] = rec["free_symbols"]
        return out
    if node.op == "call_function" and isinstance(rec, list):
        return rec
    if isinstance(rec, dict) and "sym" in rec:     # torch 2.x dynamic shapes: a symbolic value
        return rec
    return None


def encode_nodes(graph, values):
    nodes = []
    for n in graph.nodes:
        args = [pytree.tree_flatten(n.args)[0]] if n.op == "output" else n.args
        nodes.append({"name": n.name, "op": n.op, "target": target_name(n), "args": _encode(args),
                      "kwargs": _encode(n.kwargs), "val": _node_val(n, values), "meta": _meta_out(n.meta)})
    return nodes


# ---------------------------------------------------------------------------------------------
# Capture on torch 1.13: aot_function / aot_module with a partition_fn that keeps a copy
# ---------------------------------------------------------------------------------------------
class _Captured(Exception):
    """Raised from the capturing partition_fn: compilation is not needed after the capture."""


def _as_tuple(example_inputs):
    return tuple(example_inputs) if isinstance(example_inputs, (list, tuple)) else (example_inputs,)


def _static_indices(module, flat_inputs):
    """Positions among the primals of the parameters and buffers (aot_module order)."""
    states = [t for _, t in joint_input_names.module_states(module)]
    pos = joint_input_names.dedup_positions(states + list(flat_inputs))
    return sorted(set(pos[:len(states)]))


def _capture_113(model_or_fn, inputs, decompositions=None, fake_tensors=False):
    from functorch._src import config as aot_config
    from functorch.compile import aot_function, aot_module, nop
    is_module = isinstance(model_or_fn, torch.nn.Module)
    module_paths = {}
    if is_module:
        module_paths = {id(m): p for p, m in model_or_fn.named_modules(remove_duplicate=False) if p}
    box = {}

    def partition_fn(joint_module, joint_inputs):
        box["joint"] = copy.deepcopy(joint_module)
        box["joint_inputs"] = joint_inputs
        box["values"] = {n.name: st.values[n] for n in joint_module.graph.nodes if n in st.values}
        raise _Captured()

    wrap = aot_module if is_module else aot_function
    saved_fake, aot_config.use_fake_tensor = aot_config.use_fake_tensor, fake_tensors
    try:
        with _tagging_hooks(module_paths) as st:
            compiled = wrap(model_or_fn, fw_compiler=nop, partition_fn=partition_fn, decompositions=decompositions)
            try:
                compiled(*inputs)
            except _Captured:
                pass
    finally:
        aot_config.use_fake_tensor = saved_fake
    if "joint" not in box:
        raise RuntimeError("no joint graph was traced: does any input or parameter require grad?")
    joint = box["joint"]
    for n in joint.graph.nodes:     # placeholders are created outside the joint function
        if n.op == "placeholder":
            n.meta["partitioner_tag"] = "is_backward" if "tangents" in n.target else "is_forward"
    static = _static_indices(model_or_fn, pytree.tree_flatten(inputs)[0]) if is_module else None
    names = joint_input_names.names_by_position(model_or_fn, inputs, joint, box["values"])
    return {"joint": joint, "input_names": names, "joint_inputs": box["joint_inputs"], "values": box["values"],
            "num_fwd_outputs": joint._out_spec.children_specs[0].num_leaves,
            "static_lifetime_input_indices": static, "partition_kwargs": {},
            "producer": f"torch {TORCH_VERSION} {'aot_module' if is_module else 'aot_function'}"}


# ---------------------------------------------------------------------------------------------
# Capture on torch 2.x: torch.compile with an aot_autograd backend
# ---------------------------------------------------------------------------------------------
def _caused_by(exc, kind):
    """True when exc or an exception it was raised from (dynamo wraps backend errors) is a kind."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, kind):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _capture_2x(model_or_fn, inputs, decompositions=None, fake_tensors=True, dynamic=False):   # 2.x always traces fake
    from functorch.compile import nop
    from torch._dynamo.backends.common import aot_autograd
    from torch._guards import TracingContext
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    box = {}

    def partition_fn(joint_module, joint_inputs, **kwargs):
        # aot_autograd calls this with dynamo's FakeTensorMode active: a joint module holding a
        # real tensor constant (lifted masks, Swin's position index) cannot be copied under it.
        with unset_fake_temporarily():
            box["joint"] = copy.deepcopy(joint_module)
        box["joint_inputs"] = joint_inputs
        box["kwargs"] = dict(kwargs)
        # The partitioners need this context (its fake mode, and DCE treats random ops as pure
        # inside it): compute_reference re-enters it.
        box["tracing_context"] = TracingContext.try_get()
        raise _Captured()   # no partitioner here: default_partition raises on some SAC policies

    aot_backend = aot_autograd(fw_compiler=nop, bw_compiler=nop, partition_fn=partition_fn,
                               decompositions=decompositions)

    def backend(gm, example_inputs):
        box["dynamo_inputs"] = list(example_inputs)   # the model's own tensors: named by identity
        return aot_backend(gm, example_inputs)

    torch._dynamo.reset()
    compiled = torch.compile(model_or_fn, backend=backend, dynamic=dynamic, fullgraph=True)
    try:
        compiled(*inputs)
    except Exception as e:  # noqa: BLE001  (dynamo wraps _Captured in BackendCompilerFailed)
        if not _caused_by(e, _Captured):
            raise
    finally:
        torch._dynamo.reset()
    if "joint" not in box:
        raise RuntimeError("no joint graph was traced: does any input or parameter require grad?")
    joint, kwargs = box["joint"], box["kwargs"]
    values = {n.name: _value_meta(n.meta["val"]) for n in joint.graph.nodes
              if isinstance(n.meta.get("val"), (torch.Tensor, list, tuple) + _SYM_TYPES)}
    _add_symbols(joint.graph, values)
    names = joint_input_names.names_by_identity(model_or_fn, inputs, box.get("dynamo_inputs"), joint, values)
    return {"joint": joint, "input_names": names, "joint_inputs": box["joint_inputs"], "values": values,
            "num_fwd_outputs": kwargs["num_fwd_outputs"],
            "static_lifetime_input_indices": kwargs.get("static_lifetime_input_indices"),
            "partition_kwargs": kwargs, "tracing_context": box["tracing_context"],
            "producer": f"torch {TORCH_VERSION} torch.compile aot_autograd"}


def _add_symbols(graph, values):
    """Dynamic shapes: what 2.x's _extract_fwd_bwd_modules reads to bind the symbols the backward
    needs.  Every value with symbolic sizes gets "free_symbols" (its symbols, with and without the
    shape environment's replacements, sorted by name); a SymInt that binds a symbol (a placeholder
    whose expression is a plain symbol) gets "binds"."""
    from torch._functorch.partitioners import _free_symbols_without_replacements
    from torch.fx.experimental.symbolic_shapes import free_symbols, is_symbol_binding_fx_node

    def names(val):
        return sorted(s.name for s in _free_symbols_without_replacements(val) | free_symbols(val))

    for n in graph.nodes:
        val, rec = n.meta.get("val"), values.get(n.name)
        if isinstance(rec, dict):
            if names(val):
                rec["free_symbols"] = names(val)
            if isinstance(val, _SYM_TYPES):
                symbol = is_symbol_binding_fx_node(n)
                rec["binds"] = symbol.name if symbol is not None else None
        elif isinstance(rec, list):
            for v, r in zip(val, rec):
                if isinstance(r, dict) and names(v):
                    r["free_symbols"] = names(v)


# ---------------------------------------------------------------------------------------------
# PyTorch's own decisions ("reference")
# ---------------------------------------------------------------------------------------------
def _partitioners():
    if IS_TORCH_1:
        from functorch._src import partitioners as p
    else:
        from torch._functorch import partitioners as p
    return p


def _compile_utils():
    if IS_TORCH_1:
        from functorch._src import compile_utils as cu
    else:
        from torch._functorch import compile_utils as cu
    return cu


@contextlib.contextmanager
def partitioner_context(cap):
    """Where aot_autograd runs the partitioners on torch 2.x: inside the compile's TracingContext
    (min-cut's RNG functionalisation reads the fake mode from it, and DCE inside it drops dead
    random ops).  No-op on 1.13."""
    ctx = cap.get("tracing_context")
    if ctx is None:
        yield
        return
    from torch._guards import tracing
    with tracing(ctx):
        yield


def _run_partitioner(fn, cap, **extra):
    """One timed call on a private copy (the partitioners mutate their input)."""
    joint = copy.deepcopy(cap["joint"])
    with partitioner_context(cap):
        start = time.perf_counter()
        fw, bw = fn(joint, cap["joint_inputs"], **cap["partition_kwargs"], **extra)
        seconds = time.perf_counter() - start
    return fw, bw, seconds


_SYM_TYPES = tuple(getattr(torch, n) for n in ("SymInt", "SymFloat", "SymBool") if hasattr(torch, n))


def _is_sym(node):
    return not IS_TORCH_1 and isinstance(node.meta.get("val"), _SYM_TYPES)


def _rng_prims():
    if IS_TORCH_1:
        return None, None
    from torch._prims import rng_prims
    return rng_prims.run_and_save_rng_state, rng_prims.run_with_rng_state


def joint_names(module, joint_by_name):
    """{node of a partitioned module: its joint-graph name, or None for a node the joint graph lacks}.

    Names alone do not say it: 2.x's RNG functionalisation replaces a recomputed random op by
    run_and_save_rng_state (forward) / run_with_rng_state (backward) and adds RNG-state nodes that
    FX names getitem_<k>, which can be the name of an unrelated joint node.  A node keeps its name
    when the joint node of that name has the same op and target; a wrapper gets the name of the
    joint random op with the same target and (joint-named) arguments."""
    save_rng, with_rng = _rng_prims()
    by_key = {}
    for j in joint_by_name.values():
        if j.op == "call_function":
            by_key.setdefault((j.target, json.dumps(_encode([j.args, j.kwargs]))), j.name)
    env = {}

    def enc(a):
        if isinstance(a, fx.Node):
            return {"node": env.get(a, a.name)}
        if isinstance(a, (list, tuple)):
            return [enc(x) for x in a]
        if isinstance(a, dict):
            return {str(k): enc(v) for k, v in a.items()}
        return _encode(a)

    def random_op(target, args, kwargs):
        return by_key.get((target, json.dumps(enc([tuple(args), kwargs]))))

    for n in module.graph.nodes:
        j = joint_by_name.get(n.name)
        name = None
        # saved values are placeholders of the backward: a placeholder keeps any joint name;
        # getitems must also take the same item of the same value (RNG states are getitems too)
        if j is not None and (n.op == "placeholder" or (j.op == n.op and j.target == n.target and (
                n.target is not operator.getitem or enc(n.args) == _encode(j.args)))):
            name = n.name
        elif save_rng is not None and n.op == "call_function":
            src = n.args[0] if n.args else None
            if n.target is operator.getitem and isinstance(src, fx.Node) and src.target is save_rng \
                    and n.args[1] == 1:
                name = random_op(src.args[0], src.args[1:], src.kwargs)
            elif n.target is with_rng:
                name = random_op(n.args[1], n.args[2:], n.kwargs)
        env[n] = name
    return env


def _decision(fw, bw, num_fwd_outputs, order, joint_graph=None):
    """saved values (joint order), fw/bw node lists, from the partitioned modules.

    Nodes are named as in the joint graph; nodes that are not joint-graph values (2.x's RNG states
    and the run_and_save_rng_state tuples) are left out of the lists and counted in
    saved_rng_states."""
    if joint_graph is None:     # callers that only know the names: plain name matching
        fw_names = {n: n.name if n.name in order else None for n in fw.graph.nodes}
        bw_names = {n: n.name if n.name in order else None for n in bw.graph.nodes}
    else:
        joint_by_name = {n.name: n for n in joint_graph.nodes}
        fw_names, bw_names = joint_names(fw, joint_by_name), joint_names(bw, joint_by_name)
    outs = pytree.tree_flatten([n.args for n in fw.graph.nodes if n.op == "output"])[0]
    saved = [n for n in outs[num_fwd_outputs:] if isinstance(n, fx.Node)]
    save_rng = _rng_prims()[0]
    rng_states = [n for n in saved if fw_names[n] is None and n.target is operator.getitem
                  and getattr(n.args[0], "target", None) is save_rng and save_rng is not None]
    unknown = [n.name for n in saved if fw_names[n] is None and n not in rng_states]
    if unknown:
        raise RuntimeError(f"the forward graph saves {unknown}, which are not joint-graph values")
    saved = [n for n in saved if fw_names[n] is not None]
    by_order = lambda names: sorted(set(names), key=order.__getitem__)  # noqa: E731
    bw_nodes = [bw_names[n] for n in bw.graph.nodes if n.op != "output" and bw_names[n] is not None]
    if IS_TORCH_1:
        # 1.13's default_partition orders its saved values (the leading bw placeholders) by a
        # set(): put them in joint order, as min-cut does, so files are deterministic.
        names = {n.name for n in saved}
        slots = [i for i, b in enumerate(bw_nodes) if b in names]
        for i, b in zip(slots, sorted((bw_nodes[i] for i in slots), key=order.__getitem__)):
            bw_nodes[i] = b
    decision = {"saved_values": by_order(fw_names[n] for n in saved if not _is_sym(n)),
                "saved_sym_nodes": by_order(fw_names[n] for n in saved if _is_sym(n)),
                "fw_nodes": [fw_names[n] for n in fw.graph.nodes if n.op != "output" and fw_names[n] is not None],
                "bw_nodes": bw_nodes}
    if rng_states:
        decision["saved_rng_states"] = len(rng_states)
    return decision


def cse_merges(graph, extra_key=None):
    """{dropped: kept} for the CSE pass the min-cut partitioner runs (mirrors 1.13's fx_graph_cse;
    extra_key(node) is 2.x's extra_node_key: nodes with different keys are never merged)."""
    rand_ops = getattr(_compile_utils(), "rand_ops", [])
    get_target = _compile_utils().get_aten_target
    env, first, merged = {}, {}, {}
    for n in graph.nodes:
        if n.op in ("placeholder", "output", "get_attr") or get_target(n) in rand_ops:
            env[n] = n
            continue
        args = tuple(pytree.tree_flatten(n.args)[0]), pytree.tree_flatten(n.args)[1]
        kwargs = tuple(pytree.tree_flatten(n.kwargs)[0]), pytree.tree_flatten(n.kwargs)[1]
        sub = lambda xs: tuple(env.get(x, x) if isinstance(x, fx.Node) else x for x in xs)  # noqa: E731
        token = (n.target, sub(args[0]), str(args[1]), sub(kwargs[0]), str(kwargs[1]),
                 extra_key(n) if extra_key else None)
        try:
            kept = first.setdefault(token, n)
        except TypeError:        # unhashable constant: fx_graph_cse would not merge it either
            kept = n
        env[n] = env.get(kept, kept)
        if kept is not n:
            merged[n.name] = env[n].name
    return merged


def min_cut_cse(joint_module, num_fwd_outputs):
    """Apply the CSE that min_cut_rematerialization_partition runs after its DCE, with PyTorch's
    own fx_graph_cse; returns {dropped name: kept name}.  2.x keys every node by whether the
    backward depends on it (a forward-only value is never merged into one the backward needs);
    the names come from cse_merges() with the same key, for the nodes PyTorch really dropped."""
    graph = joint_module.graph
    before = [n.name for n in graph.nodes]
    key = None
    if "extra_node_key" in inspect.signature(_compile_utils().fx_graph_cse).parameters:
        outputs = pytree.tree_flatten([n.args for n in graph.nodes if n.op == "output"])[0]
        needed, stack = set(), [o for o in outputs[num_fwd_outputs:] if isinstance(o, fx.Node)]
        while stack:
            n = stack.pop()
            if n not in needed:
                needed.add(n)
                stack.extend(n.all_input_nodes)
        key = needed.__contains__
    merged = cse_merges(graph, key)
    joint_module.graph = _compile_utils().fx_graph_cse(graph, key) if key else _compile_utils().fx_graph_cse(graph)
    joint_module.recompile()
    after = {n.name for n in joint_module.graph.nodes}
    return {d: k for d, k in merged.items() if d in set(before) - after and k in after}


def _min_cut_details(cap, timed_saved):
    """An untimed min-cut run with networkx.minimum_cut wrapped to read the flow network."""
    import networkx
    rec = {}
    orig = networkx.minimum_cut

    def minimum_cut(flow_graph, s, t, *a, **k):
        start = time.perf_counter()
        result = orig(flow_graph, s, t, *a, **k)
        rec.update(maxflow_seconds=time.perf_counter() - start, cut_value=result[0],
                   flow_graph_nodes=flow_graph.number_of_nodes(),
                   flow_graph_edges=flow_graph.number_of_edges())
        return result

    networkx.minimum_cut = minimum_cut
    try:
        fw, bw, seconds = _run_partitioner(_partitioners().min_cut_rematerialization_partition, cap)
    finally:
        networkx.minimum_cut = orig
    before = copy.deepcopy(cap["joint"].graph)
    names = [n.name for n in before.nodes]
    before.eliminate_dead_code()
    after_dce = [n.name for n in before.nodes]
    merged = cse_merges(before)
    after_cse = {n.name for n in _compile_utils().fx_graph_cse(before).nodes}
    if set(after_dce) - after_cse != set(merged):
        raise AssertionError("cse_merges() does not explain what fx_graph_cse removed")
    order = {n: i for i, n in enumerate(names)}
    saved = _decision(fw, bw, cap["num_fwd_outputs"], order, cap["joint"].graph)["saved_values"]
    cut = rec.get("cut_value")
    if isinstance(cut, float) and cut.is_integer():
        cut = int(cut)
    return {"maxflow_seconds": rec.get("maxflow_seconds"), "cut_value": cut,
            "flow_graph_nodes": rec.get("flow_graph_nodes"), "flow_graph_edges": rec.get("flow_graph_edges"),
            "seconds_this_run": seconds, "dce_removed": [n for n in names if n not in set(after_dce)],
            "cse_merged": merged, "deterministic": saved == timed_saved}


def _saved_bytes(saved, values_by_name):
    total = 0
    for name in saved:
        v = values_by_name.get(name)
        if isinstance(v, dict):
            numel = math.prod(v["shape"])
            total += numel * torch.empty((), dtype=getattr(torch, v["dtype"])).element_size()
    return total


def _recomputed(decision, joint):
    fw = set(decision["fw_nodes"]) - set(decision["saved_values"])
    bw = set(decision["bw_nodes"])
    return [n.name for n in joint.graph.nodes if n.op == "call_function" and n.name in fw and n.name in bw]


def compute_reference(cap, nodes_json):
    """PyTorch's decisions on this graph.  A partitioner other than min-cut that raises (2.14's
    default_partition on PREFER_SAVE or MUST_CPU_OFFLOAD policies) is left out of "reference" and
    its error goes to extra.reference_errors."""
    p = _partitioners()
    joint_graph = cap["joint"].graph
    order = {n.name: i for i, n in enumerate(joint_graph.nodes)}
    nfo = cap["num_fwd_outputs"]
    reference, runs, errors = {"torch_version": TORCH_VERSION}, {}, {}

    def decide(key, fn, repeat=1, **extra_kwargs):
        try:
            results = [_run_partitioner(fn, cap, **extra_kwargs) for _ in range(repeat)]
        except Exception as e:  # noqa: BLE001
            if key == "min_cut":
                raise
            errors[key] = f"{type(e).__name__}: {e}"[:300]
            return None
        decisions = [_decision(fw, bw, nfo, order, joint_graph) for fw, bw, _ in results]
        if any(d["saved_values"] != decisions[0]["saved_values"] for d in decisions):
            raise RuntimeError(f"{key}: PyTorch's saved set differs between runs")
        runs[key] = [s for _, _, s in results]
        return dict(decisions[0], seconds=statistics.median(runs[key]))

    for key, fn in (("min_cut", p.min_cut_rematerialization_partition), ("default", p.default_partition)):
        decision = decide(key, fn, repeat=3)
        if decision is not None:
            reference[key] = decision
    extra = {"debian_package": _debian_package(), "partitioner_kwargs": {}, "seconds_runs": runs}
    if IS_TORCH_1:
        extra["min_cut_details"] = _min_cut_details(cap, reference["min_cut"]["saved_values"])
        inductor = decide("min_cut_inductor", p.min_cut_rematerialization_partition, compiler="inductor")
        runs.pop("min_cut_inductor", None)
        if inductor is not None:
            extra["min_cut_inductor"] = inductor
    else:
        from torch._functorch import config as fconfig
        for budget in MEMORY_BUDGETS_2X:
            key = f"memory_budget_{budget:g}"
            with fconfig.patch(activation_memory_budget=budget):
                decision = decide(key, p.min_cut_rematerialization_partition)
            runs.pop(key, None)
            if decision is not None:
                reference[key] = decision
    if errors:
        extra["reference_errors"] = errors
    vals = {n["name"]: n["val"] for n in nodes_json}
    decided = {k: v for k, v in list(reference.items()) + list(extra.items()) if isinstance(v, dict) and "saved_values" in v}
    extra["saved_bytes"] = {k: _saved_bytes(v["saved_values"], vals) for k, v in decided.items()}
    extra["recomputed_in_bw"] = {k: _recomputed(reference[k], cap["joint"]) for k in ("min_cut", "default")
                                 if k in reference}
    return reference, extra


def _debian_package():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "python3-torch"],
                             capture_output=True, text=True, timeout=10)
        return f"python3-torch {out.stdout.strip()}" if out.returncode == 0 and out.stdout else None
    except (OSError, subprocess.SubprocessError):
        return None


# ---------------------------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------------------------
def capture_joint_graph(model_or_fn, example_inputs, decompositions=None, fake_tensors=False, dynamic=False):
    """Trace one training step; returns the capture dict (joint GraphModule and its context).
    dynamic (torch 2.x only): torch.compile's dynamic= (True: symbolic sizes, SymInt nodes; None:
    only the dims marked with torch._dynamo.mark_dynamic)."""
    inputs = _as_tuple(example_inputs)
    if IS_TORCH_1:
        if dynamic:
            raise ValueError("dynamic shapes need torch 2.x")
        return _capture_113(model_or_fn, inputs, decompositions, fake_tensors)
    return _capture_2x(model_or_fn, inputs, decompositions, fake_tensors, dynamic)


def build_document(cap, name, description="", reference=True, recipe=None):
    nodes = encode_nodes(cap["joint"].graph, cap["values"])
    doc = {"format": "joint-graph", "version": 1,
           "source": {"producer": cap["producer"], "model": name, "description": description},
           "num_fwd_outputs": cap["num_fwd_outputs"]}
    if cap["static_lifetime_input_indices"] is not None:
        doc["static_lifetime_input_indices"] = list(cap["static_lifetime_input_indices"])
    if recipe is not None:
        doc["source"]["recipe"] = recipe   # how to rebuild model and inputs: see build_from_recipe
    if cap.get("tracing_context") is not None:
        # torch.compile partitions inside this context, where DCE drops dead random ops; the
        # reference decisions below are made inside it too (partitioner_context).
        doc["source"]["partitioned_inside_compile"] = True
    doc["nodes"] = nodes
    if reference:
        doc["reference"], doc["extra"] = compute_reference(cap, nodes)
    else:
        doc["extra"] = {}
    if cap.get("input_names"):
        doc["extra"]["input_names"] = cap["input_names"]   # {"primals_1": "fc1.weight", ...}
    if IS_TORCH_1:
        present = sorted({k for n in nodes for k in n["meta"] if k in TAG_KEYS})
        doc["extra"]["emulated_meta"] = present   # these keys come from our 1.13 emulation
    return doc


def write_document(doc, path):
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
    os.replace(tmp, path)


def export_joint_graph(model_or_fn, example_inputs, path, name=None, description="", reference=True,
                       copy_module=True, decompositions=None, fake_tensors=False, recipe=None, dynamic=False):
    """Write the joint graph of one training step of model_or_fn(*example_inputs) to path.

    model_or_fn: an nn.Module (parameters and buffers become the first primals, their positions go
    to "static_lifetime_input_indices") or a function of tensors (inputs that need gradients must
    have requires_grad=True).  The output must be a tensor or a (nested) tuple/list of tensors.
    Tracing runs the model with real tensors (three times on 1.13); with copy_module the module is
    deep-copied first so its buffers (BatchNorm statistics) are not touched.
    decompositions: optional {OpOverload: fn} table applied while tracing (as aot_autograd's).
    fake_tensors: on 1.13, trace with FakeTensors (functorch config.use_fake_tensor) instead of real
    ones: no arithmetic, so big shapes are cheap; custom ops then need a Meta kernel.
    Returns the written document (dict).
    """
    if name is None:
        name = type(model_or_fn).__name__ if isinstance(model_or_fn, torch.nn.Module) else \
            getattr(model_or_fn, "__name__", "model")
    if copy_module and isinstance(model_or_fn, torch.nn.Module):
        model_or_fn = copy.deepcopy(model_or_fn)
    cap = capture_joint_graph(model_or_fn, example_inputs, decompositions, fake_tensors, dynamic)
    doc = build_document(cap, name, description, reference, recipe)
    write_document(doc, path)
    return doc


def build_from_recipe(recipe, base_dir=".", search_dirs=()):
    """(model_or_fn, example_inputs) rebuilt from a source.recipe of an exported file.

    recipe: {"factory": "FILE.py:FUNC" (relative to base_dir, the graph file's folder) or
    "pkg.mod:FUNC", "kwargs": {...}, "seed": int, and optionally "factory_file" (where FILE.py
    was when the graph was exported), "input": [SHAPE specs], "inputs": "MODULE:FUNC",
    "input_requires_grad": bool}; FUNC(**kwargs) returns a model or function, or a
    (model_or_fn, example_inputs) pair, as for the command line.

    A graph copied without its model file still rebuilds: FILE.py is looked for beside the graph,
    then where it was at export time, then by name in each of search_dirs (the tools folder holds
    make_samples.py, the bundled samples' factory).
    """
    factory = recipe["factory"]
    module, _, attr = factory.partition(":")
    if module.endswith(".py") and not os.path.isabs(module):
        factory = _find_factory_file(module, recipe.get("factory_file"), base_dir, search_dirs) + ":" + attr
    torch.manual_seed(int(recipe.get("seed", 0)))
    made = _load_attr(factory)(**recipe.get("kwargs", {}))
    inputs = None
    if isinstance(made, tuple) and len(made) == 2 and not isinstance(made[0], torch.Tensor):
        made, inputs = made
    if recipe.get("inputs"):
        inputs = _load_attr(recipe["inputs"])()
    if recipe.get("input"):
        inputs = tuple(_parse_tensor_spec(spec, bool(recipe.get("input_requires_grad"))) for spec in recipe["input"])
    if inputs is None:
        raise ValueError(f"the recipe {recipe!r} gives no example inputs")
    if isinstance(made, torch.nn.Module):
        made.train()
    return made, tuple(inputs)


def _find_factory_file(module, exported_at, base_dir, search_dirs):
    """The first of: MODULE beside the graph, where it was at export time, or a file of its name
    in one of search_dirs; FileNotFoundError naming every place tried."""
    candidates = [os.path.join(base_dir, module)]
    if exported_at:
        candidates.append(exported_at)
    candidates += [os.path.join(folder, os.path.basename(module)) for folder in search_dirs]
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError(f"the recipe's model file {module} is in none of: " + ", ".join(candidates)
                            + " (copy it beside the graph file)")


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------
def _load_attr(spec):
    """'pkg.mod:attr' or 'path/to/file.py:attr' -> the attribute."""
    mod_name, _, attr = spec.partition(":")
    if not attr:
        raise SystemExit(f"expected MODULE:ATTRIBUTE, got {spec!r}")
    if mod_name.endswith(".py"):
        spec_ = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(mod_name))[0], mod_name)
        module = importlib.util.module_from_spec(spec_)
        sys.path.insert(0, os.path.dirname(os.path.abspath(mod_name)))
        spec_.loader.exec_module(module)
    else:
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(mod_name)
    obj = module
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def _parse_tensor_spec(spec, requires_grad):
    """'32x784' or '32x784:float16' or '2x128:int64:0-2048' (integers drawn from [lo, hi))."""
    parts = spec.split(":")
    shape = [int(s) for s in parts[0].split("x") if s]
    dtype = getattr(torch, parts[1]) if len(parts) > 1 and parts[1] else torch.float32
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=dtype, requires_grad=requires_grad)
    lo, hi = (int(x) for x in parts[2].split("-")) if len(parts) > 2 else (0, 2)
    return torch.randint(lo, hi, shape, dtype=dtype)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Export the joint forward+backward graph of one training step (joint-graph format v1).",
        epilog="Example: /usr/bin/python3 samples/export_joint_graph.py --model mymodels.py:make_mlp "
               "--input 32x784 -o mlp.json")
    ap.add_argument("--model", "--module", dest="model", required=True,
                    help="MODULE:FACTORY or FILE.py:FACTORY; FACTORY(**kwargs) returns an nn.Module, a "
                         "function, or a (model_or_fn, example_inputs) pair")
    ap.add_argument("--kwargs", default="{}", help="JSON object passed to FACTORY")
    ap.add_argument("--inputs", help="MODULE:FUNC returning the example inputs (tuple)")
    ap.add_argument("--input", action="append", default=[], metavar="SHAPE[:DTYPE[:LO-HI]]",
                    help="a random example input, e.g. 32x784 or 4x64:int64:0-1000 (repeatable)")
    ap.add_argument("--input-requires-grad", action="store_true",
                    help="float --input tensors require grad (needed when exporting a function)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", help="model name stored in source.model")
    ap.add_argument("--description", default="")
    ap.add_argument("--no-reference", action="store_true", help="skip running PyTorch's partitioners")
    ap.add_argument("-o", "--output", required=True, help="output .json path")
    args = ap.parse_args(argv)

    torch.manual_seed(args.seed)
    made = _load_attr(args.model)(**json.loads(args.kwargs))
    inputs = None
    if isinstance(made, tuple) and len(made) == 2 and not isinstance(made[0], torch.Tensor):
        made, inputs = made
    if args.inputs:
        inputs = _load_attr(args.inputs)()
    if args.input:
        inputs = tuple(_parse_tensor_spec(s, args.input_requires_grad) for s in args.input)
    if inputs is None:
        raise SystemExit("no example inputs: give --input, --inputs, or return (model, inputs) from FACTORY")
    name = args.name or args.model.rpartition(":")[2]
    module, _, attr = args.model.partition(":")
    exported_at = None
    if module.endswith(".py"):  # relative to the graph file, so the two can move together
        exported_at = os.path.abspath(module)
        module = os.path.relpath(exported_at, os.path.dirname(os.path.abspath(args.output)))
    recipe = {"factory": f"{module}:{attr}", "kwargs": json.loads(args.kwargs), "seed": args.seed}
    if exported_at:  # and where it was, for a graph copied elsewhere alone
        recipe["factory_file"] = exported_at
    if args.inputs:
        recipe["inputs"] = args.inputs
    if args.input:
        recipe["input"] = args.input
        recipe["input_requires_grad"] = args.input_requires_grad
    start = time.perf_counter()
    doc = export_joint_graph(made, inputs, args.output, name=name, description=args.description,
                             reference=not args.no_reference, recipe=recipe)
    msg = f"{args.output}: {len(doc['nodes'])} nodes"
    if "reference" in doc:
        ref = doc["reference"]
        msg += f", min-cut saves {len(ref['min_cut']['saved_values'])}, default " + \
            (f"saves {len(ref['default']['saved_values'])}" if "default" in ref else
             f"raised ({doc['extra']['reference_errors']['default']})")
    print(f"{msg} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    # Model files do `from export_joint_graph import remat_region`: make that the running module,
    # not a second copy with its own (inactive) tagging state.
    sys.modules.setdefault("export_joint_graph", sys.modules["__main__"])
    sys.exit(main())
