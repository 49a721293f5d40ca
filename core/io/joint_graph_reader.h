// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph.h"

#include <string>
#include <string_view>

namespace remat {

class SplitJsonDocuments;

/// Reads joint-graph format v1 (docs/joint-graph-format.md).
/// Every problem throws remat::Error naming the file and the line/column or the node and field;
/// nothing is returned half-loaded.
JointGraph readJointGraphFile(const std::string& path);

/// Same, from text already in memory; `fileName` is only used in messages.
JointGraph readJointGraphText(std::string_view text, const std::string& fileName);
/// Same, parsing in place (no copy) when `text` has readFileText's spare capacity.
JointGraph readJointGraphText(const std::string& text, const std::string& fileName);
/// Same, taking the text: it is freed (left empty) as soon as it is parsed.
JointGraph readJointGraphText(
    std::string&& text, const std::string& fileName, RecordedDetail detail = RecordedDetail::Full);

/// Same, from a file's two halves parsed apart (io/split_json_parse.h).
JointGraph readJointGraphDocuments(const SplitJsonDocuments& parts, const std::string& fileName,
    RecordedDetail detail = RecordedDetail::Full);

} // namespace remat
