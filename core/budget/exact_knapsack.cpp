// SPDX-License-Identifier: MIT
// The "ilp" solver: PyTorch hands the 0/1 knapsack to scipy's MILP; we solve it exactly ourselves.
#include "budget/knapsack.h"

#include "graph/error.h"

#include <algorithm>
#include <cmath>

namespace remat {
namespace {

constexpr double kTolerance = 1e-9; // on total memory, like a MILP's feasibility tolerance
constexpr std::size_t kFrontierLimit = 4'000'000; // points kept before falling back to branch and bound
constexpr long long kNodeLimit = 50'000'000;

/// Branch and bound over groups of identical items, best ratio first, with the fractional
/// (LP relaxation) bound: the fallback when the frontier grows too large.
class BranchAndBound {
public:
    explicit BranchAndBound(const std::vector<ExactKnapsackTable::Group>& groups)
        : m_groups(groups)
        , m_take(groups.size(), 0)
        , m_best(groups.size(), 0)
    { }

    std::vector<int> run(double capacity)
    {
        search(0, capacity, 0.0);
        return m_best;
    }

private:
    double bound(std::size_t g, double capacity, double value) const
    {
        for (; g < m_groups.size(); ++g) {
            const auto& group = m_groups[g];
            const double all = group.memory * static_cast<double>(group.items.size());
            if (all > capacity)
                return value + group.runtime * (capacity / group.memory);
            capacity -= all;
            value += group.runtime * static_cast<double>(group.items.size());
        }
        return value;
    }

    void search(std::size_t g, double capacity, double value)
    {
        if (++m_nodes > kNodeLimit)
            throw Error("ilp knapsack: no proof of optimality within " + std::to_string(kNodeLimit)
                + " branch-and-bound nodes; use the dp solver for this graph");
        if (g == m_groups.size()) {
            if (value > m_bestValue) {
                m_bestValue = value;
                m_best = m_take;
            }
            return;
        }
        if (bound(g, capacity, value) <= m_bestValue)
            return;
        const auto& group = m_groups[g];
        // Clamped as a double first: a tiny memory makes the quotient too large (or inf) to cast.
        const double fits = std::floor(capacity / group.memory);
        const auto count = static_cast<double>(group.items.size());
        auto most = static_cast<long long>(fits > 0 ? std::min(fits, count) : 0.0);
        while (most > 0 && static_cast<double>(most) * group.memory > capacity)
            --most;
        for (long long c = most; c >= 0; --c) {
            m_take[g] = static_cast<int>(c);
            search(g + 1, capacity - static_cast<double>(c) * group.memory,
                value + static_cast<double>(c) * group.runtime);
        }
        m_take[g] = 0;
    }

    const std::vector<ExactKnapsackTable::Group>& m_groups;
    std::vector<int> m_take;
    std::vector<int> m_best;
    double m_bestValue = -1;
    long long m_nodes = 0;
};

} // namespace

ExactKnapsackTable::ExactKnapsackTable(
    std::span<const double> memory, std::span<const double> runtime, double maxMemory)
    : m_runtime(runtime.begin(), runtime.end())
    , m_free(runtime.size(), 0)
    , m_capacity(std::max(maxMemory, 0.0) + kTolerance)
{
    std::vector<int> open;
    for (std::size_t i = 0; i < runtime.size(); ++i) {
        if (!(runtime[i] > 0))
            continue; // saving it gains nothing
        if (memory[i] <= 0)
            m_free[i] = 1; // saving it costs nothing
        else
            open.push_back(static_cast<int>(i));
    }
    // Identical (memory, runtime) items form one group (the layers of a model repeat); best ratio first.
    std::stable_sort(open.begin(), open.end(), [&](int a, int b) {
        const auto ka = static_cast<std::size_t>(a), kb = static_cast<std::size_t>(b);
        const double ra = runtime[ka] / memory[ka], rb = runtime[kb] / memory[kb];
        if (ra != rb)
            return ra > rb;
        if (memory[ka] != memory[kb])
            return memory[ka] > memory[kb];
        return runtime[ka] > runtime[kb];
    });
    for (int i : open) {
        const auto k = static_cast<std::size_t>(i);
        if (m_groups.empty() || m_groups.back().memory != memory[k] || m_groups.back().runtime != runtime[k])
            m_groups.push_back({memory[k], runtime[k], {}});
        m_groups.back().items.push_back(i);
    }

    // The Pareto frontier of (memory, runtime) over the groups, one layer per group: every capacity
    // up to maxMemory is then a binary search (Nemhauser-Ullmann with dominance pruning).
    m_layers.push_back({{0.0, 0.0, -1, 0}});
    std::size_t total = 1;
    for (const auto& group : m_groups) {
        const auto& previous = m_layers.back();
        std::vector<Point> next;
        for (std::size_t p = 0; p < previous.size(); ++p) {
            for (std::size_t k = 0; k <= group.items.size(); ++k) {
                const double weight = previous[p].weight + static_cast<double>(k) * group.memory;
                if (weight > m_capacity)
                    break;
                next.push_back({weight, previous[p].value + static_cast<double>(k) * group.runtime,
                    static_cast<int>(p), static_cast<int>(k)});
            }
        }
        std::stable_sort(next.begin(), next.end(), [](const Point& a, const Point& b) {
            return a.weight != b.weight ? a.weight < b.weight : a.value > b.value;
        });
        std::vector<Point> frontier;
        for (const Point& point : next) {
            if (frontier.empty() || point.value > frontier.back().value)
                frontier.push_back(point); // heavier points must save strictly more
        }
        total += frontier.size();
        if (total > kFrontierLimit) {
            m_layers.clear();
            return; // branch and bound, one capacity at a time
        }
        m_layers.push_back(std::move(frontier));
    }
}

KnapsackResult ExactKnapsackTable::solve(double maxMemory) const
{
    const double capacity = std::max(maxMemory, 0.0) + kTolerance;
    if (capacity > m_capacity * (1 + 1e-12))
        throw Error("ilp knapsack: capacity " + std::to_string(maxMemory) + " is beyond the table's");
    std::vector<int> counts(m_groups.size(), 0);
    if (m_layers.empty()) {
        counts = BranchAndBound(m_groups).run(capacity);
    } else {
        const auto& last = m_layers.back();
        const auto it = std::upper_bound(
            last.begin(), last.end(), capacity, [](double c, const Point& p) { return c < p.weight; });
        int index = static_cast<int>(it - last.begin()) - 1; // the heaviest fitting point saves the most
        for (std::size_t layer = m_layers.size() - 1; layer > 0; --layer) {
            const Point& point = m_layers[layer][static_cast<std::size_t>(index)];
            counts[layer - 1] = point.count;
            index = point.parent;
        }
    }
    std::vector<char> save = m_free;
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        for (int c = 0; c < counts[g]; ++c)
            save[static_cast<std::size_t>(m_groups[g].items[static_cast<std::size_t>(c)])] = 1;
    }
    KnapsackResult result;
    for (std::size_t i = 0; i < save.size(); ++i) {
        if (save[i]) {
            result.saved.push_back(static_cast<int>(i));
            result.value += m_runtime[i];
        } else {
            result.recomputed.push_back(static_cast<int>(i));
        }
    }
    return result;
}

KnapsackResult ilpKnapsack(std::span<const double> memory, std::span<const double> runtime, double maxMemory)
{
    return ExactKnapsackTable(memory, runtime, maxMemory).solve(maxMemory);
}

} // namespace remat
