// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace remat {

/// A node target, split the way PyTorch's `get_aten_target` sees it.
struct OpInfo {
    std::string target; ///< as written: "aten.mm.default", "_operator.getitem", "primals_1"
    std::string packet; ///< overload packet "aten.mm" for op overloads, else the target itself
    std::string nameSpace; ///< "aten", "prims", "_c10d_functional"...; empty for non-overloads
    std::string name; ///< "mm"; the last component for Python callables ("getitem")
    bool isOverload = false;
};

/// Splits a target string; an op overload is "namespace.name.overload" outside Python's own modules.
OpInfo describeTarget(std::string_view target);

} // namespace remat
