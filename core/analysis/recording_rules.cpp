// SPDX-License-Identifier: MIT
#include "analysis/recording_rules.h"

#include "graph/joint_graph.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace remat {

namespace {

/// A major version of 2 or more at the start of `version` ("2.14.1+debian").
bool isTorch2OrLater(std::string_view version)
{
    int major = 0;
    std::size_t i = 0;
    for (; i < version.size() && std::isdigit(static_cast<unsigned char>(version[i])); ++i)
        major = major * 10 + (version[i] - '0');
    return i > 0 && i < version.size() && version[i] == '.' && major >= 2;
}

} // namespace

RuleSet rulesOfRecording(const JointGraph& graph)
{
    if (!graph.recordedTorchVersion().empty())
        return isTorch2OrLater(graph.recordedTorchVersion()) ? RuleSet::Torch214 : RuleSet::Torch113;
    // An export without PyTorch's decisions still names its producer: "torch 2.14.1 torch.compile ...".
    constexpr std::string_view prefix = "torch ";
    const std::string& producer = graph.source().producer;
    if (producer.starts_with(prefix) && isTorch2OrLater(std::string_view(producer).substr(prefix.size())))
        return RuleSet::Torch214;
    return RuleSet::Torch113;
}

bool decidedAfterInductorJointPasses(const JointGraph& graph)
{
    for (const auto& [key, recorded] : graph.recorded()) {
        if (std::find(recorded.graphPassesBefore.begin(), recorded.graphPassesBefore.end(), "remove_noop_ops")
            != recorded.graphPassesBefore.end())
            return true;
    }
    return false;
}

std::optional<JointPassReplay> parseJointPassReplay(std::string_view text)
{
    if (text == "auto")
        return JointPassReplay::Auto;
    if (text == "on")
        return JointPassReplay::On;
    if (text == "off")
        return JointPassReplay::Off;
    return std::nullopt;
}

bool replaysInductorJointPasses(JointPassReplay replay, RuleSet rules, const JointGraph& graph)
{
    if (rules == RuleSet::Torch113 || replay == JointPassReplay::Off)
        return false;
    return replay == JointPassReplay::On || decidedAfterInductorJointPasses(graph);
}

} // namespace remat
