// SPDX-License-Identifier: MIT
#include "partition/inductor_joint_passes.h"

#include "analysis/op_categories.h"
#include "budget/storage_aliasing.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string_view>

namespace remat {
namespace {

constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max(); // Python's 2**63 - 1

/// A parameter of an aten call, positional or by keyword; nullptr when the call omits it.
const Arg* parameter(
    const JointGraph& graph, const Node& node, std::size_t position, std::string_view keyword)
{
    const auto args = graph.children(graph.arg(node.args));
    if (position < args.size())
        return &args[position];
    const Arg& kwargs = graph.arg(node.kwargs);
    if (kwargs.kind != ArgKind::Dict)
        return nullptr;
    const auto items = graph.children(kwargs);
    for (std::size_t k = 0; k + 1 < items.size(); k += 2) {
        if (items[k].kind == ArgKind::String && graph.string(items[k].string) == keyword)
            return &items[k + 1];
    }
    return nullptr;
}

/// A Python int (a bool is one); nullopt for None, a SymInt node or anything else.
std::optional<std::int64_t> integer(const Arg* arg)
{
    if (arg && arg->kind == ArgKind::Int)
        return arg->integer;
    if (arg && arg->kind == ArgKind::Bool)
        return arg->boolean ? 1 : 0;
    return std::nullopt;
}

/// A list of Python ints; nullopt if any item is not one.
std::optional<std::vector<std::int64_t>> integers(const JointGraph& graph, const Arg* arg)
{
    if (!arg || arg->kind != ArgKind::List)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const Arg& item : graph.children(*arg)) {
        const auto value = integer(&item);
        if (!value)
            return std::nullopt;
        out.push_back(*value);
    }
    return out;
}

bool isComplex(Dtype dtype)
{
    return dtype == Dtype::Complex32 || dtype == Dtype::Complex64 || dtype == Dtype::Complex128;
}

bool isIntegerDtype(Dtype dtype)
{
    switch (dtype) {
    case Dtype::UInt8:
    case Dtype::UInt16:
    case Dtype::UInt32:
    case Dtype::UInt64:
    case Dtype::Int8:
    case Dtype::Int16:
    case Dtype::Int32:
    case Dtype::Int64:
        return true;
    default:
        return false;
    }
}

/// Replays the two passes on a mutable copy of the dataflow: uses move as Inductor's
/// replace_all_uses_with moves them, and erased nodes leave their inputs' user lists.
class Replay {
public:
    Replay(const WorkGraph& work, const OpCategories& ops)
        : m_work(work)
        , m_graph(work.graph())
        , m_ops(ops)
        , m_storages(work)
        , m_into(work.graph().size(), kNoNode)
        , m_erased(work.graph().size(), 0)
        , m_users(work.graph().size())
    {
        for (NodeId n : work.order()) {
            for (NodeId input : work.inputs(n))
                m_users[index(input)].push_back(n);
        }
    }

    void removeNoopOps();
    void applyEarlyPatterns();
    std::vector<NodeId> removals() const { return m_into; }

private:
    static std::size_t index(NodeId n) { return static_cast<std::size_t>(n); }
    NodeId resolve(NodeId n) const
    {
        while (m_into[index(n)] != kNoNode)
            n = m_into[index(n)];
        return n;
    }
    const TensorMeta* tensor(NodeId n) const
    {
        const Node& node = m_graph.node(n);
        return node.valueKind == ValueKind::Tensor && node.values.front() ? &node.tensor() : nullptr;
    }
    /// The node an argument names now (after earlier replacements), or kNoNode.
    NodeId nodeArg(const Arg* arg) const
    {
        return arg && arg->kind == ArgKind::Node ? resolve(arg->node) : kNoNode;
    }
    std::int64_t storage(NodeId n) const { return m_storages.storageOf(n).value_or(StorageMap::kNone); }
    bool sameMeta(NodeId a, NodeId b) const;
    bool noopCondition(NodeId n, std::string_view target, std::string_view packet, NodeId src) const;
    std::optional<NodeId> noopSource(NodeId n, std::string_view target, std::string_view packet) const;
    /// fallback_node_due_to_unsupported_type on CPU with C++ codegen: a complex tensor in or out.
    bool unsupportedType(NodeId n) const;
    void replace(NodeId n, NodeId by);
    void erase(NodeId n);
    /// The node n's first argument names, when it is a `target` call whose only user is n, in n's
    /// mutation region (what a pair pattern's inner CallFunction matches); else kNoNode.
    NodeId singleUserInner(NodeId n, std::string_view target) const;
    bool pointlessView(NodeId n);
    bool pointlessViewPair(NodeId n);
    bool pointlessPermutePair(NodeId n);
    bool definitelyEqual(const std::vector<std::int64_t>& shape, const Arg* size) const;

