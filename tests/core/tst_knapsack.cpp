// SPDX-License-Identifier: MIT
// The memory-budget knapsack solvers: PyTorch's greedy and quantized dp (with their quirks), and
// our exact ilp, checked against brute force.
#include "budget/knapsack.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace remat;

namespace {

/// The best runtime any subset fitting in maxMemory (1e-9 tolerance, as ilpKnapsack) can save.
double bruteForce(const std::vector<double>& memory, const std::vector<double>& runtime, double maxMemory)
{
    const std::size_t n = memory.size();
    double best = 0;
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
        double m = 0, r = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (mask & (1u << i)) {
                m += memory[i];
                r += runtime[i];
            }
        }
        if (m <= maxMemory + 1e-9)
            best = std::max(best, r);
    }
    return best;
}

struct Instance {
    std::vector<double> memory;
    std::vector<double> runtime;
};

Instance randomInstance(unsigned seed, std::size_t n)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> mem(0.0, 0.4);
    std::uniform_int_distribution<int> rt(1, 50);
    Instance instance;
    for (std::size_t i = 0; i < n; ++i) {
        instance.memory.push_back(
            seed % 3 == 0 ? std::round(mem(rng) * 20) / 20 : mem(rng)); // some exact ties
        instance.runtime.push_back(rt(rng));
    }
    return instance;
}

} // namespace

class TestKnapsack : public QObject {
    Q_OBJECT

private slots:
    void solverNames()
    {
        QCOMPARE(parseSolver("dp"), std::optional(KnapsackSolver::Dp));
        QCOMPARE(parseSolver("greedy"), std::optional(KnapsackSolver::Greedy));
        QCOMPARE(parseSolver("ilp"), std::optional(KnapsackSolver::Ilp));
        QVERIFY(!parseSolver("dynamic_memory_budget_dp"));
    }

    void greedyTakesBestRatioFirst()
    {
        // ratios 6, 6.67, 5, inf (zero memory, where Python would divide by zero)
        const std::vector<double> memory {0.5, 0.3, 0.2, 0.0};
        const std::vector<double> runtime {3, 2, 1, 7};
        const auto r = greedyKnapsack(memory, runtime, 0.5);
        QCOMPARE(r.saved, (std::vector<int> {3, 1, 2}));
        QCOMPARE(r.recomputed, (std::vector<int> {0}));
        QCOMPARE(r.value, 10.0);
    }

    void greedyKeepsOrderOfEqualRatios()
    {
        // Equal ratios stay in index order (Python's stable sorted(reverse=True)).
        const std::vector<double> memory {0.2, 0.4, 0.2};
        const std::vector<double> runtime {1, 2, 1};
        const auto r = greedyKnapsack(memory, runtime, 0.4);
        QCOMPARE(r.saved, (std::vector<int> {0, 2}));
        QCOMPARE(r.recomputed, (std::vector<int> {1}));
    }

    void dpBreaksTiesLikePyTorch()
    {
        // {0} and {1, 2} both save 3: the float32 table keeps the first item, the backtrack reports
        // recomputed items in descending index order.
        const std::vector<double> memory {0.5, 0.3, 0.2};
        const std::vector<double> runtime {3, 2, 1};
        const auto r = dpKnapsack(memory, runtime, 0.5);
        QCOMPARE(r.saved, (std::vector<int> {0}));
        QCOMPARE(r.recomputed, (std::vector<int> {2, 1}));
        QCOMPARE(r.value, 3.0);
    }

    void dpQuantizesHalfToEven()
    {
        // Python's round(m * 10000), checked against CPython: the product is rounded first.
        QCOMPARE(DpKnapsackTable::quantize(0.00005), std::int64_t {0}); // 0.5 -> 0
        QCOMPARE(DpKnapsackTable::quantize(0.00015), std::int64_t {1}); // 1.4999999999999998 -> 1
        QCOMPARE(DpKnapsackTable::quantize(0.00025), std::int64_t {2}); // 2.5 -> 2
        QCOMPARE(DpKnapsackTable::quantize(0.00035), std::int64_t {4}); // 3.5 -> 4
        QCOMPARE(DpKnapsackTable::quantize(0.00045), std::int64_t {4}); // 4.5 -> 4
        // An item that rounds to zero memory is always saved when it saves anything.
        const std::vector<double> memory {0.00005};
        const std::vector<double> runtime {1};
        const auto r = dpKnapsack(memory, runtime, 0.0);
        QCOMPARE(r.saved, (std::vector<int> {0}));
    }

