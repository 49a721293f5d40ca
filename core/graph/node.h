// SPDX-License-Identifier: MIT
#pragma once

#include "graph/arg.h"
#include "graph/out_of_line.h"
#include "graph/tensor_meta.h"

#include <optional>
#include <string>
#include <vector>

namespace remat {

enum class NodeOp : std::uint8_t { Placeholder, CallFunction, GetAttr, Output, CallModule, CallMethod };

/// torch.utils.checkpoint.CheckpointPolicy, as stored in `meta["recompute"]`.
enum class CheckpointPolicy : std::int8_t {
    None = -1,
    MustSave = 0,
    PreferSave = 1,
    MustRecompute = 2,
    PreferRecompute = 3,
    MustCpuOffload = 4,
    PreferCpuOffload = 5,
};

enum class PartitionerTag : std::uint8_t { None, IsForward, IsBackward, MustBeInForward, MustBeInBackward };

/// What the value of a node is: the format's `val` (TensorMeta, list, null, or a torch 2.x
/// SymInt/SymFloat/SymBool `{"sym": expr, "hint": example}` under dynamic shapes).
enum class ValueKind : std::uint8_t { None, Tensor, TensorList, Symbolic };

using OpId = std::uint32_t;

/// Where a node came from in the model: shown to the user, never read by a partitioner.
struct SourceText {
    std::vector<std::string> nnModuleStack;
    std::string stackTrace;
    /// A graph input's name in the model, when its file says: a parameter or buffer by its
    /// qualified name ("transformer.h.0.attn.c_attn.weight"), or the forward's argument ("ids").
    std::string inputName;
};

struct NodeMeta {
    CheckpointPolicy recompute = CheckpointPolicy::None;
    std::optional<std::int64_t> acGraphId;
    PartitionerTag partitionerTag = PartitionerTag::None;
    std::optional<double> memoryBudget;
    std::optional<double> runtimeMs;
    bool hasBackwardHook = false;
    OutOfLine<SourceText> source;
};

/// Dynamic shapes: the symbols of a value's sizes (or of a symbolic value), sorted by name; for a
/// symbolic value, its expression, and the symbol it binds (a SymInt placeholder).
struct SymbolicText {
    std::vector<std::string> freeSymbols;
    std::string expr;
    std::string bindsSymbol;
};

struct Node {
    std::string name;
    NodeOp op = NodeOp::CallFunction;
    OpId target = 0;
    ArgIndex args = 0; // a List in the graph's arg pool
    ArgIndex kwargs = 0; // a Dict in the graph's arg pool
    ValueKind valueKind = ValueKind::None;
    /// One entry for a tensor; one per element (nullopt for non-tensors) for a list.
    std::vector<std::optional<TensorMeta>> values;
    NodeMeta meta;
    std::vector<NodeId> inputs; // distinct nodes referenced by args/kwargs, first-use order
    std::vector<NodeId> users; // distinct consumers in graph order
    OutOfLine<SymbolicText> symbolic;
    bool symbolicFloat = false; ///< a SymFloat (2.14's sym_node_size: 4, else 1)

    /// Has `tensor_meta` in torch 1.13: a single-tensor value.
    bool hasTensorMeta() const { return valueKind == ValueKind::Tensor; }
    const TensorMeta& tensor() const { return *values.front(); }
};

} // namespace remat
