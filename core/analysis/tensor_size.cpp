// SPDX-License-Identifier: MIT
#include "analysis/tensor_size.h"

#include "graph/error.h"

namespace remat {

std::int64_t partitionerSizeOf(const Node& node, RuleSet rules)
{
    if (rules == RuleSet::Torch113) {
        if (!node.hasTensorMeta())
            throw Error("node '" + node.name + "' has no single-tensor value to size");
        const TensorMeta& t = node.tensor();
        if (!dtypeKnownToTorch113(t.dtype))
            throw Error("node '" + node.name + "': torch 1.13's partitioner cannot size dtype "
                + std::string(dtypeName(t.dtype)) + " (its _size_of raises NotImplementedError)");
        return t.bytes();
    }
    if (node.valueKind == ValueKind::Symbolic)
        return 1; // 2.14's _size_of of a SymInt/SymFloat/SymBool
    return valueBytes(node);
}

std::int64_t valueBytes(const Node& node)
{
    std::int64_t total = 0;
    for (const auto& value : node.values) {
        if (value)
            total += value->bytes();
    }
    return total;
}

} // namespace remat
