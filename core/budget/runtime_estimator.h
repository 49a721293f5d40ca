// SPDX-License-Identifier: MIT
#pragma once

#include "budget/device_profile.h"
#include "graph/joint_graph.h"

#include <optional>
#include <string>
#include <string_view>

namespace remat {

/// How the memory budget prices recomputing a node (reference doc section 5.4).
/// Flops and Testing are PyTorch's modes; Roofline is ours.
enum class RuntimeEstimatorKind { Flops, Testing, Roofline };

std::string_view estimatorName(RuntimeEstimatorKind kind);
std::optional<RuntimeEstimatorKind> parseEstimator(std::string_view name);
/// Why an estimator name PyTorch has but we do not reproduce is refused ("profile": 2.14 benchmarks
/// each op on the device; our roofline estimator stands in); nullopt for any other name.
std::optional<std::string> unreproducibleEstimatorReason(std::string_view name);

/// The cost of running one node, in the estimator's unit:
///  - Flops: PyTorch's FLOP-counter formulas, max(flops, 1) (every unregistered op costs 1);
///  - Testing: 1 per node;
///  - Roofline: max(flops / peak FLOP/s, bytes moved / bandwidth) in milliseconds, with the device's
///    dtype-aware peaks; a measured meta["runtime_ms"] wins over the estimate.
/// Measured times are not used by Flops and Testing: those are PyTorch's unitless modes, and
/// mixing milliseconds into FLOP counts would make the knapsack meaningless.
class RuntimeEstimator {
public:
    /// Throws remat::Error when Roofline is asked for without a device.
    RuntimeEstimator(
        const JointGraph& graph, RuntimeEstimatorKind kind, const DeviceProfile* device = nullptr);

    RuntimeEstimatorKind kind() const { return m_kind; }
    double cost(NodeId n) const;
    /// Flops only: the node has no FLOP formula (or counts none), so its cost is PyTorch's floor of 1.
    bool costsTheFloor(NodeId n) const;
    /// "flops", "nodes" or "ms".
    std::string_view unit() const;
    const DeviceProfile* device() const { return m_device ? &*m_device : nullptr; }

private:
    const JointGraph* m_graph;
    RuntimeEstimatorKind m_kind;
    std::optional<DeviceProfile> m_device;
};

/// The roofline estimate of one node in milliseconds, ignoring any measured time.
double rooflineMilliseconds(const JointGraph& graph, NodeId n, const DeviceProfile& device);

} // namespace remat
