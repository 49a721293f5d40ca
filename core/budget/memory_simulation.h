// SPDX-License-Identifier: MIT
#pragma once

#include "budget/backward_order.h"
#include "budget/storage_aliasing.h"
#include "partition/partition_result.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace remat {

/// What a live allocation is, for the memory timeline.
enum class MemoryCategory : std::uint8_t {
    Inputs, ///< parameters and inputs (primals, constants): live throughout
    Saved, ///< saved for the backward: from the forward until their last backward use
    Outputs, ///< forward outputs (the loss...): held by the caller until the end
    Recomputed, ///< forward values the backward recomputes
    Gradients, ///< incoming gradients (tangents) and the gradients the backward returns
    Temporaries, ///< everything else, freed after its last use
};
constexpr std::size_t kMemoryCategoryCount = 6;
std::string_view categoryName(MemoryCategory category);

enum class Phase : std::uint8_t { Forward, Backward };

/// Live bytes right after one node allocated its result (inputs and output both alive: the moment
/// a peak happens), before anything it was the last user of is freed.
struct MemoryStep {
    Phase phase = Phase::Forward;
    NodeId node = kNoNode;
    std::array<std::int64_t, kMemoryCategoryCount> bytes {};
    /// Offloaded values on the host at this step (activation offloading): not part of total().
    std::int64_t hostBytes = 0;
    std::int64_t total() const;
};

struct LiveTensor {
    NodeId owner; ///< the node that allocated it
    std::int64_t bytes;
    MemoryCategory category;
};

struct MemoryProfile {
    std::int64_t peakBytes = 0;
    int peakStep = -1; ///< index into the forward-then-backward steps
    Phase peakPhase = Phase::Forward;
    NodeId peakNode = kNoNode;
    std::vector<LiveTensor> liveAtPeak; ///< largest first
    std::vector<MemoryStep> timeline; ///< one step per executed node, forward then backward
    std::vector<NodeId> backwardOrder; ///< the backward as it runs (after the autograd reordering)
    int forwardSteps = 0;
    std::int64_t peakHostBytes = 0; ///< the most offloaded bytes on the host at once
};

struct MemorySimulationOptions {
    bool timeline = true; ///< keep every step (the peak alone is cheaper)
    bool liveAtPeak = true; ///< list the tensors alive at the peak
};

/// The simulation of one graph's plans: what is known from the graph alone (inputs, outputs,
/// gradients, tangents) is worked out once. run() is const and thread-safe.
class MemorySimulator {
public:
    MemorySimulator(const WorkGraph& graph, const StorageMap& storages);
    MemoryProfile run(const PartitionResult& result, const MemorySimulationOptions& options = {}) const;
    /// The tensors alive at step `step` of run()'s timeline (largest first): what a click on the
    /// timeline lists.
    std::vector<LiveTensor> liveAt(const PartitionResult& result, int step) const;

    /// Per node: the distinct storages it produces or reads (node n: storages[offsets[n]..offsets[n+1])).
    struct Touches {
        std::vector<std::uint32_t> offsets;
        std::vector<StorageMap::StorageId> storages;
    };

private:
    std::vector<LiveTensor> liveAt(
        const PartitionResult& result, const std::vector<NodeId>& backwardOrder, int step) const;

    const WorkGraph* m_graph;
    const StorageMap* m_storages;
    std::vector<std::uint8_t> m_roles; ///< per storage
    Touches m_touches;
    std::vector<std::uint8_t> m_nodeKinds; ///< per node: placeholder, tangent
    BackwardOrderer m_backwardOrderer;
};

/// Runs the plan's forward, then its backward in the order PyTorch executes it, tracking every
/// storage (aliases share one) from its allocation to its last use. Primals and constants are live
/// from the start, tangents from the start of the backward; forward outputs and returned gradients
/// stay to the end; saved values live until their last backward use. An offloaded value
/// (result.offloaded) leaves the device after its last forward use, where 2.14's pass puts its copy
/// to the host, and comes back right before the first backward step that reads it (its reload);
/// in between its bytes count as hostBytes, not on the device.
MemoryProfile simulateMemory(const WorkGraph& graph, const StorageMap& storages,
    const PartitionResult& result, const MemorySimulationOptions& options = {});

} // namespace remat
