// SPDX-License-Identifier: MIT
#include "budget/memory_simulation.h"

#include "analysis/node_roles.h"
#include "budget/backward_order.h"

#include <algorithm>
#include <numeric>

namespace remat {

std::string_view categoryName(MemoryCategory category)
{
    switch (category) {
    case MemoryCategory::Inputs:
        return "inputs";
    case MemoryCategory::Saved:
        return "saved";
    case MemoryCategory::Outputs:
        return "outputs";
    case MemoryCategory::Recomputed:
        return "recomputed";
    case MemoryCategory::Gradients:
        return "gradients";
    case MemoryCategory::Temporaries:
        return "temporaries";
    }
    return "";
}

std::int64_t MemoryStep::total() const
{
    return std::accumulate(bytes.begin(), bytes.end(), std::int64_t {0});
}

namespace {

using StorageId = StorageMap::StorageId;

/// Role bits of a storage: the static ones (known from the graph) and Saved (from the plan).
using Touches = MemorySimulator::Touches;

enum Role : std::uint8_t {
    Input = 1, // a primal or constant: live throughout
    ForwardOutput = 2, // held by the caller until the end
    Gradient = 4, // returned by the backward
    Tangent = 8, // an input of the backward, freed after its last use
    SavedRole = 16, // saved for the backward
    OffloadedRole = 32, // saved on the host (activation offloading), unless a SavedRole alias keeps it
};

/// Per node, what the simulation asks of it (read from the graph once).
enum NodeKind : std::uint8_t {
    PlaceholderNode = 1,
    TangentNode = 2,
};

/// What one run works in, per storage and per node. Reused by each thread across runs (a sweep
/// simulates thousands of plans): only the sizes are allocated once.
struct SimulationState {
    std::vector<char> live;
    std::vector<MemoryCategory> category;
    std::vector<int> last;
    std::vector<std::uint8_t> role;
    std::vector<char> recomputed;
    std::vector<char> savedNode;
    std::vector<NodeId> forward;
    std::vector<NodeId> backward;
    std::vector<StorageId> lastUsed; ///< storages by the step that uses them last (see computeLastUses)
    std::vector<std::uint32_t> lastUsedEnd;
};

/// One run over the forward then the backward. With `stopAt` set, it stops right after that step
/// and leaves the live storages in place, so the tensors alive at the peak can be listed.
class Simulator {
public:
    Simulator(const WorkGraph& graph, const StorageMap& storages, const std::vector<std::uint8_t>& roles,
        const Touches& touches, const std::vector<std::uint8_t>& nodeKinds, const PartitionResult& result,
        const std::vector<NodeId>& backwardOrder, SimulationState& state)
        : m_touches(touches)
        , m_storages(storages)
        , m_nodeKinds(nodeKinds)
        , m_result(result)
        , m_backwardOrder(backwardOrder)
        , m_live(state.live)
        , m_category(state.category)
        , m_last(state.last)
        , m_role(state.role)
        , m_recomputed(state.recomputed)
        , m_savedNode(state.savedNode)
        , m_forward(state.forward)
        , m_backward(state.backward)
        , m_lastUsed(state.lastUsed)
        , m_lastUsedEnd(state.lastUsedEnd)
    {
        m_live.assign(storages.storageCount(), 0);
        m_category.assign(storages.storageCount(), MemoryCategory::Temporaries);
        m_last.resize(storages.storageCount());
        m_role = roles;
        m_recomputed.assign(graph.graph().size(), 0);
        m_savedNode.assign(graph.graph().size(), 0);
        for (NodeId n : result.savedValues) {
            const bool offloaded = result.isOffloaded(n);
            m_anyOffloaded = m_anyOffloaded || offloaded;
            for (StorageId s : storages.storagesOf(n)) {
                if (s != StorageMap::kNone)
                    m_role[static_cast<std::size_t>(s)] |= offloaded ? OffloadedRole : SavedRole;
            }
            m_savedNode[static_cast<std::size_t>(n)] = 1;
        }
        for (NodeId n : result.recomputed)
            m_recomputed[static_cast<std::size_t>(n)] = 1;
    }

