// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace remat {

/// The knapsack solvers of PyTorch's memory budget (reference doc section 5.3). An item is a node
/// the aggressive min-cut had to ban: keeping it banned (saving it) costs `memory` (a fraction of
/// the activation range) and gains `runtime` (recomputation avoided).
enum class KnapsackSolver { Dp, Greedy, Ilp, DpSlidingHirschberg };

/// Every solver, in the order menus and messages list them.
inline constexpr std::array kKnapsackSolvers {
    KnapsackSolver::Dp, KnapsackSolver::Greedy, KnapsackSolver::Ilp, KnapsackSolver::DpSlidingHirschberg};

/// PyTorch's activation_memory_budget_solver names.
std::string_view solverName(KnapsackSolver solver);
std::optional<KnapsackSolver> parseSolver(std::string_view name);
/// "dp, greedy, ilp or dp_knapsack_sliding_hirschberg", for usage messages.
std::string solverChoices();

struct KnapsackResult {
    double value = 0; ///< runtime of the saved items, as the solver reports it
    std::vector<int> saved; ///< item indices, in the solver's order
    std::vector<int> recomputed; ///< item indices, in the solver's order
};

/// greedy_knapsack: items by runtime/memory, descending (stable; zero memory counts as infinite
/// ratio where Python would divide by zero), each taken while it fits.
KnapsackResult greedyKnapsack(
    std::span<const double> memory, std::span<const double> runtime, double maxMemory);

/// dp_knapsack: memory quantized to 1/10000 with round-half-to-even, a float32 table, backtracking
/// from the full capacity: saved ascending, recomputed descending.
KnapsackResult dpKnapsack(std::span<const double> memory, std::span<const double> runtime, double maxMemory);

/// dp_knapsack_sliding_hirschberg: the same quantized problem as dp, solved by divide and conquer
/// over one float32 profile (hirschberg_knapsack.cpp). Its own tie-breaking and capacity
/// arithmetic mean it need not agree with dpKnapsack. saved ascending, recomputed descending;
/// value is the double sum of the saved runtimes. Throws remat::Error on a negative memory or
/// capacity (2.14 cannot index its tables with one).
KnapsackResult hirschbergKnapsack(
    std::span<const double> memory, std::span<const double> runtime, double maxMemory);

/// ilp_knapsack's problem (maximise saved runtime subject to total memory <= maxMemory, plus a
/// 1e-9 feasibility tolerance), solved exactly (see ExactKnapsackTable). saved and recomputed
/// ascending. Throws remat::Error if the fallback search exceeds its node limit.
KnapsackResult ilpKnapsack(std::span<const double> memory, std::span<const double> runtime, double maxMemory);

/// The exact knapsack for every capacity up to maxMemory: identical items are grouped (a model's
/// layers repeat), and the Pareto frontier of (memory, saved runtime) is built group by group with
/// dominance pruning, so each capacity is a binary search and a backtrack. Beyond four million
/// frontier points it falls back to branch and bound per capacity. Among equal optima it keeps the
/// lightest, and within a group the lowest indices.
class ExactKnapsackTable {
public:
    struct Group {
        double memory;
        double runtime;
        std::vector<int> items; // ascending index
    };

    ExactKnapsackTable(
        std::span<const double> memory, std::span<const double> runtime, double maxMemory = 1.0);
    KnapsackResult solve(double maxMemory) const;

private:
    struct Point {
        double weight;
        double value;
        int parent; // index in the previous layer
        int count; // items of this layer's group taken
    };
    std::vector<double> m_runtime;
    std::vector<char> m_free;
    std::vector<Group> m_groups;
    std::vector<std::vector<Point>> m_layers; // empty: branch and bound instead
    double m_capacity = 0;
};

/// dp_knapsack for many capacities at once: the table does not depend on the capacity, so it is
/// built once (with one bit per cell recording whether the item changed the value) and each
/// capacity only backtracks. solve(m) returns exactly dpKnapsack(memory, runtime, m).
class DpKnapsackTable {
public:
    static constexpr int kScale = 10000;

    DpKnapsackTable(std::span<const double> memory, std::span<const double> runtime, double maxMemory = 1.0);
    KnapsackResult solve(double maxMemory) const;

    /// round(m * 10000), half to even, as Python's round.
    static std::int64_t quantize(double m);

private:
    std::vector<std::int64_t> m_qmem;
    std::int64_t m_capacity = 0; ///< largest quantized capacity the table covers
    std::vector<std::uint64_t> m_changed; ///< n rows of (capacity + 1) bits
    std::size_t m_wordsPerRow = 0;
    std::vector<float> m_lastRow; ///< dp[n][*]
};

} // namespace remat
