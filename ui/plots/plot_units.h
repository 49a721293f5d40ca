// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstdint>
#include <string_view>

namespace remat::ui {

/// A unit an axis is drawn in: values are divided by `scale` and labelled with `name`.
struct AxisUnit {
    double scale = 1;
    QString name;
    double apply(double value) const { return value / scale; }
};

/// KiB, MiB or GiB, whichever keeps `largestBytes` readable.
AxisUnit byteUnit(double largestBytes);
/// The runtime estimator's unit made readable: "flops" → GFLOP/TFLOP, "ms" → ms or s, "nodes".
AxisUnit runtimeUnit(std::string_view estimatorUnit, double largest);
/// "+12.0 MiB", "−3.1 GFLOP": a signed difference.
QString formatBytesDelta(std::int64_t bytes);
QString formatRuntimeDelta(double value, std::string_view estimatorUnit);

} // namespace remat::ui
