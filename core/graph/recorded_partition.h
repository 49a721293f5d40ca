// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace remat {

/// How much of the recorded decisions a reader keeps.
enum class RecordedDetail {
    /// Everything.
    Full,
    /// No fwNodes and bwNodes: nine in ten of gpt_n48's recorded names, which only the conformance
    /// tests compare (the headless commands compare saved sets).
    SavedSetsOnly,
};

/// A partition decision that a real PyTorch made for a graph, as the file records it.
struct RecordedPartition {
    std::vector<std::string> savedValues; // joint-graph order
    std::vector<std::string> savedSymNodes;
    /// RNG states the forward also returns (2.x functionalize_rng_ops: one per random op the
    /// backward recomputes in a checkpoint region); not joint-graph values, so counted only.
    int savedRngStates = 0;
    std::vector<std::string> fwNodes;
    std::vector<std::string> bwNodes;
    std::optional<double> seconds;
    std::optional<std::int64_t> cutValue; // min-cut only (extra.min_cut_details)
    std::map<std::string, std::string> cseMerged; // dropped -> kept, when recorded
    std::vector<std::string> dceRemoved; // when recorded
    std::optional<double> memoryBudget; // for memory_budget_<b> runs
    /// Passes that rewrote the graph before PyTorch partitioned it (Inductor's joint-graph passes,
    /// from a TORCH_TRACE log): the decision is of a graph the file does not hold.
    std::vector<std::string> graphPassesBefore;
    /// What the file does not say that can make the decision differ (a TORCH_LOGS capture: the
    /// backend and any memory budget); shown beside a difference.
    std::string provenanceCaveat;
    /// False when the file does not say which partitioner made the decision: a log of a backend
    /// other than Inductor, whose partition_fn may be default_partition. Filed under "min_cut"
    /// (torch.compile's backends use it), and compared with the default partitioner too.
    bool partitionerNamed = true;
    /// False when the file does not say which backend compiled the graph (a TORCH_LOGS capture):
    /// under Inductor, PyTorch partitioned after its joint-graph passes.
    bool backendNamed = true;
};

} // namespace remat
