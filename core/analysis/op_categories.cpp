// SPDX-License-Identifier: MIT
#include "analysis/op_categories.h"

#include "analysis/op_lists.h"
#include "graph/string_hash.h"

#include <unordered_set>

namespace remat {
namespace {

using PacketSet = std::unordered_set<std::string_view>;

PacketSet makeSet(std::initializer_list<std::span<const std::string_view>> lists)
{
    PacketSet set;
    for (auto list : lists)
        set.insert(list.begin(), list.end());
    return set;
}

struct CategorySets {
    PacketSet recomputable;
    PacketSet random;
    PacketSet computeIntensive;
    PacketSet view;
    PacketSet cseExcluded;
    PacketSet sideEffectful;
};

/// Each rule set's sets are built the first time they are asked for, and only they: a command
/// uses one of the three.
const CategorySets& setsFor(RuleSet rules, OpListCompiler compiler)
{
    using namespace oplists;
    if (rules == RuleSet::Newest) {
        static const CategorySets newest {
            makeSet({newestRecomputableExplicit(), newestView(), atenPointwise(), newestSymOperators()}),
            makeSet({newestRandom()}),
            makeSet({newestComputeIntensive()}),
            makeSet({newestView()}),
            makeSet({newestCseExcluded()}),
            makeSet({newestSideEffectful()}),
        };
        return newest;
    }
    if (compiler == OpListCompiler::Inductor) {
        static const CategorySets inductor113 {
            makeSet({torch113Recomputable(), torch113InductorExtra()}),
            makeSet({torch113Random()}),
            makeSet({torch113ComputeIntensive()}),
            {},
            makeSet({torch113CseRandom()}),
            makeSet({torch113SideEffectful()}),
        };
        return inductor113;
    }
    static const CategorySets nvfuser113 {
        makeSet({torch113Recomputable()}),
        makeSet({torch113Random()}),
        makeSet({torch113ComputeIntensive()}),
        {},
        makeSet({torch113CseRandom()}),
        makeSet({torch113SideEffectful()}),
    };
    return nvfuser113;
}

const PacketSet& nondeterministicSeededPackets()
{
    static const PacketSet set = makeSet({oplists::atenNondeterministicSeeded()});
    return set;
}

/// An op overload whose name ends in '_' (add_, bernoulli_, copy_) or whose overload is "out"
/// mutates an argument: its schema is mutable. Dunder operators (__and__) are not in-place.
bool hasMutableSchema(const OpInfo& info)
{
    if (!info.isOverload)
        return false;
    const bool dunder = info.name.starts_with("__") && info.name.ends_with("__");
    const bool inPlace = !dunder && info.name.ends_with('_');
    const auto overload = std::string_view(info.target).substr(info.packet.size() + 1);
    return inPlace || overload == "out" || overload.starts_with("out_") || overload.ends_with("_out");
}

} // namespace

OpCategories::OpCategories(const JointGraph& graph, RuleSet rules, OpListCompiler compiler)
    : m_rules(rules)
    , m_compiler(compiler)
{
    const CategorySets& sets = setsFor(rules, compiler);
    m_flags.resize(graph.opCount(), 0);
    for (OpId op = 0; op < graph.opCount(); ++op) {
        const OpInfo& info = graph.op(op);
        std::uint16_t flags = 0;
        const std::string_view packet = info.packet;
        if (sets.recomputable.contains(packet))
            flags |= Recomputable;
        if (sets.random.contains(packet))
            flags |= Random;
        if (sets.computeIntensive.contains(packet))
            flags |= ComputeIntensive;
        if (sets.view.contains(packet))
            flags |= View;
        if (sets.cseExcluded.contains(packet))
            flags |= CseExcluded;
        if (sets.sideEffectful.contains(packet) || sets.sideEffectful.contains(std::string_view(info.target)))
            flags |= SideEffectful;
        if (rules == RuleSet::Newest && hasMutableSchema(info))
            flags |= Mutable | SideEffectful;
        if (packet == "_operator.getitem" || packet == "operator.getitem")
            flags |= Getitem;
        if (rules == RuleSet::Torch214 && nondeterministicSeededPackets().contains(packet))
            flags |= NondeterministicSeeded;
        if (info.nameSpace == "_c10d_functional")
            flags |= Collective;
        m_flags[op] = flags;
    }
}

} // namespace remat
