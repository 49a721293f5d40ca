// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace remat {

class JointGraph;

/// One labelled line of what a file says about its graph.
struct ProvenanceRow {
    std::string label;
    std::string text;
};

/// Where a graph comes from and what that settles before any partition: the file, the producer
/// and the exporter's description, which PyTorch's rules it opens under and why, the inputs the
/// partitioner treats as static, whether PyTorch partitioned it inside torch.compile, and the
/// decisions PyTorch recorded in it. The app's Graph Properties shows these rows.
std::vector<ProvenanceRow> describeProvenance(const JointGraph& graph);

} // namespace remat
