// SPDX-License-Identifier: MIT
#include "partition/activation_offloading.h"

#include <algorithm>
#include <set>

namespace remat {
namespace {

/// torch.Tensor.is_contiguous(): row-major strides, ignoring dimensions of size 1.
bool contiguous(const TensorMeta& t)
{
    if (t.numel() == 0 || t.stride.size() != t.shape.size())
        return true; // no strides recorded: nothing says otherwise
    std::int64_t expected = 1;
    for (std::size_t d = t.shape.size(); d-- > 0;) {
        if (t.shape[d] == 1)
            continue;
        if (t.stride[d] != expected)
            return false;
        expected *= t.shape[d];
    }
    return true;
}

} // namespace

bool isOffloadPolicy(CheckpointPolicy policy)
{
    return policy == CheckpointPolicy::MustCpuOffload || policy == CheckpointPolicy::PreferCpuOffload;
}

void chooseOffloadSets(const JointGraph& graph, const OpCategories& ops,
    const std::vector<CheckpointPolicy>& tags, PartitionResult& result)
{
    result.offloaded.clear();
    result.offloadRefused.clear();
    result.offloadedBytes = 0;
    const auto marked = [&](NodeId n) { return isOffloadPolicy(tags[static_cast<std::size_t>(n)]); };
    const std::set<NodeId> saved(result.savedValues.begin(), result.savedValues.end());
    const std::set<NodeId> modelOutputs(graph.fwdOutputs().begin(), graph.fwdOutputs().end());
    // can_offload's checks, in its order and words, over the forward graph in its order. Its third,
    // "Cannot offload static input nodes.", never applies: graph inputs cannot be tagged here.
    const auto refusal = [&](NodeId n) -> const char* {
        const Node& node = graph.node(n);
        if (!saved.count(n) && !modelOutputs.count(n))
            return "Can only offload nodes in fwd_module_outputs.";
        if (modelOutputs.count(n))
            return "Cannot offload model outputs.";
        if (node.op == NodeOp::CallFunction && ops.view(node.target))
            return "Cannot offload views.";
        if (node.op == NodeOp::CallFunction && ops.getitem(node.target))
            return "Cannot offload getitems.";
        if (node.hasTensorMeta() && !contiguous(node.tensor()))
            return "Cannot offload non-contiguous tensors.";
        return nullptr;
    };
    std::set<NodeId> inForward;
    for (NodeId n : result.fwNodes) {
        inForward.insert(n);
        if (!marked(n))
            continue;
        if (const char* reason = refusal(n))
            result.offloadRefused.push_back({n, reason});
        else
            result.offloaded.push_back(n);
    }
    // Tagged nodes only the backward computes: 2.14's pass never sees them.
    for (NodeId n : result.bwNodes) {
        if (marked(n) && !inForward.count(n) && graph.node(n).op == NodeOp::CallFunction)
            result.offloadRefused.push_back(
                {n, "recomputed in the backward: not in the forward graph, so not offloaded"});
    }
    std::sort(result.offloaded.begin(), result.offloaded.end());
    for (NodeId n : result.offloaded)
        result.offloadedBytes += graph.node(n).tensor().bytes();
}

} // namespace remat
