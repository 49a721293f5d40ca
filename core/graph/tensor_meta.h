// SPDX-License-Identifier: MIT
#pragma once

#include "graph/dtype.h"

#include <cstdint>
#include <string>
#include <vector>

namespace remat {

/// Shape, dtype, stride and device of one tensor value (the format's TensorMeta).
struct TensorMeta {
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> stride;
    Dtype dtype = Dtype::Float32;
    std::string device;

    /// JointGraphBuilder::finish() rejects tensors whose numel x itemsize overflows, so graphs never do.
    std::int64_t numel() const
    {
        std::int64_t n = 1;
        for (auto d : shape) {
            if (d == 0)
                return 0;
        }
        for (auto d : shape)
            n *= d;
        return n;
    }
    /// numel x itemsize: what PyTorch's `_size_of` returns for a tensor.
    std::int64_t bytes() const { return numel() * dtypeItemSize(dtype); }
};

} // namespace remat