    /// Runs until the end (stopAt < 0) or through step `stopAt`; calls `onStep` after each step.
    template <typename OnStep> void run(int stopAt, OnStep onStep)
    {
        int step = 0;

        // Forward: the primals are there before anything runs.
        m_forward.clear();
        for (NodeId n : m_result.fwNodes) {
            if (isKind(n, PlaceholderNode))
                allocateAll(n, MemoryCategory::Inputs);
            else
                m_forward.push_back(n);
        }
        computeLastUses(m_forward);
        for (std::size_t t = 0; t < m_forward.size(); ++t) {
            const NodeId n = m_forward[t];
            for (StorageId s : m_storages.allocatedBy(n))
                allocate(s, forwardCategory(s));
            onStep(Phase::Forward, n, step);
            if (step++ == stopAt)
                return;
            release(t, [&](StorageId s) {
                if (keptAfterForward(s))
                    return false;
                if (offloadedStorage(s))
                    m_hostBytes += m_storages.bytes(s); // its copy to the host follows its last use
                return true;
            });
        }

        // Backward: saved values, forward outputs and inputs carry over; the tangents arrive.
        for (std::size_t s = 0; s < m_live.size(); ++s) {
            if (m_live[s])
                m_category[s] = forwardCategory(static_cast<StorageId>(s));
        }
        m_backward.clear();
        for (NodeId n : m_backwardOrder) {
            if (isKind(n, TangentNode))
                allocateAll(n, MemoryCategory::Gradients);
            else if (!isKind(n, PlaceholderNode) && !isSavedNode(n))
                m_backward.push_back(n);
        }
        computeLastUses(m_backward);
        // Saved storages the backward never reads are released at once.
        for (std::size_t s = 0; s < m_live.size(); ++s) {
            if (m_live[s] && m_last[s] < 0 && !keptInBackward(static_cast<StorageId>(s)))
                free(static_cast<StorageId>(s));
        }
        for (std::size_t t = 0; t < m_backward.size(); ++t) {
            const NodeId n = m_backward[t];
            if (m_anyOffloaded)
                reloadFor(n);
            for (StorageId s : m_storages.allocatedBy(n))
                allocate(s, backwardCategory(s, n));
            onStep(Phase::Backward, n, step);
            if (step++ == stopAt)
                return;
            release(t, [&](StorageId s) { return !keptInBackward(s); });
        }
    }

    const std::array<std::int64_t, kMemoryCategoryCount>& liveBytes() const { return m_bytes; }
    std::int64_t totalBytes() const { return m_total; }
    std::int64_t hostBytes() const { return m_hostBytes; }

    std::vector<LiveTensor> liveTensors() const
    {
        std::vector<LiveTensor> out;
        for (std::size_t s = 0; s < m_live.size(); ++s) {
            if (m_live[s]) {
                const auto id = static_cast<StorageId>(s);
                out.push_back({m_storages.owner(id), m_storages.bytes(id), m_category[s]});
            }
        }
        std::stable_sort(out.begin(), out.end(),
            [](const LiveTensor& a, const LiveTensor& b) { return a.bytes > b.bytes; });
        return out;
    }

private:
    bool isKind(NodeId n, NodeKind kind) const
    {
        return (m_nodeKinds[static_cast<std::size_t>(n)] & kind) != 0;
    }
    bool isSavedNode(NodeId n) const { return m_savedNode[static_cast<std::size_t>(n)] != 0; }
    bool has(StorageId s, Role role) const { return (m_role[static_cast<std::size_t>(s)] & role) != 0; }
    bool offloadedStorage(StorageId s) const
    {
        return has(s, OffloadedRole) && !has(s, SavedRole) && !has(s, Input) && !has(s, ForwardOutput);
    }
    /// The reloads 2.14's pass puts before the first backward user of an offloaded value.
    void reloadFor(NodeId n)
    {
        const auto i = static_cast<std::size_t>(n);
        for (auto k = m_touches.offsets[i]; k < m_touches.offsets[i + 1]; ++k) {
            const StorageId s = m_touches.storages[k];
            if (!m_live[static_cast<std::size_t>(s)] && offloadedStorage(s)) {
                allocate(s, MemoryCategory::Saved);
                m_hostBytes -= m_storages.bytes(s);
            }
        }
    }
    bool keptAfterForward(StorageId s) const
    {
        return has(s, Input) || has(s, SavedRole) || has(s, ForwardOutput);
    }
    bool keptInBackward(StorageId s) const
    {
        return (has(s, Input) && !has(s, Tangent)) || has(s, ForwardOutput) || has(s, Gradient);
    }
    MemoryCategory forwardCategory(StorageId s) const
    {
        if (has(s, Input))
            return MemoryCategory::Inputs;
        if (has(s, SavedRole) || has(s, OffloadedRole))
            return MemoryCategory::Saved;
        if (has(s, ForwardOutput))
            return MemoryCategory::Outputs;
        return MemoryCategory::Temporaries;
    }
    MemoryCategory backwardCategory(StorageId s, NodeId producer) const
    {
        if (has(s, Gradient))
            return MemoryCategory::Gradients;
        if (m_recomputed[static_cast<std::size_t>(producer)])
            return MemoryCategory::Recomputed;
        return MemoryCategory::Temporaries;
    }

