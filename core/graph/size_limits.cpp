// SPDX-License-Identifier: MIT
#include "graph/size_limits.h"

namespace remat {

std::optional<std::int64_t> checkedTensorBytes(const TensorMeta& tensor)
{
    for (const std::int64_t dim : tensor.shape) {
        if (dim < 0)
            return std::nullopt;
        if (dim == 0)
            return 0; // an empty tensor, however large its other sizes
    }
    std::int64_t bytes = dtypeItemSize(tensor.dtype);
    for (const std::int64_t dim : tensor.shape) {
        if (__builtin_mul_overflow(bytes, dim, &bytes))
            return std::nullopt;
    }
    return bytes;
}

std::string describeTensor(const TensorMeta& tensor)
{
    std::string text = "[";
    for (std::size_t i = 0; i < tensor.shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(tensor.shape[i]);
    return text + "] " + std::string(dtypeName(tensor.dtype));
}

} // namespace remat
