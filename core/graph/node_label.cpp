// SPDX-License-Identifier: MIT
#include "graph/node_label.h"

#include "graph/node.h"

namespace remat {

std::string nameWithInputName(const Node& node)
{
    const std::string& inModel = node.meta.source->inputName;
    return inModel.empty() ? node.name : node.name + " = " + inModel;
}

} // namespace remat
