// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace remat {

struct Node;

/// A node's name for a list a person reads: an input also by its name in the model
/// ("primals_7 = lm.h.0.attn.c_attn.weight"), any other node by its name alone.
std::string nameWithInputName(const Node& node);

} // namespace remat
