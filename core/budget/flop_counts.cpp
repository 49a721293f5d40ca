// SPDX-License-Identifier: MIT
#include "budget/flop_counts.h"

#include <functional>
#include <map>
#include <span>
#include <string_view>
#include <vector>

namespace remat {
namespace {

using Shape = std::vector<std::int64_t>;

/// Reads a node's positional args: tensor shapes, ints, bools.
class Args {
public:
    Args(const JointGraph& graph, NodeId n)
        : m_graph(graph)
        , m_args(graph.children(graph.arg(graph.node(n).args)))
        , m_node(graph.node(n))
    { }

    std::optional<Shape> shape(std::size_t i) const
    {
        if (i >= m_args.size() || m_args[i].kind != ArgKind::Node)
            return std::nullopt;
        const Node& input = m_graph.node(m_args[i].node);
        if (input.valueKind != ValueKind::Tensor)
            return std::nullopt;
        return input.tensor().shape;
    }
    bool flag(std::size_t i, bool fallback) const
    {
        if (i >= m_args.size())
            return fallback;
        if (m_args[i].kind == ArgKind::Bool)
            return m_args[i].boolean;
        if (m_args[i].kind == ArgKind::Int)
            return m_args[i].integer != 0;
        return fallback;
    }
    /// Element j of a list argument of bools (convolution_backward's output_mask).
    bool listFlag(std::size_t i, std::size_t j) const
    {
        if (i >= m_args.size() || m_args[i].kind != ArgKind::List || j >= m_args[i].size)
            return false;
        const Arg& e = m_graph.children(m_args[i])[j];
        return (e.kind == ArgKind::Bool && e.boolean) || (e.kind == ArgKind::Int && e.integer != 0);
    }
    /// Shape of element i of the node's own value.
    std::optional<Shape> outShape(std::size_t i) const
    {
        if (i >= m_node.values.size() || !m_node.values[i])
            return std::nullopt;
        return m_node.values[i]->shape;
    }

private:
    const JointGraph& m_graph;
    std::span<const Arg> m_args;
    const Node& m_node;
};

std::int64_t product(std::span<const std::int64_t> values)
{
    std::int64_t p = 1;
    for (auto v : values)
        p *= v;
    return p;
}

std::int64_t bmmFlops(std::int64_t b, std::int64_t m, std::int64_t k, std::int64_t n)
{
    return b * m * n * 2 * k;
}

std::optional<std::int64_t> mmFlops(const std::optional<Shape>& a, const std::optional<Shape>& b)
{
    if (!a || !b || a->size() != 2 || b->size() != 2)
        return std::nullopt;
    return bmmFlops(1, (*a)[0], (*a)[1], (*b)[1]);
}

std::optional<std::int64_t> batchedFlops(const std::optional<Shape>& a, const std::optional<Shape>& b)
{
    if (!a || !b || a->size() != 3 || b->size() != 3)
        return std::nullopt;
    return bmmFlops((*a)[0], (*a)[1], (*a)[2], (*b)[2]);
}

/// conv_flop_count: prod(conv spatial) * prod(kernel) * batch * c_out * c_in * 2, where the spatial
/// size is the output's (the input's for a transposed convolution).
std::optional<std::int64_t> convFlops(const std::optional<Shape>& x, const std::optional<Shape>& w,
    const std::optional<Shape>& out, bool transposed)
{
    const auto& spatialOf = transposed ? x : out;
    if (!x || !w || !spatialOf || x->empty() || w->size() < 2 || spatialOf->size() < 2)
        return std::nullopt;
    const std::int64_t spatial = product(std::span(*spatialOf).subspan(2));
    const std::int64_t kernel = product(std::span(*w).subspan(2));
    return spatial * kernel * (*x)[0] * (*w)[0] * (*w)[1] * 2;
}

Shape swapFirstTwo(Shape s)
{
    if (s.size() >= 2)
        std::swap(s[0], s[1]);
    return s;
}

/// sdpa_flop_count: q @ k^T plus attn @ v = 2*b*h*s_q*s_k*(d_q + d_v).
std::optional<std::int64_t> attentionFlops(
    const std::optional<Shape>& q, const std::optional<Shape>& k, const std::optional<Shape>& v)
{
    if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4)
        return std::nullopt;
    const auto bh = (*q)[0] * (*q)[1];
    const auto sq = (*q)[2], dq = (*q)[3], sk = (*k)[2], dv = (*v)[3];
    return bmmFlops(bh, sq, dq, sk) + bmmFlops(bh, sq, sk, dv);
}

/// sdpa_backward_flop_count: the scores again, then four bmm-equivalents of gradients.
std::optional<std::int64_t> attentionBackwardFlops(
    const std::optional<Shape>& q, const std::optional<Shape>& k, const std::optional<Shape>& v)
{
    if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4)
        return std::nullopt;
    const auto bh = (*q)[0] * (*q)[1];
    const auto sq = (*q)[2], dq = (*q)[3], sk = (*k)[2], dv = (*v)[3];
    return bmmFlops(bh, sq, dq, sk) + bmmFlops(bh, sq, dv, sk) + bmmFlops(bh, sk, sq, dv)
        + bmmFlops(bh, sq, sk, dq) + bmmFlops(bh, dq, sq, sk);
}

