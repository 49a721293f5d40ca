// SPDX-License-Identifier: MIT
#include "partition/cse.h"

#include "analysis/op_categories.h"

#include <bit>
#include <cmath>
#include <unordered_map>

namespace remat {
namespace {

// Token codes. The equality token carries structure (FX's tree spec); the hash token carries only
// the hashes of the flattened leaves, as `hash((args, kwargs))` on tree-flattened tuples does.
enum Code : std::uint64_t { kNone = 1, kInt, kFloat, kString, kRepr, kNode, kList, kDict, kNaN };

constexpr std::int64_t kPyHashModulus = (std::int64_t {1} << 61) - 1;

/// CPython's hash() of an int: value mod 2**61-1 with the sign kept, and -1 becomes -2.
std::int64_t pythonIntHash(std::int64_t value)
{
    std::int64_t h = 0;
    if (value >= 0) {
        h = value % kPyHashModulus;
    } else {
        const auto magnitude = static_cast<std::uint64_t>(-(value + 1)) + 1;
        h = -static_cast<std::int64_t>(magnitude % static_cast<std::uint64_t>(kPyHashModulus));
    }
    return h == -1 ? -2 : h;
}

/// Python numbers compare by value across bool, int and float; integral floats become ints.
bool integralValue(const Arg& arg, std::int64_t& out)
{
    switch (arg.kind) {
    case ArgKind::Bool:
        out = arg.boolean ? 1 : 0;
        return true;
    case ArgKind::Int:
        out = arg.integer;
        return true;
    case ArgKind::Float:
        if (std::isfinite(arg.real) && std::trunc(arg.real) == arg.real && std::fabs(arg.real) < 9.2e18) {
            out = static_cast<std::int64_t>(arg.real);
            return true;
        }
        return false;
    default:
        return false;
    }
}

struct Tokens {
    std::vector<std::uint64_t> equality;
    std::vector<std::uint64_t> hash;
};

class Tokenizer {
public:
    Tokenizer(const WorkGraph& graph, const std::vector<NodeId>& representative)
        : m_graph(graph.graph())
        , m_work(graph)
        , m_representative(representative)
    {
    }

    void add(const Arg& arg, Tokens& t) const
    {
        std::int64_t integer = 0;
        switch (arg.kind) {
        case ArgKind::None:
            t.equality.push_back(kNone);
            t.hash.push_back(kNone);
            return;
        case ArgKind::Bool:
        case ArgKind::Int:
        case ArgKind::Float:
            if (integralValue(arg, integer)) {
                t.equality.insert(t.equality.end(), {kInt, static_cast<std::uint64_t>(integer)});
                t.hash.insert(t.hash.end(), {kInt, static_cast<std::uint64_t>(pythonIntHash(integer))});
            } else if (std::isnan(arg.real)) {
                t.equality.push_back(kNaN);
                t.hash.push_back(kNaN);
            } else {
                const auto bits = std::bit_cast<std::uint64_t>(arg.real);
                t.equality.insert(t.equality.end(), {kFloat, bits});
                t.hash.insert(t.hash.end(), {kFloat, bits});
            }
            return;
        case ArgKind::String:
        case ArgKind::Repr: {
            const std::uint64_t code = arg.kind == ArgKind::String ? kString : kRepr;
            t.equality.insert(t.equality.end(), {code, arg.string});
            t.hash.insert(t.hash.end(), {code, arg.string});
            return;
        }
        case ArgKind::Node: {
            const NodeId resolved = m_work.resolve(arg.node);
            const NodeId rep = m_representative[static_cast<std::size_t>(resolved)];
            t.equality.insert(t.equality.end(), {kNode, static_cast<std::uint64_t>(rep)});
            t.hash.insert(t.hash.end(), {kNode, static_cast<std::uint64_t>(rep)});
            return;
        }
        case ArgKind::List:
            t.equality.insert(t.equality.end(), {kList, arg.size});
            for (const Arg& child : m_graph.children(arg))
                add(child, t);
            return;
        case ArgKind::Dict: {
            t.equality.insert(t.equality.end(), {kDict, arg.size});
            const auto items = m_graph.children(arg);
            for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
                t.equality.push_back(items[i].string); // keys belong to the spec, not the hash
                add(items[i + 1], t);
            }
            return;
        }
        }
    }

private:
    const JointGraph& m_graph;
    const WorkGraph& m_work;
    const std::vector<NodeId>& m_representative;
};

struct HashKey {
    OpId target;
    std::vector<std::uint64_t> leaves;
    bool operator==(const HashKey&) const = default;
};

struct HashKeyHash {
    std::size_t operator()(const HashKey& key) const noexcept
    {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ key.target;
        for (auto v : key.leaves)
            h = (h ^ v) * 0x100000001b3ULL + (h >> 29);
        return static_cast<std::size_t>(h);
    }
};

} // namespace

std::vector<NodeId> findCommonSubexpressions(const WorkGraph& graph, const OpCategories& ops)
{
    const JointGraph& joint = graph.graph();
    std::vector<NodeId> mergedInto(joint.size(), kNoNode);
    std::vector<NodeId> representative(joint.size());
    for (std::size_t i = 0; i < representative.size(); ++i)
        representative[i] = static_cast<NodeId>(i);

    struct FirstSeen {
        NodeId node;
        std::vector<std::uint64_t> equality;
    };
    std::unordered_map<HashKey, FirstSeen, HashKeyHash> firstByHash;
    const Tokenizer tokenizer(graph, representative);
    std::uint64_t mutationRegion = 0;
    for (NodeId n : graph.order()) {
        const Node& node = joint.node(n);
        if (node.op == NodeOp::Placeholder || node.op == NodeOp::Output || node.op == NodeOp::GetAttr)
            continue;
        if (ops.cseExcluded(node.target))
            continue;
        // Newest: a mutation opens a new region, and nothing merges across regions.
        if (ops.rules() == RuleSet::Newest && ops.mutableSchema(node.target))
            ++mutationRegion;
        Tokens tokens;
        tokenizer.add(joint.arg(node.args), tokens);
        tokens.equality.push_back(kDict); // separates args from kwargs in both tokens
        tokens.hash.push_back(kDict);
        tokenizer.add(joint.arg(node.kwargs), tokens);
        if (ops.rules() == RuleSet::Newest) {
            tokens.equality.push_back(mutationRegion);
            tokens.hash.push_back(mutationRegion); // a duplicate in a new region becomes that region's entry
        }
        HashKey key {node.target, std::move(tokens.hash)};
        const auto [it, inserted] = firstByHash.try_emplace(std::move(key), FirstSeen {n, tokens.equality});
        if (!inserted && it->second.equality == tokens.equality) {
            mergedInto[static_cast<std::size_t>(n)] = it->second.node;
            representative[static_cast<std::size_t>(n)] = it->second.node;
        }
    }
    return mergedInto;
}

} // namespace remat
