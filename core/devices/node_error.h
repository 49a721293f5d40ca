// SPDX-License-Identifier: MIT
#pragma once

#include "graph/arg.h"
#include "graph/error.h"

namespace remat::devices {

/// A refusal caused by one node (too large for any device, no shape, no latency): the message is
/// PyTorch's, the node lets the app point at it.
class NodeError : public Error {
public:
    NodeError(const std::string& message, NodeId at)
        : Error(message)
        , m_node(at)
    { }
    NodeId node() const { return m_node; }

private:
    NodeId m_node;
};

} // namespace remat::devices
