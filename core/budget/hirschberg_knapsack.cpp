// SPDX-License-Identifier: MIT
// PyTorch 2.14's dp_knapsack_sliding_hirschberg (torch/_functorch/_activation_checkpointing/
// knapsack.py), rewritten: the same divide and conquer, the same float32 sums, argmax split points,
// capacity arithmetic and leaf rule, so it makes the same choices, including where it departs from
// the optimum (the right half gets one unit more than the split leaves it).
#include "budget/knapsack.h"

#include "graph/error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

namespace remat {
namespace {

/// torch.maximum: NaN wins.
float nanMaximum(float a, float b)
{
    if (std::isnan(a))
        return a;
    if (std::isnan(b))
        return b;
    return a < b ? b : a;
}

/// torch.argmax on a 1-D float tensor: the first maximum, a NaN counting as the maximum.
std::size_t firstArgmax(const std::vector<float>& values, std::size_t size)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < size; ++i) {
        if (std::isnan(values[best]))
            break;
        if (std::isnan(values[i]) || values[i] > values[best])
            best = i;
    }
    return best;
}

struct Segment {
    std::size_t start;
    std::size_t end;
    std::int64_t capacity;
};

class SlidingHirschberg {
public:
    SlidingHirschberg(
        std::span<const double> runtime, std::vector<std::int64_t> qMemory, std::int64_t qMaxMemory)
        : m_runtime(runtime)
        , m_qMemory(std::move(qMemory))
        , m_qMaxMemory(qMaxMemory)
        , m_profile(static_cast<std::size_t>(qMaxMemory) + 1)
        , m_candidate(m_profile.size())
        , m_left(m_profile.size())
    { }

    void run(std::vector<int>& saved, std::vector<int>& recomputed)
    {
        // LIFO as 2.14's explicit stack (the order does not change the answer: every segment's
        // choice depends only on its own capacity).
        std::vector<Segment> stack {{0, m_qMemory.size(), m_qMaxMemory}};
        while (!stack.empty()) {
            const Segment segment = stack.back();
            stack.pop_back();
            const std::size_t length = segment.end - segment.start;
            if (length == 0)
                continue;
            if (length == 1) {
                const std::size_t index = segment.start;
                const bool fits = m_qMemory[index] <= segment.capacity && m_runtime[index] > 0.0;
                (fits ? saved : recomputed).push_back(static_cast<int>(index));
                continue;
            }
            // 2.14 calls [middle, end) the left half and [start, middle) the right half.
            const std::size_t middle = segment.start + length / 2;
            const std::int64_t width = segment.capacity + 1;
            const auto uwidth = static_cast<std::size_t>(width);

            fillProfile(middle, segment.end, width);
            std::copy_n(m_profile.begin(), uwidth, m_left.begin());
            fillProfile(segment.start, middle, width);
            // left[i] + right[width - 1 - i]: the right profile reversed, added in float32.
            for (std::size_t i = 0; i < uwidth; ++i)
                m_left[i] = m_left[i] + m_profile[uwidth - 1 - i];
            const auto split = static_cast<std::int64_t>(firstArgmax(m_left, uwidth));

            // 2.14's clamps; the right capacity is width - split, one more than the split leaves.
            const std::int64_t leftCapacity = std::clamp<std::int64_t>(split, 0, m_qMaxMemory);
            const std::int64_t rightCapacity = std::clamp<std::int64_t>(width - split, 0, m_qMaxMemory);
            stack.push_back({segment.start, middle, rightCapacity});
            stack.push_back({middle, segment.end, leftCapacity});
        }
    }

private:
    /// The 0-1 knapsack profile of items [first, last) over capacities 0..width-1, in float32.
    void fillProfile(std::size_t first, std::size_t last, std::int64_t width)
    {
        const auto uwidth = static_cast<std::size_t>(width);
        std::fill_n(m_profile.begin(), uwidth, 0.0f);
        for (std::size_t index = first; index < last; ++index) {
            const std::int64_t memory = m_qMemory[index];
            // A Python float added to a float32 tensor: the scalar is cast to float32 first.
            const auto runtime = static_cast<float>(m_runtime[index]);
            if (memory == 0) {
                for (std::size_t j = 0; j < uwidth; ++j)
                    m_profile[j] = m_profile[j] + runtime;
                continue;
            }
            if (memory >= width)
                continue; // too heavy for any capacity of this segment
            const auto um = static_cast<std::size_t>(memory);
            const std::size_t shifted = uwidth - um;
            for (std::size_t j = 0; j < shifted; ++j)
                m_candidate[j] = m_profile[j] + runtime;
            for (std::size_t j = 0; j < shifted; ++j)
                m_profile[um + j] = nanMaximum(m_profile[um + j], m_candidate[j]);
        }
    }

    std::span<const double> m_runtime;
    std::vector<std::int64_t> m_qMemory;
    std::int64_t m_qMaxMemory;
    std::vector<float> m_profile; ///< the current row
    std::vector<float> m_candidate; ///< the current row shifted by an item, plus its runtime
    std::vector<float> m_left; ///< the left half's row, then the split sums
};

} // namespace

KnapsackResult hirschbergKnapsack(
    std::span<const double> memory, std::span<const double> runtime, double maxMemory)
{
    if (memory.size() != runtime.size())
        throw Error("dp_knapsack_sliding_hirschberg: " + std::to_string(memory.size()) + " memories but "
            + std::to_string(runtime.size()) + " runtimes");
    KnapsackResult result;
    if (memory.empty())
        return result;
    const std::int64_t qMaxMemory = DpKnapsackTable::quantize(maxMemory);
    if (qMaxMemory < 0)
        throw Error("dp_knapsack_sliding_hirschberg: negative capacity " + std::to_string(maxMemory));
    if (qMaxMemory > DpKnapsackTable::kScale * std::int64_t {1000})
        throw Error("dp_knapsack_sliding_hirschberg: capacity " + std::to_string(maxMemory)
            + " is beyond any memory budget (at most 1)");
    std::vector<std::int64_t> qMemory;
    qMemory.reserve(memory.size());
    for (std::size_t i = 0; i < memory.size(); ++i) {
        qMemory.push_back(DpKnapsackTable::quantize(memory[i]));
        if (qMemory.back() < 0)
            throw Error("dp_knapsack_sliding_hirschberg: item " + std::to_string(i) + " has negative memory "
                + std::to_string(memory[i]));
    }
    SlidingHirschberg(runtime, std::move(qMemory), qMaxMemory).run(result.saved, result.recomputed);
    std::sort(result.saved.begin(), result.saved.end());
    std::sort(result.recomputed.begin(), result.recomputed.end(), std::greater<> {});
    for (int i : result.saved)
        result.value += runtime[static_cast<std::size_t>(i)]; // Python's sum, in ascending order
    return result;
}

} // namespace remat
