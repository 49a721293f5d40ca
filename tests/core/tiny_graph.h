// SPDX-License-Identifier: MIT
#pragma once
// Writes small joint graphs in format v1 for unit tests: every tensor is float32 of `shape`.

#include "io/joint_graph_reader.h"

#include <string>
#include <vector>

class TinyGraph {
public:
    explicit TinyGraph(std::vector<int> shape = {8, 8})
        : m_shape(std::move(shape))
    { }

    /// args/kwargs are JSON text; node references as {"node":"name"}.
    TinyGraph& call(const std::string& name, const std::string& target, const std::string& args,
        const std::string& kwargs = "{}", const std::string& meta = "{}")
    {
        add(name, "call_function", target, args, kwargs, tensorVal(), meta);
        return *this;
    }
    TinyGraph& placeholder(const std::string& name)
    {
        add(name, "placeholder", name, "[]", "{}", tensorVal(), "{}");
        return *this;
    }
    /// A node whose value is a tuple (no tensor_meta in 1.13).
    TinyGraph& tupleCall(
        const std::string& name, const std::string& target, const std::string& args, int outputs)
    {
        std::string val = "[";
        for (int i = 0; i < outputs; ++i)
            val += std::string(i ? "," : "") + tensorVal();
        add(name, "call_function", target, args, "{}", val + "]", "{}");
        return *this;
    }
    TinyGraph& output(
        const std::vector<std::string>& forwardOutputs, const std::vector<std::string>& gradients)
    {
        std::string list;
        for (const auto& o : forwardOutputs)
            list += std::string(list.empty() ? "" : ",") + ref(o);
        for (const auto& g : gradients)
            list += std::string(list.empty() ? "" : ",") + (g.empty() ? std::string("null") : ref(g));
        add("output", "output", "output", "[[" + list + "]]", "{}", "null", "{}");
        m_numFwdOutputs = static_cast<int>(forwardOutputs.size());
        return *this;
    }

    std::string json() const
    {
        return R"({"format":"joint-graph","version":1,"num_fwd_outputs":)" + std::to_string(m_numFwdOutputs)
            + R"(,"nodes":[)" + m_nodes + "]}";
    }
    remat::JointGraph build() const { return remat::readJointGraphText(json(), "tiny.json"); }

    static std::string ref(const std::string& name) { return R"({"node":")" + name + R"("})"; }

private:
    std::string tensorVal() const
    {
        std::string dims;
        for (int d : m_shape)
            dims += std::string(dims.empty() ? "" : ",") + std::to_string(d);
        return R"({"shape":[)" + dims + R"(],"dtype":"float32","device":"cpu"})";
    }
    void add(const std::string& name, const std::string& op, const std::string& target,
        const std::string& args, const std::string& kwargs, const std::string& val, const std::string& meta)
    {
        m_nodes += std::string(m_nodes.empty() ? "" : ",") + R"({"name":")" + name + R"(","op":")" + op
            + R"(","target":")" + target + R"(","args":)" + args + R"(,"kwargs":)" + kwargs + R"(,"val":)"
            + val + R"(,"meta":)" + meta + "}";
    }

    std::vector<int> m_shape;
    std::string m_nodes;
    int m_numFwdOutputs = 0;
};
