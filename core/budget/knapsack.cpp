// SPDX-License-Identifier: MIT
#include "budget/knapsack.h"

#include "graph/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace remat {

std::string_view solverName(KnapsackSolver solver)
{
    switch (solver) {
    case KnapsackSolver::Dp:
        return "dp";
    case KnapsackSolver::Greedy:
        return "greedy";
    case KnapsackSolver::Ilp:
        return "ilp";
    case KnapsackSolver::DpSlidingHirschberg:
        return "dp_knapsack_sliding_hirschberg";
    }
    return "dp";
}

std::optional<KnapsackSolver> parseSolver(std::string_view name)
{
    for (auto solver : kKnapsackSolvers) {
        if (solverName(solver) == name)
            return solver;
    }
    return std::nullopt;
}

std::string solverChoices()
{
    std::string text;
    for (std::size_t i = 0; i < kKnapsackSolvers.size(); ++i) {
        if (i > 0)
            text += i + 1 == kKnapsackSolvers.size() ? " or " : ", ";
        text += solverName(kKnapsackSolvers[i]);
    }
    return text;
}

KnapsackResult greedyKnapsack(
    std::span<const double> memory, std::span<const double> runtime, double maxMemory)
{
    const std::size_t n = runtime.size();
    std::vector<int> items(n);
    std::iota(items.begin(), items.end(), 0);
    const auto ratio = [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        return memory[k] == 0 ? std::numeric_limits<double>::infinity() : runtime[k] / memory[k];
    };
    // Python's sorted(reverse=True) keeps equal keys in their original order.
    std::stable_sort(items.begin(), items.end(), [&](int a, int b) { return ratio(a) > ratio(b); });
    KnapsackResult result;
    double totalMemory = 0;
    for (int i : items) {
        const auto k = static_cast<std::size_t>(i);
        if (totalMemory + memory[k] <= maxMemory) {
            totalMemory += memory[k];
            result.value += runtime[k];
            result.saved.push_back(i);
        } else {
            result.recomputed.push_back(i);
        }
    }
    return result;
}

std::int64_t DpKnapsackTable::quantize(double m)
{
    // A memory beyond any table (or NaN) never fits; casting it unchecked would be undefined.
    constexpr double kBeyondAnyTable = 0x1p62;
    const double scaled = std::nearbyint(m * kScale); // round half to even
    if (!(std::fabs(scaled) < kBeyondAnyTable))
        return std::isnan(scaled) || scaled > 0 ? std::int64_t {1} << 62 : -(std::int64_t {1} << 62);
    return static_cast<std::int64_t>(scaled);
}

DpKnapsackTable::DpKnapsackTable(
    std::span<const double> memory, std::span<const double> runtime, double maxMemory)
    : m_capacity(std::max<std::int64_t>(quantize(maxMemory), 0))
{
    const std::size_t n = memory.size();
    const auto width = static_cast<std::size_t>(m_capacity) + 1;
    m_wordsPerRow = (width + 63) / 64;
    m_changed.assign(n * m_wordsPerRow, 0);
    m_qmem.reserve(n);
    std::vector<float> row(width, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t w = quantize(memory[i]);
        m_qmem.push_back(w);
        const auto rt = static_cast<float>(runtime[i]); // torch.tensor(runtime, dtype=float32)
        std::uint64_t* bits = m_changed.data() + i * m_wordsPerRow;
        const auto mark = [&](std::size_t j) { bits[j / 64] |= std::uint64_t {1} << (j % 64); };
        if (w == 0) {
            for (std::size_t j = 0; j < width; ++j) {
                const float next = row[j] + rt;
                if (next != row[j])
                    mark(j);
                row[j] = next;
            }
        } else if (w > 0 && static_cast<std::size_t>(w) < width) {
            const auto uw = static_cast<std::size_t>(w);
            // Descending j reads row[j - w] before this item overwrote it: the previous row.
            for (std::size_t j = width; j-- > uw;) {
                const float with = row[j - uw] + rt;
                if (with > row[j]) {
                    row[j] = with;
                    mark(j);
                }
            }
        }
    }
    m_lastRow = std::move(row);
}

KnapsackResult DpKnapsackTable::solve(double maxMemory) const
{
    std::int64_t j = quantize(maxMemory);
    if (j < 0 || j > m_capacity)
        throw Error("dp knapsack: capacity " + std::to_string(maxMemory) + " is outside the table built for "
            + std::to_string(static_cast<double>(m_capacity) / kScale));
    KnapsackResult result;
    result.value = static_cast<double>(m_lastRow[static_cast<std::size_t>(j)]);
    for (std::size_t i = m_qmem.size(); i-- > 0;) {
        const std::uint64_t* bits = m_changed.data() + i * m_wordsPerRow;
        const auto uj = static_cast<std::size_t>(j);
        if ((bits[uj / 64] >> (uj % 64)) & 1) {
            result.saved.push_back(static_cast<int>(i));
            j -= m_qmem[i];
        } else {
            result.recomputed.push_back(static_cast<int>(i));
        }
    }
    std::reverse(result.saved.begin(), result.saved.end());
    return result;
}

KnapsackResult dpKnapsack(std::span<const double> memory, std::span<const double> runtime, double maxMemory)
{
    return DpKnapsackTable(memory, runtime, maxMemory).solve(maxMemory);
}

} // namespace remat
