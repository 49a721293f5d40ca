// SPDX-License-Identifier: MIT
#include "analysis/op_lists.h"

// Facts taken from pytorch/pytorch, torchgen/packaged/ATen/native/native_functions.yaml at commit
// 2e35e4846418c7623dd0863221af6c50e0d3ff1c (a packaged copy of aten/src/ATen/native/native_functions.yaml;
// the aten/ copy stored at 0b8352face1580e6e2130bc0faf950eaabbda217 predates operator tags).
// Each entry is an overload packet ("aten.<name before the first '.' or '('>") with at least one
// overload carrying the tag. In-place names ("add_") are packets of their own.

namespace remat::oplists {
namespace {
// The op tables keep several names to a line, as PyTorch's lists do.
// clang-format off

// Packets with an overload tagged `pointwise` (252 entries). torchgen does not copy this tag to
// `autogen:` variants, so only `func:` entries count.
constexpr std::string_view kAtenPointwise[] = {
    "aten.__ilshift__", "aten.__ixor__", "aten.__lshift__", "aten.__rshift__", "aten.__xor__", "aten.abs",
    "aten.acos", "aten.acos_", "aten.acosh", "aten.acosh_", "aten.add", "aten.add_", "aten.addcdiv",
    "aten.addcdiv_", "aten.addcmul", "aten.addcmul_", "aten.angle", "aten.asin", "aten.asin_", "aten.asinh",
    "aten.asinh_", "aten.atan", "aten.atan2", "aten.atan2_", "aten.atan_", "aten.atanh", "aten.atanh_",
    "aten.bitwise_and", "aten.bitwise_and_", "aten.bitwise_left_shift", "aten.bitwise_left_shift_",
    "aten.bitwise_not", "aten.bitwise_not_", "aten.bitwise_or", "aten.bitwise_or_",
    "aten.bitwise_right_shift", "aten.bitwise_right_shift_", "aten.bitwise_xor", "aten.bitwise_xor_",
    "aten.ceil", "aten.ceil_", "aten.celu", "aten.clamp", "aten.clamp_", "aten.clamp_max", "aten.clamp_max_",
    "aten.clamp_min", "aten.clamp_min_", "aten.clip", "aten.clip_", "aten.clone", "aten.conj_physical",
    "aten.conj_physical_", "aten.copysign", "aten.cos", "aten.cos_", "aten.cosh", "aten.cosh_",
    "aten.deg2rad", "aten.deg2rad_", "aten.digamma", "aten.digamma_", "aten.div", "aten.div_", "aten.elu",
    "aten.eq", "aten.equal", "aten.erf", "aten.erf_", "aten.erfc", "aten.erfc_", "aten.erfinv",
    "aten.erfinv_", "aten.exp", "aten.exp2", "aten.exp2_", "aten.exp_", "aten.expm1", "aten.expm1_",
    "aten.float_power", "aten.float_power_", "aten.floor", "aten.floor_", "aten.fmax", "aten.fmin",
    "aten.fmod", "aten.fmod_", "aten.frac", "aten.frac_", "aten.frexp", "aten.gcd", "aten.ge", "aten.gelu",
    "aten.gelu_backward", "aten.gt", "aten.hardshrink", "aten.hardsigmoid", "aten.hardtanh", "aten.heaviside",
    "aten.hypot", "aten.hypot_", "aten.i0", "aten.i0_", "aten.igamma", "aten.igamma_", "aten.igammac",
    "aten.igammac_", "aten.isfinite", "aten.isinf", "aten.isnan", "aten.isneginf", "aten.isposinf",
    "aten.lcm", "aten.ldexp", "aten.ldexp_", "aten.le", "aten.lerp", "aten.lerp_", "aten.lgamma",
    "aten.lgamma_", "aten.log", "aten.log10", "aten.log10_", "aten.log1p", "aten.log1p_", "aten.log2",
    "aten.log2_", "aten.log_", "aten.logaddexp", "aten.logaddexp2", "aten.logical_and", "aten.logical_and_",
    "aten.logical_not", "aten.logical_not_", "aten.logical_or", "aten.logical_or_", "aten.logical_xor",
    "aten.logical_xor_", "aten.logit", "aten.logit_", "aten.logit_backward", "aten.lt", "aten.masked_fill",
    "aten.max", "aten.maximum", "aten.min", "aten.minimum", "aten.mish", "aten.mul", "aten.mul_",
    "aten.mvlgamma", "aten.mvlgamma_", "aten.nan_to_num", "aten.nan_to_num_", "aten.native_dropout_backward",
    "aten.ne", "aten.neg", "aten.neg_", "aten.nextafter", "aten.nextafter_", "aten.polygamma",
    "aten.polygamma_", "aten.positive", "aten.pow", "aten.pow_", "aten.rad2deg", "aten.rad2deg_",
    "aten.reciprocal", "aten.reciprocal_", "aten.relu", "aten.relu6", "aten.relu_", "aten.remainder",
    "aten.remainder_", "aten.round", "aten.round_", "aten.rrelu", "aten.rsqrt", "aten.rsqrt_", "aten.rsub",
    "aten.selu", "aten.sgn", "aten.sgn_", "aten.sigmoid", "aten.sigmoid_", "aten.sigmoid_backward",
    "aten.sign", "aten.sign_", "aten.signbit", "aten.silu", "aten.silu_", "aten.silu_backward", "aten.sin",
    "aten.sin_", "aten.sinc", "aten.sinc_", "aten.sinh", "aten.sinh_", "aten.softplus", "aten.softshrink",
    "aten.special_airy_ai", "aten.special_bessel_j0", "aten.special_bessel_j1", "aten.special_bessel_y0",
    "aten.special_bessel_y1", "aten.special_chebyshev_polynomial_t", "aten.special_chebyshev_polynomial_u",
    "aten.special_chebyshev_polynomial_v", "aten.special_chebyshev_polynomial_w", "aten.special_entr",
    "aten.special_erfcx", "aten.special_hermite_polynomial_h", "aten.special_hermite_polynomial_he",
    "aten.special_i0e", "aten.special_i1", "aten.special_i1e", "aten.special_laguerre_polynomial_l",
    "aten.special_legendre_polynomial_p", "aten.special_log_ndtr", "aten.special_modified_bessel_i0",
    "aten.special_modified_bessel_i1", "aten.special_modified_bessel_k0", "aten.special_modified_bessel_k1",
    "aten.special_ndtri", "aten.special_scaled_modified_bessel_k0", "aten.special_scaled_modified_bessel_k1",
    "aten.special_shifted_chebyshev_polynomial_t", "aten.special_shifted_chebyshev_polynomial_u",
    "aten.special_shifted_chebyshev_polynomial_v", "aten.special_shifted_chebyshev_polynomial_w",
    "aten.special_spherical_bessel_j0", "aten.special_xlog1py", "aten.special_zeta", "aten.sqrt",
    "aten.sqrt_", "aten.square", "aten.square_", "aten.sub", "aten.sub_", "aten.tan", "aten.tan_",
    "aten.tanh", "aten.tanh_", "aten.tanh_backward", "aten.threshold", "aten.threshold_backward",
    "aten.true_divide", "aten.trunc", "aten.trunc_", "aten.where", "aten.xlogy", "aten.xlogy_",
};

// Packets with an overload tagged `nondeterministic_seeded` (71 entries): 64 from `func:` entries,
// plus the 7 packets that exist only as `autogen:` variants of seeded ops (torchgen copies
// nondeterministic_seeded onto generated functional/out variants): aten.cauchy, aten.exponential,
// aten.geometric, aten.log_normal, aten.random, aten.uniform (from the in-place samplers) and
// aten.rrelu_with_noise_functional (from the mutable aten.rrelu_with_noise).
constexpr std::string_view kAtenNondeterministicSeeded[] = {
    "aten._cudnn_attention_backward", "aten._cudnn_attention_forward", "aten._cudnn_init_dropout_state",
    "aten._cudnn_rnn", "aten._efficient_attention_forward", "aten._fill_mem_eff_dropout_mask_",
    "aten._flash_attention_forward", "aten._flash_attention_forward_no_dropout_inplace",
    "aten._fused_dropout", "aten._fused_sdp_choice", "aten._lstm_mps",
    "aten._nested_tensor_softmax_with_shape", "aten._sample_dirichlet",
    "aten._scaled_dot_product_attention_math", "aten._scaled_dot_product_attention_math_for_mps",
    "aten._scaled_dot_product_cudnn_attention", "aten._scaled_dot_product_cudnn_attention_backward",
    "aten._scaled_dot_product_efficient_attention", "aten._scaled_dot_product_efficient_attention_backward",
    "aten._scaled_dot_product_flash_attention", "aten._scaled_dot_product_flash_attention_for_cpu",
    "aten._scaled_dot_product_fused_attention_overrideable", "aten._standard_gamma",
    "aten._triton_scaled_dot_attention", "aten.alpha_dropout", "aten.alpha_dropout_", "aten.bernoulli",
    "aten.bernoulli_", "aten.binomial", "aten.cauchy", "aten.cauchy_", "aten.dropout", "aten.dropout_",
    "aten.exponential", "aten.exponential_", "aten.feature_alpha_dropout", "aten.feature_alpha_dropout_",
    "aten.feature_dropout", "aten.feature_dropout_", "aten.geometric", "aten.geometric_", "aten.gru",
    "aten.log_normal", "aten.log_normal_", "aten.lstm", "aten.miopen_rnn", "aten.multinomial",
    "aten.native_dropout", "aten.normal", "aten.normal_", "aten.normal_functional", "aten.poisson",
    "aten.rand", "aten.rand_like", "aten.randint", "aten.randint_like", "aten.randn", "aten.randn_like",
    "aten.random", "aten.random_", "aten.randperm", "aten.rnn_relu", "aten.rnn_tanh", "aten.rrelu",
    "aten.rrelu_", "aten.rrelu_with_noise", "aten.rrelu_with_noise_", "aten.rrelu_with_noise_functional",
    "aten.scaled_dot_product_attention", "aten.uniform", "aten.uniform_",
};

// clang-format on
} // namespace

std::span<const std::string_view> atenPointwise()
{
    return kAtenPointwise;
}

std::span<const std::string_view> atenNondeterministicSeeded()
{
    return kAtenNondeterministicSeeded;
}

} // namespace remat::oplists
