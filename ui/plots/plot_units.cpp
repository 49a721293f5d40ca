// SPDX-License-Identifier: MIT
#include "plots/plot_units.h"

#include "model/budget_text.h"
#include "model/node_text.h"

#include <cmath>

namespace remat::ui {

AxisUnit byteUnit(double largestBytes)
{
    constexpr double kKiB = 1024.0;
    if (largestBytes >= kKiB * kKiB * kKiB * 2)
        return {kKiB * kKiB * kKiB, QStringLiteral("GiB")};
    if (largestBytes >= kKiB * kKiB * 2)
        return {kKiB * kKiB, QStringLiteral("MiB")};
    if (largestBytes >= kKiB * 2)
        return {kKiB, QStringLiteral("KiB")};
    return {1, QStringLiteral("B")};
}

AxisUnit runtimeUnit(std::string_view estimatorUnit, double largest)
{
    if (estimatorUnit == "flops") {
        if (largest >= 2e12)
            return {1e12, QStringLiteral("TFLOP")};
        if (largest >= 2e9)
            return {1e9, QStringLiteral("GFLOP")};
        if (largest >= 2e6)
            return {1e6, QStringLiteral("MFLOP")};
        return {1, QStringLiteral("FLOP")};
    }
    if (estimatorUnit == "ms")
        return largest >= 2000 ? AxisUnit {1000, QStringLiteral("s")} : AxisUnit {1, QStringLiteral("ms")};
    return {1, QString::fromUtf8(estimatorUnit.data(), static_cast<qsizetype>(estimatorUnit.size()))};
}

QString formatBytesDelta(std::int64_t bytes)
{
    if (bytes == 0)
        return QStringLiteral("±0 B");
    return (bytes > 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatBytes(bytes > 0 ? bytes : -bytes);
}

QString formatRuntimeDelta(double value, std::string_view estimatorUnit)
{
    if (value == 0)
        return QStringLiteral("±0");
    return (value > 0 ? QStringLiteral("+") : QStringLiteral("−"))
        + formatRuntime(std::abs(value), estimatorUnit);
}

} // namespace remat::ui
