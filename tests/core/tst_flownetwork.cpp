// SPDX-License-Identifier: MIT
// The minimum cut: its value, and that it is the cut networkx returns (closest to the sink),
// checked against brute force on random small networks.
#include "graph/error.h"
#include "partition/flow_network.h"

#include <QTest>

#include <random>

using namespace remat;

namespace {

struct BruteForce {
    FlowNetwork::Capacity value = -1;
    std::vector<char> sinkSide; // the smallest sink side among all minimum cuts
};

/// Enumerates every source/sink split; the sink-closest minimum cut has the smallest sink side,
/// and it is contained in every other minimum cut's sink side.
BruteForce bruteForce(const FlowNetwork& network)
{
    const int n = network.vertexCount();
    const FlowNetwork::Capacity infinity = std::numeric_limits<FlowNetwork::Capacity>::max() / 4;
    BruteForce best;
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
        const auto inSink = [&](int v) { return ((mask >> v) & 1u) != 0; };
        if (inSink(FlowNetwork::kSource) || !inSink(FlowNetwork::kSink))
            continue;
        FlowNetwork::Capacity value = 0;
        for (const auto& e : network.edges()) {
            if (!inSink(e.from) && inSink(e.to))
                value = std::min(infinity, value + (e.infinite ? infinity : e.capacity));
        }
        const auto count = __builtin_popcount(mask);
        const auto bestCount
            = best.value < 0 ? 99 : std::count(best.sinkSide.begin(), best.sinkSide.end(), 1);
        if (best.value < 0 || value < best.value || (value == best.value && count < bestCount)) {
            best.value = value;
            best.sinkSide.assign(static_cast<std::size_t>(n), 0);
            for (int v = 0; v < n; ++v)
                best.sinkSide[static_cast<std::size_t>(v)] = inSink(v) ? 1 : 0;
        }
    }
    return best;
}

} // namespace

class TestFlowNetwork : public QObject {
    Q_OBJECT

private slots:
    void cutsTheCheapestEdges()
    {
        // source -> 2 -(5)-> 3 -(3)-> sink, and 2 -(4)-> sink
        FlowNetwork network(4);
        network.addInfiniteEdge(FlowNetwork::kSource, 2);
        network.addEdge(2, 3, 5);
        network.addEdge(3, FlowNetwork::kSink, 3);
        network.addEdge(2, FlowNetwork::kSink, 4);
        const auto cut = network.minimumCut();
        QVERIFY(cut);
        QCOMPARE(cut->value, 7);
        QCOMPARE(cut->cutEdges, (std::vector<int> {2, 3}));
    }

    void prefersTheCutClosestToTheSink()
    {
        // Two cuts of value 5: (2->3) and (3->sink). networkx, and so PyTorch, takes 3->sink.
        FlowNetwork network(4);
        network.addInfiniteEdge(FlowNetwork::kSource, 2);
        network.addEdge(2, 3, 5);
        network.addEdge(3, FlowNetwork::kSink, 5);
        const auto cut = network.minimumCut();
        QVERIFY(cut);
        QCOMPARE(cut->value, 5);
        QCOMPARE(cut->cutEdges, std::vector<int> {2});
    }

    void zeroCapacityEdgesAreAlwaysCut()
    {
        FlowNetwork network(4);
        network.addInfiniteEdge(FlowNetwork::kSource, 2);
        network.addEdge(2, 3, 0);
        network.addInfiniteEdge(3, FlowNetwork::kSink);
        const auto cut = network.minimumCut();
        QVERIFY(cut);
        QCOMPARE(cut->value, 0);
        QCOMPARE(cut->cutEdges, std::vector<int> {1});
    }

    void reportsAnInfinitePath()
    {
        FlowNetwork network(4);
        network.addInfiniteEdge(FlowNetwork::kSource, 2);
        network.addInfiniteEdge(2, 3);
        network.addEdge(2, FlowNetwork::kSink, 1);
        network.addInfiniteEdge(3, FlowNetwork::kSink);
        QVERIFY(!network.minimumCut());
        QCOMPARE(network.infinitePath(), (std::vector<int> {0, 2, 3, 1}));
    }

    void matchesBruteForce_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 300; ++seed)
            QTest::addRow("seed %d", seed) << seed;
    }

    void matchesBruteForce()
    {
        QFETCH(int, seed);
        std::mt19937 random(static_cast<std::uint32_t>(seed));
        const int n = 4 + static_cast<int>(random() % 7); // 4..10 vertices
        FlowNetwork network(n);
        std::vector<std::vector<char>> used(
            static_cast<std::size_t>(n), std::vector<char>(static_cast<std::size_t>(n), 0));
        const int edges = n + static_cast<int>(random() % static_cast<unsigned>(2 * n));
        for (int i = 0; i < edges; ++i) {
            const int from = static_cast<int>(random() % static_cast<unsigned>(n));
            const int to = static_cast<int>(random() % static_cast<unsigned>(n));
            if (from == to || to == FlowNetwork::kSource || from == FlowNetwork::kSink
                || used[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)])
                continue;
            used[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)] = 1;
            if (random() % 5 == 0)
                network.addInfiniteEdge(from, to);
            else
                network.addEdge(
                    from, to, static_cast<FlowNetwork::Capacity>(random() % 4)); // small: many ties
        }
        const auto expected = bruteForce(network);
        const auto cut = network.minimumCut();
        if (!cut) {
            QVERIFY(!network.infinitePath().empty());
            QVERIFY(expected.value >= std::numeric_limits<FlowNetwork::Capacity>::max() / 4);
            return;
        }
        QCOMPARE(cut->value, expected.value);
        QCOMPARE(cut->sinkSide, expected.sinkSide);
    }
};

QTEST_GUILESS_MAIN(TestFlowNetwork)
#include "tst_flownetwork.moc"
