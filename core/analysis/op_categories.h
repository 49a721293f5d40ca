// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/rule_set.h"
#include "graph/joint_graph.h"

#include <vector>

namespace remat {

/// Which of PyTorch's op categories each target of one graph falls in, under one rule set.
/// Lookups are by OpId, so the partitioners never compare strings.
class OpCategories {
public:
    OpCategories(const JointGraph& graph, RuleSet rules, OpListCompiler compiler);

    bool recomputable(OpId op) const { return has(op, Recomputable); }
    bool random(OpId op) const { return has(op, Random); }
    bool computeIntensive(OpId op) const { return has(op, ComputeIntensive); }
    bool view(OpId op) const { return has(op, View); }
    bool fusible(OpId op) const { return has(op, Recomputable) || has(op, Random); }
    /// Never merged by CSE (1.13's rand_ops; newest: nondeterministic_seeded ops).
    bool cseExcluded(OpId op) const { return has(op, CseExcluded); }
    /// Kept by dead-code elimination even without users (torch.fx's side-effectful functions,
    /// and under the newest rules ops with a mutable schema).
    bool sideEffectful(OpId op) const { return has(op, SideEffectful); }
    /// In-place / out= ops: a mutable schema (newest rules only).
    bool mutableSchema(OpId op) const { return has(op, Mutable); }
    /// torch 2.x: tagged nondeterministic_seeded (dropout, rand_like, sdpa, ...): fx counts these
    /// as impure, so CSE never merges them, and DCE keeps them unless a TracingContext says not to.
    bool nondeterministicSeeded(OpId op) const { return has(op, NondeterministicSeeded); }
    bool getitem(OpId op) const { return has(op, Getitem); }
    bool collective(OpId op) const { return has(op, Collective); }

    RuleSet rules() const { return m_rules; }
    OpListCompiler compiler() const { return m_compiler; }

private:
    enum Flag : std::uint16_t {
        Recomputable = 1 << 0,
        Random = 1 << 1,
        ComputeIntensive = 1 << 2,
        View = 1 << 3,
        CseExcluded = 1 << 4,
        SideEffectful = 1 << 5,
        Mutable = 1 << 6,
        Getitem = 1 << 7,
        Collective = 1 << 8,
        NondeterministicSeeded = 1 << 9,
    };
    bool has(OpId op, Flag flag) const { return (m_flags[op] & flag) != 0; }

    std::vector<std::uint16_t> m_flags;
    RuleSet m_rules;
    OpListCompiler m_compiler;
};

} // namespace remat
