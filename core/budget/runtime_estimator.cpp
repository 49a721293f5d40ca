// SPDX-License-Identifier: MIT
#include "budget/runtime_estimator.h"

#include "analysis/tensor_size.h"
#include "budget/flop_counts.h"
#include "budget/storage_aliasing.h"
#include "graph/error.h"

#include <algorithm>

namespace remat {
namespace {

/// The dtype whose peak applies: the first tensor argument's for matmuls (their inputs decide the
/// tensor-core path), else the output's.
Dtype computeDtype(const JointGraph& graph, NodeId n, bool fromInputs)
{
    const Node& node = graph.node(n);
    if (fromInputs) {
        for (NodeId input : node.inputs) {
            if (graph.node(input).valueKind == ValueKind::Tensor)
                return graph.node(input).tensor().dtype;
        }
    }
    for (const auto& value : node.values) {
        if (value)
            return value->dtype;
    }
    return Dtype::Float32;
}

} // namespace

std::optional<std::string> unreproducibleEstimatorReason(std::string_view name)
{
    if (name != "profile")
        return std::nullopt;
    return "the \"profile\" estimator is PyTorch's benchmark of every op on the device it compiles for: "
           "measured timings cannot be reproduced from a graph file; use roofline, which stands in for it";
}

RuntimeEstimator::RuntimeEstimator(
    const JointGraph& graph, RuntimeEstimatorKind kind, const DeviceProfile* device)
    : m_graph(&graph)
    , m_kind(kind)
{
    if (device)
        m_device = *device;
    if (kind == RuntimeEstimatorKind::Roofline && !device)
        throw Error("the roofline estimator needs a device profile");
}

double RuntimeEstimator::cost(NodeId n) const
{
    switch (m_kind) {
    case RuntimeEstimatorKind::Testing:
        return 1;
    case RuntimeEstimatorKind::Flops:
        return static_cast<double>(std::max<std::int64_t>(registeredFlops(*m_graph, n).value_or(0), 1));
    case RuntimeEstimatorKind::Roofline:
        if (const auto measured = m_graph->node(n).meta.runtimeMs)
            return *measured;
        return rooflineMilliseconds(*m_graph, n, *m_device);
    }
    return 1;
}

bool RuntimeEstimator::costsTheFloor(NodeId n) const
{
    return m_kind == RuntimeEstimatorKind::Flops && registeredFlops(*m_graph, n).value_or(0) <= 0;
}

std::string_view RuntimeEstimator::unit() const
{
    switch (m_kind) {
    case RuntimeEstimatorKind::Testing:
        return "nodes";
    case RuntimeEstimatorKind::Flops:
        return "flops";
    case RuntimeEstimatorKind::Roofline:
        return "ms";
    }
    return "";
}

double rooflineMilliseconds(const JointGraph& graph, NodeId n, const DeviceProfile& device)
{
    const Node& node = graph.node(n);
    if (node.op != NodeOp::CallFunction)
        return 0;
    const OpInfo& op = graph.opOf(n);
    // Views, getitems and splits only describe memory: no kernel runs.
    if (op.packet == "_operator.getitem" || StorageMap::isViewPacket(op.packet)
        || StorageMap::isSplitPacket(op.packet))
        return 0;
    std::int64_t bytes = valueBytes(node);
    for (NodeId input : node.inputs)
        bytes += valueBytes(graph.node(input));
    double seconds = static_cast<double>(bytes) / device.memoryBandwidth;
    if (const auto flops = registeredFlops(graph, n)) {
        seconds = std::max(
            seconds, static_cast<double>(*flops) / device.matmulRate(computeDtype(graph, n, true)));
    } else {
        // One operation per output element: pointwise ops and reductions are bandwidth-bound anyway.
        std::int64_t elements = 0;
        for (const auto& value : node.values) {
            if (value)
                elements += value->numel();
        }
        seconds = std::max(
            seconds, static_cast<double>(elements) / device.vectorRate(computeDtype(graph, n, false)));
    }
    return seconds * 1e3;
}

} // namespace remat
