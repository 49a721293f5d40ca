// SPDX-License-Identifier: MIT
#include "partition/distance_scale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace remat {
namespace {

constexpr int kLargestExponent = 100;

} // namespace

double distanceScale(int distFromBackward)
{
    static const auto scales = [] {
        std::array<double, kLargestExponent + 1> table {};
        for (int exponent = 1; exponent <= kLargestExponent; ++exponent)
            table[static_cast<std::size_t>(exponent)] = std::pow(1.1, exponent);
        return table;
    }();
    return scales[static_cast<std::size_t>(std::clamp(distFromBackward, 1, kLargestExponent))];
}

} // namespace remat