    void allocate(StorageId s, MemoryCategory category)
    {
        const auto i = static_cast<std::size_t>(s);
        if (m_live[i])
            return;
        m_live[i] = 1;
        m_category[i] = category;
        m_bytes[static_cast<std::size_t>(category)] += m_storages.bytes(s);
        m_total += m_storages.bytes(s);
    }
    void allocateAll(NodeId n, MemoryCategory category)
    {
        for (StorageId s : m_storages.storagesOf(n)) {
            if (s != StorageMap::kNone)
                allocate(s, category);
        }
    }
    void free(StorageId s)
    {
        const auto i = static_cast<std::size_t>(s);
        if (!m_live[i])
            return;
        m_live[i] = 0;
        m_bytes[static_cast<std::size_t>(m_category[i])] -= m_storages.bytes(s);
        m_total -= m_storages.bytes(s);
    }

    /// Last step (index into `nodes`) at which each storage is produced or read; -1 if never.
    /// Read backwards: the first time a storage is met is its last use. The storages are listed
    /// by that step too, so that each step frees its own without looking at the others.
    void computeLastUses(const std::vector<NodeId>& nodes)
    {
        std::fill(m_last.begin(), m_last.end(), -1);
        m_lastUsed.clear();
        m_lastUsedEnd.resize(nodes.size() + 1);
        m_lastUsedEnd[nodes.size()] = 0;
        for (std::size_t t = nodes.size(); t-- > 0;) {
            const auto i = static_cast<std::size_t>(nodes[t]);
            for (auto k = m_touches.offsets[i]; k < m_touches.offsets[i + 1]; ++k) {
                const StorageId s = m_touches.storages[k];
                if (m_last[static_cast<std::size_t>(s)] < 0) {
                    m_last[static_cast<std::size_t>(s)] = static_cast<int>(t);
                    m_lastUsed.push_back(s);
                }
            }
            m_lastUsedEnd[t] = static_cast<std::uint32_t>(m_lastUsed.size());
        }
    }
    /// Frees what step `step` used last, unless `mayFree` keeps it.
    template <typename MayFree> void release(std::size_t step, MayFree mayFree)
    {
        for (auto k = m_lastUsedEnd[step + 1]; k < m_lastUsedEnd[step]; ++k) {
            if (mayFree(m_lastUsed[k]))
                free(m_lastUsed[k]);
        }
    }