    void dpNeverCastsAnUnrepresentableMemory()
    {
        // A memory normalised by a tiny max_act - min_act can exceed int64 once scaled, or be inf:
        // it quantizes to "beyond any table" instead of an undefined cast, and is never saved.
        constexpr std::int64_t kBeyond = std::int64_t {1} << 62;
        QCOMPARE(DpKnapsackTable::quantize(1e300), kBeyond);
        QCOMPARE(DpKnapsackTable::quantize(std::numeric_limits<double>::infinity()), kBeyond);
        QCOMPARE(DpKnapsackTable::quantize(std::numeric_limits<double>::quiet_NaN()), kBeyond);
        QCOMPARE(DpKnapsackTable::quantize(-1e300), -kBeyond);
        const std::vector<double> memory {1e300, 0.5};
        const std::vector<double> runtime {100, 1};
        QCOMPARE(dpKnapsack(memory, runtime, 1.0).saved, (std::vector<int> {1}));
    }

    void dpTableIsFloat32()
    {
        // 1e10 + 1 == 1e10 in float32: the zero-memory item does not change the table, so the
        // backtrack recomputes it, as PyTorch's torch.float32 table does.
        const std::vector<double> memory {0.1, 0.0};
        const std::vector<double> runtime {1e10, 1};
        const auto r = dpKnapsack(memory, runtime, 0.5);
        QCOMPARE(r.saved, (std::vector<int> {0}));
        QCOMPARE(r.recomputed, (std::vector<int> {1}));
    }

    void dpTableAnswersEveryCapacity_data()
    {
        QTest::addColumn<unsigned>("seed");
        for (unsigned seed = 1; seed <= 12; ++seed)
            QTest::addRow("seed %u", seed) << seed;
    }
    void dpTableAnswersEveryCapacity()
    {
        QFETCH(unsigned, seed);
        const auto instance = randomInstance(seed, 9);
        const DpKnapsackTable table(instance.memory, instance.runtime, 1.0);
        for (double capacity = 0; capacity <= 1.0; capacity += 0.0173) {
            const auto once = dpKnapsack(instance.memory, instance.runtime, capacity);
            const auto shared = table.solve(capacity);
            QCOMPARE(shared.saved, once.saved);
            QCOMPARE(shared.recomputed, once.recomputed);
            QCOMPARE(shared.value, once.value);
        }
    }

    void ilpEqualsBruteForce_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<int>("items");
        for (unsigned seed = 1; seed <= 40; ++seed)
            QTest::addRow("seed %u", seed) << seed << static_cast<int>(3 + seed % 10);
    }
    void ilpEqualsBruteForce()
    {
        QFETCH(unsigned, seed);
        QFETCH(int, items);
        const auto instance = randomInstance(seed, static_cast<std::size_t>(items));
        for (double capacity : {0.0, 0.1, 0.25, 0.5, 0.77, 1.0, 3.0}) {
            const auto r = ilpKnapsack(instance.memory, instance.runtime, capacity);
            double used = 0;
            for (int i : r.saved)
                used += instance.memory[static_cast<std::size_t>(i)];
            QVERIFY(used <= capacity + 1e-9);
            QCOMPARE(r.value, bruteForce(instance.memory, instance.runtime, capacity));
            QCOMPARE(r.saved.size() + r.recomputed.size(), instance.memory.size());
        }
    }

    void exactTableAnswersEveryCapacity_data()
    {
        QTest::addColumn<unsigned>("seed");
        for (unsigned seed = 100; seed < 112; ++seed)
            QTest::addRow("seed %u", seed) << seed;
    }
    void exactTableAnswersEveryCapacity()
    {
        QFETCH(unsigned, seed);
        const auto instance = randomInstance(seed, 11);
        const ExactKnapsackTable table(instance.memory, instance.runtime, 1.0);
        for (double capacity = 0; capacity <= 1.0; capacity += 0.0113)
            QCOMPARE(table.solve(capacity).value, bruteForce(instance.memory, instance.runtime, capacity));
    }

    void ilpGroupsRepeatedLayers()
    {
        // 96 identical layers of three item kinds: grouping keeps the search tiny.
        std::vector<double> memory, runtime;
        for (int layer = 0; layer < 96; ++layer) {
            memory.insert(memory.end(), {0.004, 0.002, 0.001});
            runtime.insert(runtime.end(), {8, 3, 1});
        }
        const auto r = ilpKnapsack(memory, runtime, 0.5);
        // Best ratio first: all 96 of kind 0 (0.384), then 58 of kind 1 (0.116): 768 + 174.
        QCOMPARE(r.value, 942.0);
    }

    void dpAndIlpAgreeWhenQuantizationIsExact()
    {
        const std::vector<double> memory {0.2, 0.3, 0.4, 0.1};
        const std::vector<double> runtime {5, 6, 9, 1};
        for (double capacity : {0.3, 0.5, 0.7, 1.0})
            QCOMPARE(
                dpKnapsack(memory, runtime, capacity).value, ilpKnapsack(memory, runtime, capacity).value);
    }
};

QTEST_GUILESS_MAIN(TestKnapsack)
#include "tst_knapsack.moc"