using Formula = std::function<std::optional<std::int64_t>(const Args&)>;

const std::map<std::string_view, Formula>& formulas()
{
    static const std::map<std::string_view, Formula> table {
        {"aten.mm", [](const Args& a) { return mmFlops(a.shape(0), a.shape(1)); }},
        {"aten.addmm", [](const Args& a) { return mmFlops(a.shape(1), a.shape(2)); }},
        {"aten._scaled_mm",
            [](const Args& a) { return mmFlops(a.shape(0), a.shape(1)); }}, // newer registries
        {"aten.bmm", [](const Args& a) { return batchedFlops(a.shape(0), a.shape(1)); }},
        {"aten.baddbmm", [](const Args& a) { return batchedFlops(a.shape(1), a.shape(2)); }},
        {"aten.convolution",
            [](const Args& a) { return convFlops(a.shape(0), a.shape(1), a.outShape(0), a.flag(6, false)); }},
        {"aten._convolution",
            [](const Args& a) { return convFlops(a.shape(0), a.shape(1), a.outShape(0), a.flag(6, false)); }},
        {"aten.convolution_backward",
            [](const Args& a) -> std::optional<std::int64_t> {
                // (grad_out, input, weight, bias_sizes, stride, padding, dilation, transposed,
                // output_padding,
                //  groups, output_mask) -> (grad_input, grad_weight, grad_bias)
                const auto gradOut = a.shape(0), x = a.shape(1), w = a.shape(2);
                const bool transposed = a.flag(7, false);
                std::int64_t total = 0;
                if (a.listFlag(10, 0)) {
                    const auto f = convFlops(gradOut, w, a.outShape(0), !transposed);
                    if (!f)
                        return std::nullopt;
                    total += *f;
                }
                if (a.listFlag(10, 1)) {
                    if (!gradOut || !x || !a.outShape(1))
                        return std::nullopt;
                    const auto gw = swapFirstTwo(*a.outShape(1));
                    const auto f = transposed
                        ? convFlops(swapFirstTwo(*gradOut), swapFirstTwo(*x), gw, false)
                        : convFlops(swapFirstTwo(*x), swapFirstTwo(*gradOut), gw, false);
                    if (!f)
                        return std::nullopt;
                    total += *f;
                }
                return total;
            }},
        {"aten._scaled_dot_product_efficient_attention",
            [](const Args& a) { return attentionFlops(a.shape(0), a.shape(1), a.shape(2)); }},
        {"aten._scaled_dot_product_flash_attention",
            [](const Args& a) { return attentionFlops(a.shape(0), a.shape(1), a.shape(2)); }},
        {"aten._scaled_dot_product_cudnn_attention",
            [](const Args& a) { return attentionFlops(a.shape(0), a.shape(1), a.shape(2)); }},
        {"aten._scaled_dot_product_efficient_attention_backward",
            [](const Args& a) { return attentionBackwardFlops(a.shape(1), a.shape(2), a.shape(3)); }},
        {"aten._scaled_dot_product_flash_attention_backward",
            [](const Args& a) { return attentionBackwardFlops(a.shape(1), a.shape(2), a.shape(3)); }},
        {"aten._scaled_dot_product_cudnn_attention_backward",
            [](const Args& a) { return attentionBackwardFlops(a.shape(1), a.shape(2), a.shape(3)); }},
        // Quirk kept: the raw kernels take (batch, seq, heads, dim), but PyTorch's formulas read those
        // shapes as (batch, heads, seq, dim) for non-nested inputs.
        {"aten._flash_attention_forward",
            [](const Args& a) { return attentionFlops(a.shape(0), a.shape(1), a.shape(2)); }},
        {"aten._efficient_attention_forward",
            [](const Args& a) { return attentionFlops(a.shape(0), a.shape(1), a.shape(2)); }},
        {"aten._flash_attention_backward",
            [](const Args& a) { return attentionBackwardFlops(a.shape(1), a.shape(2), a.shape(3)); }},
        {"aten._efficient_attention_backward",
            [](const Args& a) { return attentionBackwardFlops(a.shape(1), a.shape(2), a.shape(3)); }},
    };
    return table;
}

} // namespace

std::optional<std::int64_t> registeredFlops(const JointGraph& graph, NodeId n)
{
    const Node& node = graph.node(n);
    if (node.op != NodeOp::CallFunction)
        return std::nullopt;
    const auto it = formulas().find(graph.opOf(n).packet);
    if (it == formulas().end())
        return std::nullopt;
    return it->second(Args(graph, n));
}

} // namespace remat
