// SPDX-License-Identifier: MIT
#include "partition/fw_bw_split.h"

#include "analysis/node_roles.h"
#include "analysis/placement.h"
#include "analysis/tensor_size.h"
#include "partition/extraction.h"

#include <algorithm>

namespace remat {

void splitForwardBackward(const WorkGraph& graph, const OpCategories& ops, std::vector<NodeId> saved,
                          PartitionResult& result)
{
    const JointGraph& joint = graph.graph();
    const bool newest = ops.rules() == RuleSet::Newest;
    std::vector<NodeId> primals;
    std::vector<NodeId> tangents;
    for (NodeId n : graph.order()) {
        if (newest ? (isPrimalNewest(joint, n) || isFwdSeedOffset(joint, n)) : isPrimal113(joint, n))
            primals.push_back(n);
        else if (isTangent(joint, n) || (newest && isBwdSeedOffset(joint, n)))
            tangents.push_back(n);
    }

    ExtractionRules forwardRules;
    forwardRules.impure = [&](NodeId n) { return ops.sideEffectful(joint.node(n).target); };
    forwardRules.graphName = "forward";
    ExtractionRules backwardRules = forwardRules;
    backwardRules.graphName = "backward";
    if (newest) {
        forwardRules.forbidden = [&](NodeId n) { return mustBeInBackward(graph, ops, n); };
        backwardRules.forbidden = [&](NodeId n) { return mustBeInForward(graph, ops, n); };
    }

    const auto extract = [&](const std::vector<NodeId>& savedValues, ExtractedGraph& fw, ExtractedGraph& bw) {
        std::vector<NodeId> fwOutputs(graph.fwdOutputs().begin(), graph.fwdOutputs().end());
        fwOutputs.insert(fwOutputs.end(), savedValues.begin(), savedValues.end());
        fw = extractSubgraph(graph, primals, fwOutputs, forwardRules);
        std::vector<NodeId> bwInputs = savedValues;
        bwInputs.insert(bwInputs.end(), tangents.begin(), tangents.end());
        bw = extractSubgraph(graph, bwInputs, graph.bwdOutputs(), backwardRules);
    };

    ExtractedGraph fw;
    ExtractedGraph bw;
    extract(saved, fw, bw);
    // Saved values the backward never reads are not worth saving: drop them and extract again.
    if (!bw.unusedInputs.empty()) {
        std::erase_if(saved, [&](NodeId n) {
            return std::find(bw.unusedInputs.begin(), bw.unusedInputs.end(), n) != bw.unusedInputs.end();
        });
        extract(saved, fw, bw);
    }

    result.savedValues = std::move(saved);
    result.fwNodes = std::move(fw.nodes);
    result.bwNodes = std::move(bw.nodes);
    result.recomputed.clear();
    result.savedBytes = 0;
    std::vector<char> isSaved(joint.size(), 0);
    for (NodeId n : result.savedValues) {
        isSaved[static_cast<std::size_t>(n)] = 1;
        result.savedBytes += valueBytes(joint.node(n));
    }
    for (NodeId n : result.bwNodes) {
        if (joint.node(n).op == NodeOp::CallFunction && fw.has(n) && !isSaved[static_cast<std::size_t>(n)])
            result.recomputed.push_back(n);
    }
}

} // namespace remat
