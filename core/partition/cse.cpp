// SPDX-License-Identifier: MIT
#include "partition/cse.h"

#include "analysis/op_categories.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace remat {
namespace {

// Token codes. The equality token carries structure (FX's tree spec); the hash token carries only
// the hashes of the flattened leaves, as `hash((args, kwargs))` on tree-flattened tuples does.
enum Code : std::uint64_t { kNone = 1, kInt, kFloat, kString, kRepr, kNode, kList, kDict, kNaN, kBool };

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

/// Two tokens at once; push_back stays inline where insert of a braced list does not.
void put(std::vector<std::uint64_t>& tokens, std::uint64_t code, std::uint64_t payload)
{
    tokens.push_back(code);
    tokens.push_back(payload);
}

class Tokenizer {
public:
    Tokenizer(const WorkGraph& graph, const std::vector<NodeId>& representative, bool typedScalars)
        : m_graph(graph.graph())
        , m_work(graph)
        , m_representative(representative)
        , m_typedScalars(typedScalars)
    { }

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
            if (m_typedScalars) {
                addTyped(arg, t);
            } else if (integralValue(arg, integer)) {
                put(t.equality, kInt, static_cast<std::uint64_t>(integer));
                put(t.hash, kInt, static_cast<std::uint64_t>(pythonIntHash(integer)));
            } else if (std::isnan(arg.real)) {
                t.equality.push_back(kNaN);
                t.hash.push_back(kNaN);
            } else {
                const auto bits = std::bit_cast<std::uint64_t>(arg.real);
                put(t.equality, kFloat, bits);
                put(t.hash, kFloat, bits);
            }
            return;
        case ArgKind::String:
        case ArgKind::Repr: {
            const std::uint64_t code = arg.kind == ArgKind::String ? kString : kRepr;
            put(t.equality, code, arg.string);
            put(t.hash, code, arg.string);
            return;
        }
        case ArgKind::Node: {
            const NodeId resolved = m_work.resolve(arg.node);
            const NodeId rep = m_representative[static_cast<std::size_t>(resolved)];
            put(t.equality, kNode, static_cast<std::uint64_t>(rep));
            put(t.hash, kNode, static_cast<std::uint64_t>(rep));
            return;
        }
        case ArgKind::List:
            put(t.equality, kList, arg.size);
            for (const Arg& child : m_graph.children(arg))
                add(child, t);
            return;
        case ArgKind::Dict: {
            put(t.equality, kDict, arg.size);
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
    /// torch 2.14 hashes (value, type(value)) and keys floats by their bits: 0 and 0.0 (or True and 1)
    /// never meet, 0.0 and -0.0 differ, and a NaN matches a NaN with the same bits. Ints keep
    /// CPython's hash, so hash(-1) == hash(-2) still hides the second from the first.
    void addTyped(const Arg& arg, Tokens& t) const
    {
        switch (arg.kind) {
        case ArgKind::Bool:
            put(t.equality, kBool, arg.boolean ? 1U : 0U);
            put(t.hash, kBool, arg.boolean ? 1U : 0U);
            return;
        case ArgKind::Int:
            put(t.equality, kInt, static_cast<std::uint64_t>(arg.integer));
            put(t.hash, kInt, static_cast<std::uint64_t>(pythonIntHash(arg.integer)));
            return;
        default: {
            const auto bits = std::bit_cast<std::uint64_t>(arg.real);
            put(t.equality, kFloat, bits);
            put(t.hash, kFloat, bits);
            return;
        }
        }
    }

    const JointGraph& m_graph;
    const WorkGraph& m_work;
    const std::vector<NodeId>& m_representative;
    bool m_typedScalars;
};

/// torch 2.14's partition key: the nodes the backward outputs depend on (themselves included).
/// A value only the forward needs never merges with one the backward needs, so that CSE cannot
/// turn a forward-only value into one the partitioner must save.
std::vector<char> backwardDependencies(const WorkGraph& graph)
{
    std::vector<char> needed(graph.graph().size(), 0);
    std::vector<NodeId> stack(graph.bwdOutputs().begin(), graph.bwdOutputs().end());
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        if (n == kNoNode || needed[static_cast<std::size_t>(n)])
            continue;
        needed[static_cast<std::size_t>(n)] = 1;
        for (NodeId input : graph.inputs(n))
            stack.push_back(input);
    }
    return needed;
}

/// Python's hash_env: the first node seen with each hash. It keeps no tokens: the rare lookup that
/// meets an entry with the same 64-bit digest tokenizes that entry's node again (its arguments were
/// all settled before it, so it gives the same tokens), instead of every node copying its tokens
/// here (1.6 MB for gpt_n48, mostly never read).
class FirstSeenTable {
public:
    struct Entry {
        NodeId node;
        OpId target;
        std::uint64_t digest;
        std::uint64_t region; // torch 2.x's mutation region when the node was seen
        std::int32_t next; // the entry seen before it with the same digest, or -1
    };

    explicit FirstSeenTable(std::size_t expected)
        : m_heads(std::bit_ceil(2 * expected + 2))
    {
        m_entries.reserve(expected);
    }