    const WorkGraph& m_work;
    const JointGraph& m_graph;
    const OpCategories& m_ops;
    StorageMap m_storages;
    std::vector<NodeId> m_into;
    std::vector<char> m_erased;
    std::vector<std::vector<NodeId>> m_users; ///< distinct users, as fx's node.users
    std::vector<int> m_region;
};

bool Replay::sameMeta(NodeId a, NodeId b) const
{
    const TensorMeta* x = tensor(a);
    const TensorMeta* y = tensor(b);
    return x && y && x->shape == y->shape && x->dtype == y->dtype && x->device == y->device
        && x->stride == y->stride;
}

std::optional<NodeId> Replay::noopSource(NodeId n, std::string_view target, std::string_view packet) const
{
    const Node& node = m_graph.node(n);
    const auto args = m_graph.children(m_graph.arg(node.args));
    const auto positional = [&](std::size_t i) { return i < args.size() ? nodeArg(&args[i]) : kNoNode; };
    if (target == "aten.view.default" || target == "aten.view.dtype")
        return positional(0);
    if (packet == "aten.view")
        return std::nullopt;
    if (packet == "aten.cat") {
        if (args.empty() || args[0].kind != ArgKind::List || args[0].size == 0)
            return kNoNode;
        return nodeArg(&m_graph.children(args[0])[0]);
    }
    if (packet == "aten.copy" || packet == "aten.slice_scatter")
        return positional(1);
    for (std::string_view p :
        {"aten.slice", "aten.repeat", "aten.constant_pad_nd", "prims.convert_element_type", "aten.ceil",
            "aten.floor", "aten.round", "aten.trunc", "aten.pow", "aten.alias", "aten.clone"}) {
        if (packet == p)
            return positional(0);
    }
    return std::nullopt; // not in Inductor's noop_registry (prims.device_put is, and is not replayed)
}

bool Replay::noopCondition(NodeId n, std::string_view target, std::string_view packet, NodeId src) const
{
    const Node& node = m_graph.node(n);
    const auto args = m_graph.children(m_graph.arg(node.args));
    // The op's first tensor: args[0], or the source where args[0] is a list (cat).
    const NodeId first = args.empty() ? kNoNode : nodeArg(&args[0]);
    const TensorMeta* self = args.empty() ? nullptr : tensor(first != kNoNode ? first : src);
    const auto dtypeArg = [&](std::size_t i) -> std::optional<Dtype> {
        const Arg* a = parameter(m_graph, node, i, "dtype");
        return a && a->kind == ArgKind::Repr ? parseDtype(m_graph.string(a->string)) : std::nullopt;
    };
    const auto dimSize = [&](const TensorMeta& t, const Arg* dimArg) -> std::optional<std::int64_t> {
        std::int64_t dim = dimArg ? integer(dimArg).value_or(kMaxInt64) : 0;
        const auto rank = static_cast<std::int64_t>(t.shape.size());
        if (dim < 0)
            dim += rank;
        if (dim < 0 || dim >= rank)
            return std::nullopt;
        return t.shape[static_cast<std::size_t>(dim)];
    };
    if (target == "aten.view.default") {
        const auto size = integers(m_graph, parameter(m_graph, node, 1, "size"));
        return self && size && *size == self->shape;
    }
    if (target == "aten.view.dtype") {
        const auto dtype = dtypeArg(1);
        return self && dtype && *dtype == self->dtype;
    }
    if (packet == "aten.slice") {
        const auto start = integer(parameter(m_graph, node, 2, "start"));
        const auto end = integer(parameter(m_graph, node, 3, "end"));
        const Arg* stepArg = parameter(m_graph, node, 4, "step");
        const auto step = stepArg ? integer(stepArg) : std::optional<std::int64_t>(1);
        if (!self || !start || !end)
            return false;
        const auto size = dimSize(*self, parameter(m_graph, node, 1, "dim"));
        return size && *start == 0 && (*end >= kMaxInt64 || *end >= *size) && step == 1;
    }
    if (packet == "aten.slice_scatter") {
        const TensorMeta* source = tensor(src);
        const Arg* startArg = parameter(m_graph, node, 3, "start");
        const Arg* endArg = parameter(m_graph, node, 4, "end");
        const Arg* stepArg = parameter(m_graph, node, 5, "step");
        const auto start = startArg && startArg->kind != ArgKind::None ? integer(startArg)
                                                                       : std::optional<std::int64_t>(0);
        const auto end = endArg && endArg->kind != ArgKind::None ? integer(endArg)
                                                                 : std::optional<std::int64_t>(kMaxInt64);
        const auto step = stepArg ? integer(stepArg) : std::optional<std::int64_t>(1);
        if (!self || !source || !start || !end)
            return false;
        const auto size = dimSize(*self, parameter(m_graph, node, 2, "dim"));
        return size && self->shape == source->shape && *start == 0 && (*end >= kMaxInt64 || *end >= *size)
            && step == 1;
    }
    if (packet == "aten.repeat" || packet == "aten.constant_pad_nd") {
        const auto values
            = integers(m_graph, parameter(m_graph, node, 1, packet == "aten.repeat" ? "repeats" : "pad"));
        const std::int64_t want = packet == "aten.repeat" ? 1 : 0;
        return values
            && std::all_of(values->begin(), values->end(), [want](std::int64_t v) { return v == want; });
    }
    if (packet == "prims.convert_element_type") {
        const auto dtype = dtypeArg(1);
        return self && dtype && *dtype == self->dtype;
    }
    if (packet == "aten.ceil" || packet == "aten.floor" || packet == "aten.round" || packet == "aten.trunc")
        return self && args.size() == 1 && isIntegerDtype(self->dtype);
    if (packet == "aten.pow")
        return args.size() == 2 && integer(&args[1]) == 1;
    if (packet == "aten.cat")
        return args[0].size == 1;
    return packet == "aten.copy" || packet == "aten.alias" || packet == "aten.clone";
}

bool Replay::unsupportedType(NodeId n) const
{
    if (m_graph.node(n).op == NodeOp::Placeholder)
        return false;
    const auto complexValue = [&](NodeId m) {
        for (const auto& value : m_graph.node(m).values) {
            if (value && isComplex(value->dtype))
                return true;
        }
        return false;
    };
    if (complexValue(n) && m_graph.opOf(n).target != "aten.view.dtype"
        && m_graph.opOf(n).packet != "prims.convert_element_type")
        return true;
    for (NodeId input : m_work.inputs(n)) {
        if (complexValue(resolve(input)))
            return true;
    }
    return false;
}

void Replay::erase(NodeId n)
{
    m_erased[index(n)] = 1;
    for (NodeId input : m_work.inputs(n))
        std::erase(m_users[index(resolve(input))], n);
}

void Replay::replace(NodeId n, NodeId by)
{
    for (NodeId user : m_users[index(n)]) {
        auto& users = m_users[index(by)];
        if (std::find(users.begin(), users.end(), user) == users.end())
            users.push_back(user);
    }
    m_users[index(n)].clear();
    erase(n); // before the move: n's inputs resolve past n no longer
    m_into[index(n)] = by;
}

void Replay::removeNoopOps()
{
    std::set<std::int64_t> inputStorages;
    std::set<std::int64_t> outputStorages;
    for (NodeId n : m_work.order()) {
        if (m_graph.node(n).op == NodeOp::Placeholder)
            inputStorages.insert(storage(n));
    }
    for (NodeId out : m_graph.outputs()) {
        if (out != kNoNode)
            outputStorages.insert(storage(out));
    }
    for (NodeId n : m_work.order()) {
        const OpInfo& op = m_graph.opOf(n);
        const auto source = noopSource(n, op.target, op.packet);
        if (!source || *source == kNoNode)
            continue;
        const NodeId src = *source;
        if (op.packet == "aten.copy") {
            const auto args = m_graph.children(m_graph.arg(m_graph.node(n).args));
            const NodeId dst = nodeArg(&args[0]);
            const Arg* pinned
                = dst == kNoNode ? nullptr : parameter(m_graph, m_graph.node(dst), kMaxInt64, "pin_memory");
            if (dst != kNoNode && m_graph.node(dst).op == NodeOp::CallFunction && pinned
                && pinned->kind == ArgKind::Bool && pinned->boolean)
                continue;
        }
        // Inductor does not make an output alias an input, or another output, that it did not.
        const bool view = storage(n) == storage(src);
        if (!view && outputStorages.contains(storage(n))
            && (inputStorages.contains(storage(src)) || outputStorages.contains(storage(src))))
            continue;
        // (Its other check, a view that is itself an element of output_node.args, never holds for a
        // joint graph, whose output node's only arg is the list of outputs.)
        if (sameMeta(n, src) && noopCondition(n, op.target, op.packet, src))
            replace(n, src);
    }
}

bool Replay::definitelyEqual(const std::vector<std::int64_t>& shape, const Arg* size) const
{
    const auto sizes = integers(m_graph, size);
    if (!sizes || sizes->size() != shape.size())
        return false;
    int wildcards = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == (*sizes)[i])
            continue;
        if ((*sizes)[i] != -1 || ++wildcards > 1)
            return false;
    }
    return true;
}

