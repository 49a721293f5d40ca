// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <optional>

namespace remat {

/// JSON has no NaN or infinity (RapidJSON would write a key with no value): a number that is not
/// finite, or absent, is written as null, which readers take as "undefined".
template <typename Writer> void writeNumberOrNull(Writer& writer, std::optional<double> value)
{
    if (value && std::isfinite(*value))
        writer.Double(*value);
    else
        writer.Null();
}

} // namespace remat