    const Touches& m_touches;
    const StorageMap& m_storages;
    const std::vector<std::uint8_t>& m_nodeKinds;
    const PartitionResult& m_result;
    const std::vector<NodeId>& m_backwardOrder;
    std::vector<char>& m_live;
    std::vector<MemoryCategory>& m_category;
    std::vector<int>& m_last;
    std::vector<std::uint8_t>& m_role;
    std::vector<char>& m_recomputed;
    std::vector<char>& m_savedNode;
    std::vector<NodeId>& m_forward;
    std::vector<NodeId>& m_backward;
    std::vector<StorageId>& m_lastUsed;
    std::vector<std::uint32_t>& m_lastUsedEnd;
    std::array<std::int64_t, kMemoryCategoryCount> m_bytes {};
    std::int64_t m_total = 0; // the sum of m_bytes, kept as it changes: the peak is read every step
    std::int64_t m_hostBytes = 0;
    bool m_anyOffloaded = false;
};

} // namespace

MemorySimulator::MemorySimulator(const WorkGraph& graph, const StorageMap& storages)
    : m_graph(&graph)
    , m_storages(&storages)
    , m_roles(storages.storageCount(), 0)
    , m_nodeKinds(graph.graph().size(), 0)
    , m_backwardOrderer(graph)
{
    for (std::size_t i = 0; i < m_nodeKinds.size(); ++i) {
        const auto n = static_cast<NodeId>(i);
        if (graph.graph().node(n).op == NodeOp::Placeholder)
            m_nodeKinds[i] |= PlaceholderNode;
        if (isTangent(graph.graph(), n))
            m_nodeKinds[i] |= TangentNode;
    }
    const auto mark = [&](NodeId n, std::uint8_t role) {
        if (n == kNoNode)
            return;
        for (StorageId s : storages.storagesOf(n)) {
            if (s != StorageMap::kNone)
                m_roles[static_cast<std::size_t>(s)] |= role;
        }
    };
    for (std::size_t s = 0; s < storages.storageCount(); ++s) {
        if (storages.isInputStorage(static_cast<StorageId>(s)))
            m_roles[s] |= Input;
    }
    for (NodeId n : graph.fwdOutputs())
        mark(n, ForwardOutput);
    for (NodeId n : graph.bwdOutputs())
        mark(n, Gradient);
    for (NodeId n : graph.order()) {
        if (isTangent(graph.graph(), n))
            mark(n, Tangent);
    }
    // Per node, the distinct storages it produces or reads, contiguous: the simulation's hot loop.
    const std::size_t count = graph.graph().size();
    m_touches.offsets.assign(count + 1, 0);
    std::vector<StorageId> list;
    for (std::size_t i = 0; i < count; ++i) {
        list.clear();
        const auto n = static_cast<NodeId>(i);
        if (graph.alive(n)) {
            const auto add = [&](NodeId m) {
                for (StorageId s : storages.storagesOf(m)) {
                    if (s != StorageMap::kNone && std::find(list.begin(), list.end(), s) == list.end())
                        list.push_back(s);
                }
            };
            add(n);
            for (NodeId input : graph.inputs(n))
                add(input);
        }
        m_touches.storages.insert(m_touches.storages.end(), list.begin(), list.end());
        m_touches.offsets[i + 1] = static_cast<std::uint32_t>(m_touches.storages.size());
    }
}

MemoryProfile MemorySimulator::run(
    const PartitionResult& result, const MemorySimulationOptions& options) const
{
    MemoryProfile profile;
    profile.backwardOrder = m_backwardOrderer.order(result);
    {
        thread_local SimulationState state;
        Simulator simulator(
            *m_graph, *m_storages, m_roles, m_touches, m_nodeKinds, result, profile.backwardOrder, state);
        simulator.run(-1, [&](Phase phase, NodeId node, int step) {
            const std::int64_t total = simulator.totalBytes();
            if (total > profile.peakBytes || profile.peakStep < 0) {
                profile.peakBytes = total;
                profile.peakStep = step;
                profile.peakPhase = phase;
                profile.peakNode = node;
            }
            if (phase == Phase::Forward)
                profile.forwardSteps = step + 1;
            profile.peakHostBytes = std::max(profile.peakHostBytes, simulator.hostBytes());
            if (options.timeline)
                profile.timeline.push_back({phase, node, simulator.liveBytes(), simulator.hostBytes()});
        });
    }
    if (options.liveAtPeak && profile.peakStep >= 0)
        profile.liveAtPeak = liveAt(result, profile.backwardOrder, profile.peakStep);
    return profile;
}

std::vector<LiveTensor> MemorySimulator::liveAt(const PartitionResult& result, int step) const
{
    return liveAt(result, m_backwardOrderer.order(result), step);
}

std::vector<LiveTensor> MemorySimulator::liveAt(
    const PartitionResult& result, const std::vector<NodeId>& backwardOrder, int step) const
{
    thread_local SimulationState state;
    Simulator replay(*m_graph, *m_storages, m_roles, m_touches, m_nodeKinds, result, backwardOrder, state);
    replay.run(step, [](Phase, NodeId, int) {});
    return replay.liveTensors();
}

MemoryProfile simulateMemory(const WorkGraph& graph, const StorageMap& storages,
    const PartitionResult& result, const MemorySimulationOptions& options)
{
    return MemorySimulator(graph, storages).run(result, options);
}

} // namespace remat
