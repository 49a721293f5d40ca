// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <QString>

#include <functional>

namespace remat::ui {

/// "512 B", "32.0 KiB", "1.25 MiB".
QString formatBytes(std::int64_t bytes);

/// " + 7 SymInts" after a saved count under dynamic shapes, else nothing.
QString symIntsText(std::size_t count);
/// " + 2 RNG states" (the states of recomputed random ops the forward saves), or "" for none.
QString rngStatesText(std::size_t count);

/// Short dtype names as compiler people write them: f32, bf16, i64, b8.
QString shortDtypeName(Dtype dtype);

/// "[4, 64, 128]"
QString shapeText(const std::vector<std::int64_t>& dims);

/// One line for a node's value: "[4, 64, 128] f32", "2 tensors: [4, 64] f32, [4] f32", or "" for none.
QString valueSummary(const Node& node);

/// The op as the canvas shows it: "aten.mm", "aten.add.Tensor", "getitem", "placeholder".
QString opLabel(const JointGraph& graph, NodeId n);

/// Renders args/kwargs the way FX prints them. `nodeRef` formats a node reference (plain name,
/// or a hyperlink in the inspector).
QString argumentsText(const JointGraph& graph, NodeId n, const std::function<QString(NodeId)>& nodeRef);

} // namespace remat::ui
