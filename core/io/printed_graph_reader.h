// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include "io/symbolic_size.h"

#include <string>

namespace remat {

namespace printed {
struct GraphText;
}

/// Reads a graph that PyTorch printed as Python code into the same model the JSON reader builds:
/// * GraphModule.print_readable() (and gm.code) of AOT joint graphs and of plain forward graphs,
///   torch 1.13 (no annotations) and torch 2.x (`mm: "f32[8, 16][16, 1]cpu" = ...`, one
///   placeholder per line or in the def, pytree or plain returns);
/// * TORCH_LOGS="aot_joint_graph"/"aot_graphs" output ("TRACED GRAPH" records behind a log prefix on
///   every line), tlparse's graph artifacts and raw TORCH_TRACE files. With several graphs in one
///   file the first joint graph is read, else the first graph.
///
/// Conventions (docs/joint-graph-format.md): targets as the JSON writes them ("aten.mm.default" for
/// torch.ops.aten.mm.default, `x[0]` and `operator.getitem` as "_operator.getitem", `x + y` as
/// "_operator.add", builtins as "builtins.getattr"); literals as the same Arg kinds; `torch.float32` and
/// other objects as ArgKind::Repr with their printed repr; placeholders named primals_*/tangents_* make a
/// joint graph whose num_fwd_outputs is the number of outputs minus the number of primals, placeholders
/// without tangents make a forward graph. Comments above nodes give meta:
/// `# ac_graph_id: 1 - PREFER_RECOMPUTE` (recompute, ac_graph_id) and the stack-trace summary.
///
/// Sizes come only from torch 2.x annotations: torch 1.13 prints none, so its nodes have no
/// value (ValueKind::None, like the JSON's "val": null). A tuple-returning node, which torch
/// prints without annotation, gets a TensorList from the annotations of its `x[i]` users.
/// Symbolic sizes ("f32[s0, 16]") of a graph traced with dynamic shapes need the symbols' example
/// values (a TORCH_TRACE log's): without them they are rejected. Values printed "Sym(...)" become
/// ValueKind::Symbolic; every value carries the symbols it names, and a SymInt placeholder binds its
/// symbol, as 2.14's is_symbol_binding_fx_node.
///
/// Anything unreadable throws remat::Error("<file>:<line>: <what>") ("<file>: <what>" when the
/// file holds no graph at all); nothing is returned half-built.
JointGraph readPrintedGraphText(const std::string& text, const std::string& fileName);

/// Same, for one graph already found in a file (a TORCH_TRACE record's payload), its lines
/// numbered as in the file; symbolic sizes take their values from `hints` when given.
JointGraph readPrintedGraph(const printed::GraphText& graph, const std::string& fileName,
    const printed::SymbolHints* hints = nullptr);

/// Same, from a file (read with readFileText).
JointGraph readPrintedGraphFile(const std::string& path);

} // namespace remat
