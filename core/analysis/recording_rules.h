// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rule_set.h"

#include <optional>
#include <string_view>

namespace remat {

class JointGraph;

/// The rule set of the PyTorch that recorded the graph: torch-2.14 for a 2.x recording or export,
/// torch-1.13 otherwise (our 1.13 exports, and files that do not say). A graph opens under it.
RuleSet rulesOfRecording(const JointGraph& graph);

/// PyTorch made a decision recorded in the file after Inductor's joint-graph passes (a TORCH_TRACE
/// log of the default backend names remove_noop_ops among them): a graph opens with
/// config.inductorJointPasses on, so that the passes are replayed before partitioning.
bool decidedAfterInductorJointPasses(const JointGraph& graph);

/// Whether Inductor's joint-graph passes are replayed before partitioning: as the recording says
/// (Auto), or as the user chose (a capture that names no backend, a what-if on a log).
enum class JointPassReplay { Auto, On, Off };
/// "auto", "on" or "off".
std::optional<JointPassReplay> parseJointPassReplay(std::string_view text);
/// config.inductorJointPasses under `rules`: never under torch-1.13, whose PyTorch had no Inductor.
bool replaysInductorJointPasses(JointPassReplay replay, RuleSet rules, const JointGraph& graph);

} // namespace remat