    /// The newest entry with this digest, or nullptr; older ones follow through Entry::next.
    const Entry* newest(std::uint64_t digest) const
    {
        const std::int32_t i = m_heads[slotOf(digest)].entry;
        return i < 0 ? nullptr : &m_entries[static_cast<std::size_t>(i)];
    }
    const Entry* next(const Entry& e) const
    {
        return e.next < 0 ? nullptr : &m_entries[static_cast<std::size_t>(e.next)];
    }
    void add(NodeId node, OpId target, std::uint64_t digest, std::uint64_t region)
    {
        Head& head = m_heads[slotOf(digest)];
        m_entries.push_back({node, target, digest, region, head.entry}); // head.entry: -1 for a new digest
        head = {tagOf(digest), static_cast<std::int32_t>(m_entries.size() - 1)};
    }

    static std::uint64_t digest(OpId target, const std::vector<std::uint64_t>& leaves)
    {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ target;
        for (auto v : leaves) {
            h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
            h *= 0x100000001b3ULL;
        }
        return h;
    }

private:
    /// The newest entry with one digest, found by the digest's high half (the entry holds all of
    /// it): an open-addressing table, at most half full, of 8-byte slots.
    struct Head {
        std::uint32_t tag = 0;
        std::int32_t entry = -1;
    };
    static std::uint32_t tagOf(std::uint64_t digest) { return static_cast<std::uint32_t>(digest >> 32); }

    /// The slot of `digest`, or the empty one where it goes.
    std::size_t slotOf(std::uint64_t digest) const
    {
        const std::size_t mask = m_heads.size() - 1;
        std::size_t i = static_cast<std::size_t>(digest ^ (digest >> 29)) & mask;
        while (m_heads[i].entry >= 0
            && (m_heads[i].tag != tagOf(digest)
                || m_entries[static_cast<std::size_t>(m_heads[i].entry)].digest != digest))
            i = (i + 1) & mask;
        return i;
    }

    std::vector<Entry> m_entries;
    std::vector<Head> m_heads;
};

} // namespace

std::vector<NodeId> findCommonSubexpressions(const WorkGraph& graph, const OpCategories& ops)
{
    const JointGraph& joint = graph.graph();
    std::vector<NodeId> mergedInto(joint.size(), kNoNode);
    std::vector<NodeId> representative(joint.size());
    for (std::size_t i = 0; i < representative.size(); ++i)
        representative[i] = static_cast<NodeId>(i);

    const bool torch2 = ops.rules() == RuleSet::Torch214;
    const std::vector<char> backwardNeeds = torch2 ? backwardDependencies(graph) : std::vector<char> {};
    FirstSeenTable firstByHash(graph.order().size());
    const Tokenizer tokenizer(graph, representative, torch2);
    // The tokens of a node: its args, then its kwargs, then (torch 2.x) its mutation region and
    // partition key.
    const auto tokenize = [&](NodeId n, std::uint64_t region, Tokens& out) {
        const Node& node = joint.node(n);
        out.equality.clear();
        out.hash.clear();
        tokenizer.add(joint.arg(node.args), out);
        out.equality.push_back(kDict); // separates args from kwargs in both tokens
        out.hash.push_back(kDict);
        tokenizer.add(joint.arg(node.kwargs), out);
        if (torch2) {
            out.equality.push_back(region);
            out.hash.push_back(region); // a duplicate in a new region becomes that region's entry
            const std::uint64_t partitionKey = backwardNeeds[static_cast<std::size_t>(n)] ? 1 : 0;
            out.equality.push_back(partitionKey);
            out.hash.push_back(partitionKey);
        }
    };
    std::uint64_t mutationRegion = 0;
    Tokens tokens;
    Tokens earlier;
    for (NodeId n : graph.order()) {
        const Node& node = joint.node(n);
        if (node.op == NodeOp::Placeholder || node.op == NodeOp::Output || node.op == NodeOp::GetAttr)
            continue;
        // torch 2.x: a mutation opens a new region, and nothing merges across regions.
        if (torch2 && ops.mutableSchema(node.target))
            ++mutationRegion;
        if (ops.cseExcluded(node.target))
            continue;
        // torch 2.14 leaves every impure node alone (fx's is_impure with random ops impure).
        if (torch2 && (ops.sideEffectful(node.target) || ops.nondeterministicSeeded(node.target)))
            continue;
        tokenize(n, mutationRegion, tokens);
        const auto digest = FirstSeenTable::digest(node.target, tokens.hash);
        // The entry with this target and hash leaves (Python's hash_val), if any.
        const FirstSeenTable::Entry* first = firstByHash.newest(digest);
        for (; first; first = firstByHash.next(*first)) {
            if (first->target != node.target)
                continue;
            tokenize(first->node, first->region, earlier);
            if (earlier.hash == tokens.hash)
                break;
        }
        if (first) {
            // Only the first node with this hash is ever compared, as in Python's hash_env.
            if (earlier.equality == tokens.equality) {
                mergedInto[static_cast<std::size_t>(n)] = first->node;
                representative[static_cast<std::size_t>(n)] = first->node;
            }
        } else {
            firstByHash.add(n, node.target, digest, mutationRegion);
        }
    }
    return mergedInto;
}

} // namespace remat
