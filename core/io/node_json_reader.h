// SPDX-License-Identifier: MIT
#pragma once

#include "graph/joint_graph_builder.h"

#include <simdjson.h>

#include <string>

namespace remat {

/// A node reference to a name no earlier node has: the caller decides whether the name is
/// unknown or belongs to a later node (a cycle or a misordered file).
struct UnresolvedReference {
    std::string node; ///< "'mul'" or "#12"
    std::string field; ///< "args[1]"
    std::string name; ///< the name referred to
};

/// Turns one node object of a joint-graph file (a parsed simdjson DOM element) into a Node. Throws
/// remat::Error ("node 'x': val.shape[1]: negative size -4") or UnresolvedReference.
class NodeJsonReader {
public:
    explicit NodeJsonReader(JointGraphBuilder& builder)
        : m_builder(builder)
    { }

    /// Fills `node` (default-constructed, the builder's own: see JointGraphBuilder::newNode).
    void read(simdjson::dom::element value, NodeId id, Node& node);

private:
    struct Path; // where a value sits inside the node, built into text only for messages

    [[noreturn]] void fail(const Path& path, const std::string& what) const;
    [[noreturn]] void fail(const std::string& field, const std::string& what) const;

    NodeOp readOp(std::string_view text) const;
    ArgIndex readArgs(simdjson::dom::element value, const Path& path);
    void fillArg(simdjson::dom::element value, std::uint32_t index, const Path& path);
    Arg objectArg(simdjson::dom::object object, const Path& path);
    void readValue(simdjson::dom::element value, Node& node) const;
    /// Keys of a `val` object that say what else it is.
    struct TensorKeys {
        bool symbolic = false; ///< "sym": a symbolic value, not a tensor
        bool freeSymbols = false; ///< "free_symbols": the symbols of its sizes
    };
    /// Fills `meta`; with `orSymbolic`, a "sym" key makes it a symbolic value instead (left to
    /// readSymbolic), else the key is ignored as any other.
    TensorKeys readTensorMeta(
        simdjson::dom::element value, const Path& path, TensorMeta& meta, bool orSymbolic) const;
    void readSymbolic(simdjson::dom::element value, Node& node, const Path& path) const;
    void readFreeSymbols(simdjson::dom::element value, Node& node, const Path& path) const;
    void readDims(
        simdjson::dom::element value, const Path& path, bool isShape, std::vector<std::int64_t>& dims) const;
    void readMeta(simdjson::dom::object meta, NodeMeta& out) const;
    CheckpointPolicy readPolicy(simdjson::dom::element value) const;
    PartitionerTag readTag(simdjson::dom::element value) const;

    std::string label() const; ///< "'mul'", or "#12" before the name is known

    JointGraphBuilder& m_builder;
    NodeId m_id = 0;
    std::string_view m_name; // into the parsed document
};

} // namespace remat
