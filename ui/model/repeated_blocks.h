// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace remat::ui {

/// A run of positions [begin, end) in a sequence.
struct Segment {
    int begin = 0;
    int end = 0;
    bool repeated = false; ///< one instance of the repeating block (not prologue/epilogue)

    int size() const { return end - begin; }
};

/// How many edges of the sequence cross the cut before each position: cross[i] counts the
/// edges u -> v with u < i <= v. Where this is small the graph has a natural seam
/// (between transformer blocks, only the residual stream and a few saved values cross).
std::vector<int> cutWidths(int length, std::span<const std::pair<int, int>> edges);

/// Finds the period of a repeating op sequence (transformer blocks, unrolled RNN steps) and
/// cuts it into blocks at the narrowest seam. Returns no segments when nothing repeats at least
/// `minRepeats` times with `minScore` of the ops matching.
std::vector<Segment> findRepeatedBlocks(std::span<const std::uint32_t> ops, std::span<const int> cross,
    int minPeriod = 8, int minRepeats = 3, double minScore = 0.75);

/// Cuts a sequence into chunks of about `target` positions, each cut at the narrowest seam nearby.
std::vector<Segment> chunkAtSeams(int begin, int end, std::span<const int> cross, int target);

} // namespace remat::ui
