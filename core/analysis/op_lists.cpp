// SPDX-License-Identifier: MIT
#include "analysis/op_lists.h"

namespace remat::oplists {
namespace {
// The op tables keep several names to a line, as PyTorch's lists do.
// clang-format off

// torch 1.13 min_cut_rematerialization_partition: recomputable_ops
constexpr std::string_view kTorch113Recomputable[] = {
    "aten.add", "aten.sub", "aten.div", "aten.atan2", "aten.mul", "aten.max", "aten.min", "aten.pow",
    "aten.remainder", "aten.fmod", "aten.__and__", "aten.__or__", "aten.__xor__", "aten.__lshift__",
    "aten.__rshift__", "aten.eq", "aten.ne", "aten.ge", "aten.gt", "aten.le", "aten.lt", "aten.abs",
    "aten.bitwise_not", "aten.ceil", "aten.floor", "aten.frac", "aten.neg", "aten.relu", "aten.round",
    "aten.silu", "aten.trunc", "aten.log", "aten.log10", "aten.log1p", "aten.log2", "aten.lgamma", "aten.exp",
    "aten.expm1", "aten.erf", "aten.erfc", "aten.cos", "aten.acos", "aten.cosh", "aten.sin", "aten.asin",
    "aten.sinh", "aten.tan", "aten.atan", "aten.tanh", "aten.atanh", "aten.sqrt", "aten.rsqrt",
    "aten.reciprocal", "aten.sigmoid", "aten.softplus", "aten.threshold", "aten.threshold_backward",
    "aten.clamp", "aten.where", "aten.lerp", "aten.addcmul", "aten.gelu", "aten.gelu_backward", "aten.alias",
    "aten.softmax", "aten._softmax", "aten._softmax_backward_data", "aten.sum", "aten.mean",
    "aten._grad_sum_to_size", "aten.sum_to_size", "aten.amax", "aten.to", "aten.type_as", "_operator.getitem",
    "operator.getitem", "aten.squeeze", "aten.unsqueeze",
};

// ... plus these when compiler == "inductor"
constexpr std::string_view kTorch113InductorExtra[] = {
    "prims.div", "prims.convert_element_type", "aten.sign", "aten.clone", "aten._to_copy", "aten.full_like",
    "prims.var", "prims.sum", "aten.var", "aten.std", "prims.broadcast_in_dim", "aten.select", "aten.permute",
    "aten._unsafe_view", "aten.view", "aten.expand", "aten.slice", "aten.reshape", "aten.broadcast_tensors",
    "aten.scalar_tensor", "aten.ones", "aten.new_zeros", "aten.lift_fresh_copy", "aten.minimum", "aten.arange",
    "aten.bitwise_and", "aten.triu", "aten.var_mean", "aten.isinf", "aten.any", "aten.isnan", "aten.full",
    "aten.as_strided", "aten.zeros", "aten.argmax", "aten.maximum", "aten.bitwise_or", "aten.logical_and",
    "aten.logical_or", "aten.index",
};

constexpr std::string_view kRandom[] = {"aten.native_dropout", "aten.rand_like", "aten.randn_like"};

constexpr std::string_view kTorch113ComputeIntensive[] = {
    "aten.mm", "aten.convolution", "aten.convolution_backward", "aten.bmm", "aten.addmm", "aten.upsample_bilinear2d",
};

// functorch/_src/compile_utils.py: rand_ops, never merged by CSE
constexpr std::string_view kTorch113CseRandom[] = {
    "aten.dropout", "aten._fused_dropout", "aten._standard_gamma", "aten.bernoulli", "aten.multinomial",
    "aten.native_dropout", "aten.normal", "aten.poisson", "aten.binomial", "aten.rrelu", "aten.rand_like",
    "aten.rand", "aten.randint", "aten.randn", "aten.randperm",
};

// newest get_default_op_list(): the explicit lists (pointwise-tagged packets are added separately)
constexpr std::string_view kNewestRecomputable[] = {
    "aten.add", "aten.sub", "aten.div", "aten.atan2", "aten.mul", "aten.max", "aten.min", "aten.pow",
    "aten.remainder", "aten.fmod", "aten.__and__", "aten.__or__", "aten.__xor__", "aten.__lshift__",
    "aten.__rshift__", "aten.eq", "aten.ne", "aten.ge", "aten.gt", "aten.le", "aten.lt", "aten.abs",
    "aten.bitwise_not", "aten.ceil", "aten.floor", "aten.frac", "aten.neg", "aten.relu", "aten.round",
    "aten.silu", "aten.trunc", "aten.log", "aten.log10", "aten.log1p", "aten.log2", "aten.lgamma", "aten.exp",
    "aten.expm1", "aten.erf", "aten.erfc", "aten.cos", "aten.acos", "aten.cosh", "aten.sin", "aten.asin",
    "aten.sinh", "aten.tan", "aten.atan", "aten.tanh", "aten.atanh", "aten.sqrt", "aten.rsqrt",
    "aten.reciprocal", "aten.sigmoid", "aten.softplus", "aten.threshold", "aten.threshold_backward",
    "aten.clamp", "aten.where", "aten.lerp", "aten.addcmul", "aten.gelu", "aten.gelu_backward", "aten.sum",
    "aten.mean", "aten._grad_sum_to_size", "aten.sum_to_size", "aten.amax", "aten.to", "aten.type_as",
    "_operator.getitem", "operator.getitem", "aten.squeeze", "aten.unsqueeze", "aten.rsub", "aten._to_copy",
    "prims.div", "prims.convert_element_type", "aten.clone", "aten.full_like", "prims.var", "prims.sum",
    "aten.var", "aten.std", "prims.broadcast_in_dim", "aten.select", "aten._unsafe_view", "aten.view",
    "aten.expand", "aten.slice", "aten.reshape", "aten.broadcast_tensors", "aten.scalar_tensor", "aten.ones",
    "aten.new_zeros", "aten.lift_fresh_copy", "aten.arange", "aten.triu", "aten.var_mean", "aten.isinf",
    "aten.any", "aten.full", "aten.as_strided", "aten.zeros", "aten.empty", "aten.empty_like", "aten.argmax",
    "aten.maximum", "prims.iota", "prims._low_memory_max_pool_offsets_to_indices", "aten.index", "aten.gather",
    "aten.zeros_like",
};

constexpr std::string_view kNewestView[] = {
    "aten.squeeze", "aten.unsqueeze", "aten.alias", "aten.view", "aten.slice", "aten.t",
    "prims.broadcast_in_dim", "aten.expand", "aten.as_strided", "aten.permute", "aten.select", "aten.split",
};

constexpr std::string_view kNewestComputeIntensive[] = {
    "aten.mm", "aten.convolution", "aten.convolution_backward", "aten.bmm", "aten.addmm",
    "aten._scaled_dot_product_flash_attention", "aten._scaled_dot_product_efficient_attention",
    "aten._flash_attention_forward", "aten._efficient_attention_forward", "aten.upsample_bilinear2d",
    "aten._scaled_mm",
};

// method_to_operator(m) for torch.fx.experimental.sym_node.magic_methods, as FX targets
constexpr std::string_view kNewestSymOperators[] = {
    "_operator.add", "_operator.sub", "_operator.mul", "_operator.floordiv", "_operator.mod",
    "_operator.truediv", "_operator.pow", "_operator.eq", "_operator.ne", "_operator.lt", "_operator.le",
    "_operator.gt", "_operator.ge", "_operator.and_", "_operator.or_", "_operator.xor", "_operator.lshift",
    "_operator.rshift", "_operator.neg", "_operator.abs", "torch.sym_max", "torch.sym_min", "torch.sym_float",
    "torch.sym_int", "torch.sym_not", "torch.sym_ite", "torch.sym_sqrt", "math.floor", "math.ceil", "math.trunc",
};

constexpr std::string_view kTorch113SideEffectful[] = {
    "torch._assert", "profiler._record_function_enter", "profiler._record_function_enter_new",
    "profiler._record_function_exit",
};

// torch/fx/node.py _side_effectful_functions (newest), by packet or target
constexpr std::string_view kNewestSideEffectful[] = {
    "torch._assert", "torch._assert_async", "aten._assert_async", "aten._assert_scalar",
    "aten._assert_tensor_metadata", "aten.sym_constrain_range", "aten.sym_constrain_range_for_size",
    "profiler._record_function_enter", "profiler._record_function_enter_new", "profiler._record_function_exit",
    "inductor.accumulate_grad_", "_operator.setitem", "torch._C._set_grad_enabled", "torch.amp._enter_autocast",
    "torch.amp._exit_autocast", "inductor.resize_storage_bytes_",
};

// newest fx_graph_cse: the same fixed rand_ops as 1.13, plus aten.empty (never merged)
constexpr std::string_view kNewestCseExcluded[] = {
    "aten.dropout", "aten._fused_dropout", "aten._standard_gamma", "aten.bernoulli", "aten.multinomial",
    "aten.native_dropout", "aten.normal", "aten.poisson", "aten.binomial", "aten.rrelu", "aten.rand_like",
    "aten.rand", "aten.randint", "aten.randn", "aten.randperm", "aten.empty",
};

// clang-format on
} // namespace

std::span<const std::string_view> torch113Recomputable()
{
    return kTorch113Recomputable;
}
std::span<const std::string_view> torch113InductorExtra()
{
    return kTorch113InductorExtra;
}
std::span<const std::string_view> torch113Random()
{
    return kRandom;
}
std::span<const std::string_view> torch113ComputeIntensive()
{
    return kTorch113ComputeIntensive;
}
std::span<const std::string_view> torch113CseRandom()
{
    return kTorch113CseRandom;
}
std::span<const std::string_view> newestRecomputableExplicit()
{
    return kNewestRecomputable;
}
std::span<const std::string_view> newestView()
{
    return kNewestView;
}
std::span<const std::string_view> newestRandom()
{
    return kRandom;
}
std::span<const std::string_view> newestComputeIntensive()
{
    return kNewestComputeIntensive;
}
std::span<const std::string_view> newestSymOperators()
{
    return kNewestSymOperators;
}
std::span<const std::string_view> torch113SideEffectful()
{
    return kTorch113SideEffectful;
}
std::span<const std::string_view> newestSideEffectful()
{
    return kNewestSideEffectful;
}
std::span<const std::string_view> newestCseExcluded()
{
    return kNewestCseExcluded;
}

} // namespace remat::oplists
