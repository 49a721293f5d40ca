// SPDX-License-Identifier: MIT
#include "model/repeated_blocks.h"

#include <algorithm>
#include <limits>

namespace remat::ui {

std::vector<int> cutWidths(int length, std::span<const std::pair<int, int>> edges)
{
    std::vector<int> diff(static_cast<std::size_t>(length) + 2, 0);
    for (const auto& [from, to] : edges) {
        if (from < to) {
            ++diff[static_cast<std::size_t>(from) + 1];
            --diff[static_cast<std::size_t>(to) + 1];
        }
    }
    std::vector<int> cross(static_cast<std::size_t>(length) + 1, 0);
    int running = 0;
    for (int i = 0; i <= length; ++i) {
        running += diff[static_cast<std::size_t>(i)];
        cross[static_cast<std::size_t>(i)] = running;
    }
    return cross;
}

namespace {

double matchScore(std::span<const std::uint32_t> ops, int period)
{
    const std::size_t n = ops.size();
    const std::size_t pairs = n - static_cast<std::size_t>(period);
    const std::uint32_t* a = ops.data();
    const std::uint32_t* b = ops.data() + period;
    // Fixed-size chunks, which the compiler turns into vector compares: this loop runs for
    // thousands of periods over a 100k-node graph's forward.
    constexpr std::size_t kChunk = 64;
    std::size_t matches = 0;
    std::size_t i = 0;
    for (; i + kChunk <= pairs; i += kChunk) {
        std::uint32_t chunk = 0;
        for (std::size_t k = 0; k < kChunk; ++k)
            chunk += a[i + k] == b[i + k] ? 1U : 0U;
        matches += chunk;
    }
    for (; i < pairs; ++i)
        matches += a[i] == b[i] ? 1 : 0;
    return static_cast<double>(matches) / static_cast<double>(pairs);
}

double similarity(std::span<const std::uint32_t> ops, const Segment& a, const Segment& b)
{
    const int len = std::min(a.size(), b.size());
    if (len == 0)
        return 0;
    int same = 0;
    for (int i = 0; i < len; ++i)
        same += ops[static_cast<std::size_t>(a.begin + i)] == ops[static_cast<std::size_t>(b.begin + i)] ? 1
                                                                                                         : 0;
    return static_cast<double>(same) / std::max(a.size(), b.size());
}

} // namespace

std::vector<Segment> findRepeatedBlocks(std::span<const std::uint32_t> ops, std::span<const int> cross,
    int minPeriod, int minRepeats, double minScore)
{
    const int n = static_cast<int>(ops.size());
    const int maxPeriod = std::min(n / minRepeats, 4000);
    if (maxPeriod < minPeriod)
        return {};
    std::vector<double> scores(static_cast<std::size_t>(maxPeriod) + 1, 0.0);
    double best = 0;
    for (int p = minPeriod; p <= maxPeriod; ++p) {
        scores[static_cast<std::size_t>(p)] = matchScore(ops, p);
        best = std::max(best, scores[static_cast<std::size_t>(p)]);
    }
    if (best < minScore)
        return {};
    // Multiples of the true period score about as well: take the shortest that is nearly best.
    int period = minPeriod;
    while (scores[static_cast<std::size_t>(period)] < best - 0.03)
        ++period;

    // Phase: the offset whose cuts cross the fewest edges on average.
    int phase = 0;
    double bestCost = std::numeric_limits<double>::max();
    for (int phi = 0; phi < period; ++phi) {
        double cost = 0;
        int cuts = 0;
        for (int c = phi; c <= n; c += period) {
            cost += cross[static_cast<std::size_t>(c)];
            ++cuts;
        }
        cost /= std::max(cuts, 1);
        if (cost < bestCost) {
            bestCost = cost;
            phase = phi;
        }
    }

    std::vector<Segment> pieces;
    if (phase > 0)
        pieces.push_back({0, phase, false});
    for (int c = phase; c + period <= n; c += period)
        pieces.push_back({c, c + period, false});
    if (pieces.empty() || pieces.back().end < n)
        pieces.push_back({pieces.empty() ? 0 : pieces.back().end, n, false});

    // A piece is a block when it looks like a neighbour; the others are prologue/epilogue.
    int blocks = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].size() != period)
            continue;
        const bool likePrev = i > 0 && similarity(ops, pieces[i], pieces[i - 1]) >= minScore;
        const bool likeNext = i + 1 < pieces.size() && similarity(ops, pieces[i], pieces[i + 1]) >= minScore;
        pieces[i].repeated = likePrev || likeNext;
        blocks += pieces[i].repeated ? 1 : 0;
    }
    if (blocks < minRepeats)
        return {};

    // Merge consecutive non-block pieces.
    std::vector<Segment> merged;
    for (const Segment& s : pieces) {
        if (!merged.empty() && !s.repeated && !merged.back().repeated)
            merged.back().end = s.end;
        else
            merged.push_back(s);
    }
    return merged;
}

std::vector<Segment> chunkAtSeams(int begin, int end, std::span<const int> cross, int target)
{
    std::vector<Segment> chunks;
    int start = begin;
    while (end - start > target * 3 / 2) {
        int cut = start + target;
        for (int c = start + target / 2; c <= std::min(end - target / 2, start + target * 3 / 2); ++c) {
            if (cross[static_cast<std::size_t>(c)] < cross[static_cast<std::size_t>(cut)])
                cut = c;
        }
        chunks.push_back({start, cut, false});
        start = cut;
    }
    if (end > start)
        chunks.push_back({start, end, false});
    return chunks;
}

} // namespace remat::ui
