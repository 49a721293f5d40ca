// SPDX-License-Identifier: MIT
#include "budget/warm_min_cut.h"

#include "graph/error.h"

#include <algorithm>
#include <limits>

namespace remat {

WarmMinCut::WarmMinCut(const FlowNetwork& network, std::span<const int> sourceTargets)
    : m_vertices(network.vertexCount())
{
    Capacity finiteTotal = 0;
    for (const auto& e : network.edges()) {
        if (!e.infinite && __builtin_add_overflow(finiteTotal, e.capacity, &finiteTotal))
            throw Error("the flow network's capacities overflow 64 bits");
    }
    if (finiteTotal >= std::numeric_limits<Capacity>::max() / 4)
        throw Error("the flow network's capacities are too large to solve exactly");
    m_infinity = finiteTotal + 1;

    // Arc 2i is edge i, 2i+1 its reverse; the extra source edges follow the network's edges.
    struct Arc {
        int from;
        int to;
        Capacity capacity;
    };
    std::vector<Arc> arcs;
    arcs.reserve(2 * (network.edges().size() + sourceTargets.size()));
    for (const auto& e : network.edges()) {
        arcs.push_back({e.from, e.to, e.infinite ? m_infinity : e.capacity});
        arcs.push_back({e.to, e.from, 0});
    }
    for (int target : sourceTargets) {
        arcs.push_back({FlowNetwork::kSource, target, 0});
        arcs.push_back({target, FlowNetwork::kSource, 0});
    }
    // Group arcs by tail (counting sort), remembering where each landed.
    const auto vertices = static_cast<std::size_t>(m_vertices);
    m_head.assign(vertices + 1, 0);
    for (const Arc& a : arcs)
        ++m_head[static_cast<std::size_t>(a.from) + 1];
    for (std::size_t v = 0; v < vertices; ++v)
        m_head[v + 1] += m_head[v];
    std::vector<std::uint32_t> fill(m_head.begin(), m_head.end() - 1);
    std::vector<std::uint32_t> placed(arcs.size());
    for (std::size_t i = 0; i < arcs.size(); ++i)
        placed[i] = fill[static_cast<std::size_t>(arcs[i].from)]++;
    m_to.resize(arcs.size());
    m_reverse.resize(arcs.size());
    m_base.residual.resize(arcs.size());
    for (std::size_t i = 0; i < arcs.size(); ++i) {
        m_to[placed[i]] = arcs[i].to;
        m_reverse[placed[i]] = placed[i ^ 1];
        m_base.residual[placed[i]] = arcs[i].capacity;
    }
    const std::size_t firstExtra = 2 * network.edges().size();
    for (std::size_t k = 0; k < sourceTargets.size(); ++k)
        m_sourceArc.push_back(placed[firstExtra + 2 * k]);

    std::vector<std::uint32_t> sourceArcs; // the extra ones have no capacity yet
    for (auto a = m_head[FlowNetwork::kSource]; a < m_head[FlowNetwork::kSource + 1]; ++a)
        sourceArcs.push_back(a);
    m_base.enabled.assign(sourceTargets.size(), 0);
    m_base.reached.assign(vertices, 0);
    m_base.value = augment(m_base.residual, m_base.reached, sourceArcs, 0);
    m_baseBounded = m_base.value < m_infinity;
}

/// Dinic's algorithm from the current residual: level graphs by BFS (stopping at the sink's
/// level), blocking flows by an iterative depth-first search. From the source, only `sourceArcs`
/// are followed, and vertices `reached` are skipped (see Flow). Returns the total flow, `already`
/// included; stops as soon as it reaches infinity (an infinite path exists). Otherwise the last
/// search, which no longer reaches the sink, found what the source newly reaches: it joins `reached`.
WarmMinCut::Capacity WarmMinCut::augment(std::vector<Capacity>& residual, std::vector<char>& reached,
    std::span<const std::uint32_t> sourceArcs, Capacity already) const
{
    const auto vertices = static_cast<std::size_t>(m_vertices);
    constexpr auto source = static_cast<std::size_t>(FlowNetwork::kSource);
    constexpr auto sink = static_cast<std::size_t>(FlowNetwork::kSink);
    // Scratch space, reused by each thread across solves (a sweep runs thousands of them). Only
    // the vertices a phase reaches (its queue) get a level, and only they are reset.
    thread_local std::vector<int> level;
    thread_local std::vector<std::uint32_t> next;
    thread_local std::vector<int> queue;
    thread_local std::vector<std::uint32_t> path; // arcs from the source
    level.assign(vertices, -1);
    next.resize(vertices);
    queue.resize(vertices);
    Capacity total = already;
    std::size_t write = 0;
    while (total < m_infinity) {
        for (std::size_t k = 0; k < write; ++k)
            level[static_cast<std::size_t>(queue[k])] = -1;
        level[source] = 0;
        std::size_t read = 0;
        write = 0;
        queue[write++] = FlowNetwork::kSource;
        while (read < write) {
            const auto v = static_cast<std::size_t>(queue[read++]);
            if (level[sink] >= 0 && level[v] >= level[sink])
                break; // deeper vertices cannot be on a shortest path
            const auto visit = [&](std::uint32_t a) {
                const auto w = static_cast<std::size_t>(m_to[a]);
                if (residual[a] > 0 && level[w] < 0 && !reached[w]) {
                    level[w] = level[v] + 1;
                    next[w] = m_head[w];
                    queue[write++] = m_to[a];
                }
            };
            if (v == source) {
                for (auto a : sourceArcs)
                    visit(a);
            } else {
                for (auto a = m_head[v]; a < m_head[v + 1]; ++a)
                    visit(a);
            }
        }
        if (level[sink] < 0)
            break;
        // Blocking flow: advance along level-increasing arcs, retreat from dead ends.
        std::size_t nextSourceArc = 0;
        std::size_t v = source;
        path.clear();
        while (total < m_infinity) {
            if (v == sink) {
                Capacity bottleneck = m_infinity;
                for (auto a : path)
                    bottleneck = std::min(bottleneck, residual[a]);
                for (auto a : path) {
                    residual[a] -= bottleneck;
                    residual[m_reverse[a]] += bottleneck;
                }
                total += bottleneck;
                path.clear();
                v = source;
                continue;
            }
            bool advanced = false;
            if (v == source) {
                for (; nextSourceArc < sourceArcs.size(); ++nextSourceArc) {
                    const auto a = sourceArcs[nextSourceArc];
                    if (residual[a] > 0 && level[static_cast<std::size_t>(m_to[a])] == 1) {
                        path.push_back(a);
                        v = static_cast<std::size_t>(m_to[a]);
                        advanced = true;
                        break;
                    }
                }
            } else {
                for (; next[v] < m_head[v + 1]; ++next[v]) {
                    const auto a = next[v];
                    const auto w = static_cast<std::size_t>(m_to[a]);
                    if (residual[a] > 0 && level[w] == level[v] + 1) {
                        path.push_back(a);
                        v = w;
                        advanced = true;
                        break;
                    }
                }
            }
            if (advanced)
                continue;
            level[v] = -1; // dead end for this phase
            if (path.empty())
                break;
            const auto a = path.back();
            path.pop_back();
            v = static_cast<std::size_t>(m_to[m_reverse[a]]);
            if (v == source)
                ++nextSourceArc;
            else
                ++next[v];
        }
    }
    if (total < m_infinity) { // the last search missed the sink: all it found is the source's now
        for (std::size_t k = 1; k < write; ++k)
            reached[static_cast<std::size_t>(queue[k])] = 1;
    }
    return total;
}

std::shared_ptr<const WarmMinCut::Flow> WarmMinCut::closestFlow(std::span<const char> enabled) const
{
    const std::lock_guard lock(m_keptMutex);
    std::shared_ptr<const Flow> best;
    std::size_t bestCount = 0;
    for (const auto& flow : m_kept) {
        std::size_t count = 0;
        bool subset = true;
        for (std::size_t k = 0; k < flow->enabled.size() && subset; ++k) {
            if (flow->enabled[k]) {
                subset = k < enabled.size() && enabled[k];
                ++count;
            }
        }
        if (subset && (!best || count > bestCount)) {
            best = flow;
            bestCount = count;
        }
    }
    return best;
}

void WarmMinCut::keep(std::shared_ptr<const Flow> flow) const
{
    const std::lock_guard lock(m_keptMutex);
    m_kept.push_front(std::move(flow));
    if (m_kept.size() > kKeptFlows)
        m_kept.pop_back();
}

WarmMinCut::Cut WarmMinCut::solve(std::span<const char> enabled) const
{
    Cut cut;
    if (!m_baseBounded) {
        cut.bounded = false;
        return cut;
    }
    // Adding capacity keeps a flow feasible: resume from the closest kept flow, or the base one.
    const auto from = closestFlow(enabled);
    const Flow& start = from ? *from : m_base;
    auto flow = std::make_shared<Flow>();
    flow->enabled.assign(m_sourceArc.size(), 0);
    flow->residual = start.residual;
    flow->reached = start.reached;
    thread_local std::vector<std::uint32_t> added; // new source edges: the only start of a new path
    added.clear();
    for (std::size_t k = 0; k < m_sourceArc.size(); ++k) {
        if (k >= enabled.size() || !enabled[k])
            continue;
        flow->enabled[k] = 1;
        if (!start.enabled[k]) {
            flow->residual[m_sourceArc[k]] = m_infinity; // no flow on it yet
            added.push_back(m_sourceArc[k]);
        }
    }
    auto& residual = flow->residual;
    cut.value = augment(residual, flow->reached, added, start.value);
    if (cut.value >= m_infinity) {
        cut.bounded = false;
        return cut;
    }
    // Sink side: vertices that still reach the sink through arcs with residual capacity.
    const auto vertices = static_cast<std::size_t>(m_vertices);
    cut.sinkSide.assign(vertices, 0);
    thread_local std::vector<int> stack;
    stack.assign(1, FlowNetwork::kSink);
    cut.sinkSide[FlowNetwork::kSink] = 1;
    while (!stack.empty()) {
        const auto v = static_cast<std::size_t>(stack.back());
        stack.pop_back();
        for (auto a = m_head[v]; a < m_head[v + 1]; ++a) {
            const auto u = static_cast<std::size_t>(m_to[a]);
            if (!cut.sinkSide[u] && residual[m_reverse[a]] > 0) {
                cut.sinkSide[u] = 1;
                stack.push_back(m_to[a]);
            }
        }
    }
    flow->value = cut.value;
    keep(std::move(flow));
    return cut;
}

} // namespace remat
