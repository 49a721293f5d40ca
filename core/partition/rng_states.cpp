// SPDX-License-Identifier: MIT
#include "partition/rng_states.h"

#include "analysis/op_lists.h"
#include "partition/partition_result.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace remat {
namespace {

struct DropoutArgument {
    std::string_view target;
    std::size_t index; ///< positional index of dropout_p in the schema
    bool defaultIsZero; ///< dropout_p=0. in the schema; false where it has no default
};

// The nondeterministic_seeded overloads with a dropout_p argument, read from 2.14's schemas.
constexpr DropoutArgument kDropoutArguments[] = {
    {"aten._cudnn_attention_forward.default", 9, true},
    {"aten._efficient_attention_forward.default", 8, false},
    {"aten._fill_mem_eff_dropout_mask_.default", 1, false},
    {"aten._flash_attention_forward.default", 7, false},
    {"aten._flash_attention_forward.quantized", 7, false},
    {"aten._flash_attention_forward_no_dropout_inplace.default", 8, false},
    {"aten._fused_sdp_choice.default", 4, true},
    {"aten._scaled_dot_product_attention_math.default", 4, true},
    {"aten._scaled_dot_product_attention_math_for_mps.default", 4, true},
    {"aten._scaled_dot_product_cudnn_attention.default", 5, true},
    {"aten._scaled_dot_product_efficient_attention.default", 5, true},
    {"aten._scaled_dot_product_flash_attention.default", 3, true},
    {"aten._scaled_dot_product_flash_attention.quantized", 6, true},
    {"aten._scaled_dot_product_flash_attention_for_cpu.default", 3, true},
    {"aten._scaled_dot_product_fused_attention_overrideable.default", 4, true},
    {"aten._triton_scaled_dot_attention.default", 3, true},
    {"aten._triton_scaled_dot_attention.out", 3, true},
    {"aten.scaled_dot_product_attention.default", 4, true},
};

bool isZero(const Arg& a)
{
    return (a.kind == ArgKind::Float && a.real == 0.0) || (a.kind == ArgKind::Int && a.integer == 0);
}

/// The node's dropout_p argument, positional or keyword; nullopt when it passes none.
std::optional<Arg> dropoutArgument(const JointGraph& graph, const Node& node, std::size_t index)
{
    const auto args = graph.children(graph.arg(node.args));
    if (index < args.size())
        return args[index];
    const auto kwargs = graph.children(graph.arg(node.kwargs));
    for (std::size_t k = 0; k + 1 < kwargs.size(); k += 2) {
        if (kwargs[k].kind == ArgKind::String && graph.string(kwargs[k].string) == "dropout_p")
            return kwargs[k + 1];
    }
    return std::nullopt;
}

bool onCuda(const Node& node)
{
    for (const auto& value : node.values) {
        if (value)
            return value->device.starts_with("cuda");
    }
    return false;
}

} // namespace

bool isRngOp(const JointGraph& graph, NodeId n)
{
    const Node& node = graph.node(n);
    if (node.op != NodeOp::CallFunction)
        return false;
    const OpInfo& op = graph.opOf(n);
    const auto seeded = oplists::atenNondeterministicSeeded();
    if (!op.isOverload || std::find(seeded.begin(), seeded.end(), op.packet) == seeded.end())
        return false;
    const auto* dropout = std::find_if(std::begin(kDropoutArguments), std::end(kDropoutArguments),
        [&](const DropoutArgument& d) { return d.target == op.target; });
    if (dropout == std::end(kDropoutArguments))
        return true;
    const auto p = dropoutArgument(graph, node, dropout->index);
    if (!p)
        return !dropout->defaultIsZero;
    return !isZero(*p); // a SymFloat or a nonzero literal may draw
}

std::vector<NodeId> savedRngStateOps(const JointGraph& graph, const PartitionResult& result)
{
    std::vector<NodeId> ops;
    if (result.options.rules != RuleSet::Newest || result.effectiveTags.empty())
        return ops;
    for (NodeId n : result.recomputed) {
        const CheckpointPolicy tag = result.effectiveTags[static_cast<std::size_t>(n)];
        if ((tag == CheckpointPolicy::MustRecompute || tag == CheckpointPolicy::PreferRecompute)
            && isRngOp(graph, n) && !onCuda(graph.node(n)))
            ops.push_back(n);
    }
    std::sort(ops.begin(), ops.end());
    return ops;
}

} // namespace remat
