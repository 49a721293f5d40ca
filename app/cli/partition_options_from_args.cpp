// SPDX-License-Identifier: MIT
#include "cli/partition_options_from_args.h"

#include "analysis/recording_rules.h"
#include "graph/checkpoint_policy.h"

namespace remat::cli {
namespace {

/// --inductor-passes auto|on|off (default auto). Throws UsageError for another word.
JointPassReplay jointPassReplayFrom(const Arguments& args)
{
    const auto text = args.value("--inductor-passes");
    if (!text)
        return JointPassReplay::Auto;
    const auto replay = parseJointPassReplay(*text);
    if (!replay)
        throw UsageError {"--inductor-passes must be auto, on or off, not \"" + *text + "\""};
    return *replay;
}

} // namespace

const std::set<std::string>& partitionOptionNames()
{
    static const std::set<std::string> names {
        "--partitioner", "--rules", "--compiler", "--tag", "--inductor-passes"};
    return names;
}

const std::set<std::string>& partitionFlagNames()
{
    static const std::set<std::string> names {"--activation-offloading", "--offload"};
    return names;
}

bool activationOffloadingFrom(const Arguments& args)
{
    return args.flag("--activation-offloading") || args.flag("--offload");
}

PartitionOptions partitionOptionsFrom(const Arguments& args)
{
    PartitionOptions options;
    options.config.activationOffloading = activationOffloadingFrom(args);
    if (const auto p = args.value("--partitioner")) {
        const auto kind = parsePartitioner(*p);
        if (!kind)
            throw UsageError {"--partitioner must be min-cut or default, not \"" + *p + "\""};
        options.partitioner = *kind;
    }
    if (const auto r = args.value("--rules")) {
        const auto rules = parseRuleSet(*r);
        if (!rules)
            throw UsageError {"--rules must be " + std::string(ruleSetChoices()) + ", not \"" + *r + "\""};
        options.rules = *rules;
    }
    if (const auto c = args.value("--compiler")) {
        const auto compiler = parseCompiler(*c);
        if (!compiler)
            throw UsageError {"--compiler must be nvfuser or inductor, not \"" + *c + "\""};
        options.compiler = *compiler;
    }
    tagArguments(args); // a bad policy is reported before the graph is loaded
    jointPassReplayFrom(args);
    return options;
}

void applyRulesOfRecording(PartitionOptions& options, const Arguments& args, const JointGraph& graph)
{
    if (!args.value("--rules") && !args.value("--compiler"))
        options.rules = rulesOfRecording(graph);
    options.config.inductorJointPasses = inductorJointPassesFrom(args, options.rules, graph);
}

bool inductorJointPassesFrom(const Arguments& args, RuleSet rules, const JointGraph& graph)
{
    const JointPassReplay replay = jointPassReplayFrom(args);
    if (replay == JointPassReplay::On && rules == RuleSet::Torch113)
        throw UsageError {"--inductor-passes on replays torch 2.x's Inductor, which the torch-1.13 rules do "
                          "not have: use --rules torch-2.14"};
    return replaysInductorJointPasses(replay, rules, graph);
}

std::vector<std::pair<std::string, CheckpointPolicy>> tagArguments(const Arguments& args)
{
    std::vector<std::pair<std::string, CheckpointPolicy>> tags;
    for (const std::string& tag : args.values("--tag")) {
        const auto eq = tag.rfind('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError {"--tag expects NAME=POLICY, not \"" + tag + "\""};
        const std::string policyText = tag.substr(eq + 1);
        const auto policy = parseCheckpointPolicy(policyText);
        if (!policy || *policy == CheckpointPolicy::None)
            throw UsageError {"--tag " + tag + ": unknown policy \"" + policyText
                + "\" (MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE, PREFER_RECOMPUTE, MUST_CPU_OFFLOAD or "
                  "PREFER_CPU_OFFLOAD)"};
        tags.emplace_back(tag.substr(0, eq), *policy);
    }
    return tags;
}

NodeId nodeNamed(const JointGraph& graph, const std::string& name, const std::string& what)
{
    const NodeId n = graph.find(name);
    if (n == kNoNode)
        throw UsageError {what + ": " + graph.filePath() + " has no node '" + name + "'"};
    return n;
}

std::vector<std::pair<NodeId, CheckpointPolicy>> tagsFrom(const Arguments& args, const JointGraph& graph)
{
    std::vector<std::pair<NodeId, CheckpointPolicy>> tags;
    for (const auto& [name, policy] : tagArguments(args)) {
        const NodeId n = nodeNamed(graph, name, "--tag " + name);
        if (graph.node(n).op == NodeOp::Placeholder)
            throw UsageError {
                "--tag " + name + ": '" + name + "' is a graph input, and inputs cannot be tagged"};
        tags.emplace_back(n, policy);
    }
    return tags;
}

} // namespace remat::cli
