// SPDX-License-Identifier: MIT
#include "model/group_tree.h"

#include <algorithm>

namespace remat::ui {

std::vector<int> GroupTree::ancestry(NodeId n) const
{
    std::vector<int> chain;
    for (int g = leafGroup(n); g >= 0; g = group(g).parent)
        chain.push_back(g);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

int GroupTree::depth(int g) const
{
    int d = 0;
    for (int p = group(g).parent; p >= 0; p = group(p).parent)
        ++d;
    return d;
}

} // namespace remat::ui
