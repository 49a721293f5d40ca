// SPDX-License-Identifier: MIT
#include "graph/op_info.h"

#include <array>

namespace remat {
namespace {

// Python modules whose callables appear as FX targets; "math.floor" is a function, not an op.
constexpr std::array<std::string_view, 8> kPythonModules {
    "_operator", "operator", "builtins", "torch", "math", "functools", "_functools", "typing"};

bool isPythonModule(std::string_view head)
{
    for (auto m : kPythonModules) {
        if (m == head)
            return true;
    }
    return false;
}

} // namespace

OpInfo describeTarget(std::string_view target)
{
    OpInfo info;
    info.target = std::string(target);
    const auto firstDot = target.find('.');
    const auto lastDot = target.rfind('.');
    const bool threeParts = firstDot != std::string_view::npos && lastDot != firstDot
        && target.find('.', firstDot + 1) == lastDot;
    if (threeParts && !isPythonModule(target.substr(0, firstDot))) {
        info.isOverload = true;
        info.nameSpace = std::string(target.substr(0, firstDot));
        info.name = std::string(target.substr(firstDot + 1, lastDot - firstDot - 1));
        info.packet = std::string(target.substr(0, lastDot));
        return info;
    }
    info.packet = info.target;
    info.name = lastDot == std::string_view::npos ? info.target : std::string(target.substr(lastDot + 1));
    return info;
}

} // namespace remat