bool Replay::pointlessView(NodeId n)
{
    const Node& node = m_graph.node(n);
    const NodeId arg = nodeArg(parameter(m_graph, node, 0, "self"));
    const TensorMeta* t = arg == kNoNode ? nullptr : tensor(arg);
    if (!t || !definitelyEqual(t->shape, parameter(m_graph, node, 1, "size")))
        return false;
    replace(n, arg);
    return true;
}

NodeId Replay::singleUserInner(NodeId n, std::string_view target) const
{
    const NodeId inner = nodeArg(parameter(m_graph, m_graph.node(n), 0, "self"));
    if (inner == kNoNode || m_graph.opOf(inner).target != target || m_users[index(inner)].size() != 1
        || m_region[index(inner)] != m_region[index(n)])
        return kNoNode;
    return inner;
}

bool Replay::pointlessViewPair(NodeId n)
{
    const Node& node = m_graph.node(n);
    const NodeId inner = singleUserInner(n, "aten.view.default");
    if (inner == kNoNode)
        return false;
    const NodeId arg = nodeArg(parameter(m_graph, m_graph.node(inner), 0, "self"));
    const TensorMeta* t = arg == kNoNode ? nullptr : tensor(arg);
    if (!t || !definitelyEqual(t->shape, parameter(m_graph, node, 1, "size")))
        return false;
    replace(n, arg);
    erase(inner); // its one user is gone: the match erases it too
    return true;
}

