// SPDX-License-Identifier: MIT
#pragma once

#include "graph/tensor_meta.h"

#include <cstdint>
#include <optional>
#include <string>

namespace remat {

/// The most tensor bytes one graph may hold in all (256 TiB). The min-cut weighs a value at up to
/// bytes x 1.1^100 x 2 (about 27 562 x bytes) and sums every finite weight; under this limit that
/// sum fits in 64 bits, so no capacity can wrap around to a negative number.
inline constexpr std::int64_t kMaxGraphTensorBytes = std::int64_t {1} << 48;

/// numel x itemsize, or nullopt when a size is negative or the product does not fit in 64 bits.
std::optional<std::int64_t> checkedTensorBytes(const TensorMeta& tensor);

/// "[4, -1] float32": a tensor as messages show it.
std::string describeTensor(const TensorMeta& tensor);

} // namespace remat