bool Replay::pointlessPermutePair(NodeId n)
{
    const Node& node = m_graph.node(n);
    const NodeId inner = singleUserInner(n, "aten.permute.default");
    if (inner == kNoNode)
        return false;
    const auto perm1 = integers(m_graph, parameter(m_graph, m_graph.node(inner), 1, "dims"));
    const auto perm2 = integers(m_graph, parameter(m_graph, node, 1, "dims"));
    if (!perm1 || !perm2 || perm1->size() != perm2->size())
        return false;
    const auto rank = static_cast<std::int64_t>(perm1->size());
    for (std::int64_t i = 0; i < rank; ++i) {
        std::int64_t p2 = (*perm2)[static_cast<std::size_t>(i)];
        if (p2 < 0)
            p2 += rank; // Python indexing
        if (p2 < 0 || p2 >= rank || (*perm1)[static_cast<std::size_t>(p2)] != i)
            return false;
    }
    const NodeId arg = nodeArg(parameter(m_graph, m_graph.node(inner), 0, "self"));
    if (arg == kNoNode)
        return false;
    replace(n, arg);
    erase(inner);
    return true;
}

void Replay::applyEarlyPatterns()
{
    // compute_mutation_region_ids: a new region starts at each mutating node.
    m_region.assign(m_graph.size(), 0);
    int region = 0;
    std::vector<NodeId> candidates;
    for (NodeId n : m_work.order()) {
        if (m_erased[index(n)])
            continue;
        if (m_ops.mutableSchema(m_graph.node(n).target))
            ++region;
        m_region[index(n)] = region;
        const std::string& target = m_graph.opOf(n).target;
        if (target == "aten.view.default" || target == "aten.permute.default")
            candidates.push_back(n);
    }
    // The pattern matcher visits its candidates from the last, each through its patterns in order.
    for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
        const NodeId n = *it;
        if (m_erased[index(n)] || unsupportedType(n))
            continue;
        if (m_graph.opOf(n).target == "aten.permute.default") {
            pointlessPermutePair(n);
        } else if (!pointlessView(n)) {
            pointlessViewPair(n);
        }
    }
}

} // namespace

std::vector<NodeId> inductorJointPassRemovals(const WorkGraph& graph, const OpCategories& ops)
{
    Replay replay(graph, ops);
    replay.removeNoopOps();
    replay.applyEarlyPatterns();
    return replay.removals();
}

std::vector<char> foldJointPassRemovals(const WorkGraph& graph, const std::vector<NodeId>& removals,
    std::vector<NodeId>& mergedInto, std::vector<std::string>& notes)
{
    std::vector<char> removed(graph.graph().size(), 0);
    std::string named;
    int count = 0;
    for (std::size_t i = 0; i < removals.size(); ++i) {
        if (removals[i] == kNoNode)
            continue;
        const NodeId into = graph.resolve(static_cast<NodeId>(i));
        mergedInto[i] = into != kNoNode ? into : removals[i];
        removed[i] = 1;
        if (++count <= 6)
            named += (named.empty() ? "" : ", ") + graph.graph().node(static_cast<NodeId>(i)).name + " -> "
                + graph.graph().node(mergedInto[i]).name;
    }
    if (count > 0)
        notes.push_back("Inductor's joint-graph passes, replayed: " + std::to_string(count)
            + (count == 1 ? " no-op removed" : " no-ops removed") + " before partitioning (" + named
            + (count > 6 ? ", ..." : "") + ")");
    else if (!removals.empty()) // they ran (one entry per node) and found nothing: say so, as asked
        notes.push_back("Inductor's joint-graph passes, replayed: no no-op to remove");
    return removed;
}

} // namespace remat
