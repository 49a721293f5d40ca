// SPDX-License-Identifier: MIT
#include "io/node_json_reader.h"

#include "graph/checkpoint_policy.h"
#include "graph/error.h"

#include <algorithm>
#include <cmath>

namespace remat {

using simdjson::dom::object;
using value = simdjson::dom::element;
using simdjson::dom::element_type;

constexpr ArgIndex kEmptyKwargs = 1; // the builder's shared empty dict
constexpr const char* kNotTensorMeta
    = "expected a TensorMeta object {\"shape\", \"dtype\", \"stride\", \"device\"}";

struct NodeJsonReader::Path {
    const Path* parent = nullptr;
    std::string_view key; // a member name, or empty for a list index
    std::size_t index = 0;

    Path member(std::string_view name) const { return {this, name, 0}; }
    Path element(std::size_t i) const { return {this, {}, i}; }
    std::string text() const
    {
        std::string out = parent ? parent->text() : std::string();
        if (!key.empty())
            out += (out.empty() ? "" : ".") + std::string(key);
        else if (parent)
            out += "[" + std::to_string(index) + "]";
        return out;
    }
};

void NodeJsonReader::fail(const Path& path, const std::string& what) const
{
    fail(path.text(), what);
}

std::string NodeJsonReader::label() const
{
    return m_name.empty() ? "#" + std::to_string(m_id) : "'" + std::string(m_name) + "'";
}

void NodeJsonReader::fail(const std::string& field, const std::string& what) const
{
    std::string message = "node " + label();
    if (!field.empty())
        message += ": " + field;
    throw Error(message + ": " + what);
}

void NodeJsonReader::read(value nodeValue, NodeId id, Node& node)
{
    m_id = id;
    m_name = {};
    if (nodeValue.type() != element_type::OBJECT)
        fail(std::string(), "expected an object");
    node.kwargs = kEmptyKwargs;
    bool hasName = false;
    bool hasOp = false;
    bool hasTarget = false;
    const Path root;
    for (const auto field : object(nodeValue)) {
        const std::string_view key = field.key;
        const value v = field.value;
        if (key == "name") {
            if (v.type() != element_type::STRING || v.get_string().value_unsafe().empty())
                fail("name", "expected a non-empty string");
            m_name = v.get_string().value_unsafe();
            node.name = std::string(m_name);
            hasName = true;
        } else if (key == "op") {
            if (v.type() != element_type::STRING)
                fail("op", "expected a string");
            node.op = readOp(v.get_string().value_unsafe());
            hasOp = true;
        } else if (key == "target") {
            if (v.type() != element_type::STRING)
                fail("target", "expected a string");
            node.target = m_builder.internOp(v.get_string().value_unsafe());
            hasTarget = true;
        } else if (key == "args") {
            if (v.type() != element_type::ARRAY)
                fail("args", "expected a list");
            node.args = readArgs(v, root.member("args"));
        } else if (key == "kwargs") {
            if (v.type() != element_type::OBJECT)
                fail("kwargs", "expected an object");
            // Most nodes have none: they share the builder's empty dict.
            node.kwargs = object(v).size() == 0 ? kEmptyKwargs : readArgs(v, root.member("kwargs"));
        } else if (key == "val") {
            readValue(v, node);
        } else if (key == "meta") {
            if (v.type() != element_type::OBJECT)
                fail("meta", "expected an object");
            readMeta(object(v), node.meta);
        }
    }
    if (!hasName)
        fail(std::string(), "missing \"name\"");
    if (!hasOp)
        fail(std::string(), "missing \"op\"");
    if (!hasTarget)
        node.target = m_builder.internOp(node.name);
    if (node.op == NodeOp::Output) {
        const Arg& outputArgs = m_builder.argAt(node.args);
        if (outputArgs.size != 1 || m_builder.argAt(outputArgs.first).kind != ArgKind::List)
            fail("args", "the output node's args must be [[outputs...]]");
    }
}

NodeOp NodeJsonReader::readOp(std::string_view text) const
{
    if (text == "call_function")
        return NodeOp::CallFunction;
    if (text == "placeholder")
        return NodeOp::Placeholder;
    if (text == "output")
        return NodeOp::Output;
    if (text == "get_attr")
        return NodeOp::GetAttr;
    if (text == "call_module")
        return NodeOp::CallModule;
    if (text == "call_method")
        return NodeOp::CallMethod;
    fail("op",
        "unknown op \"" + std::string(text)
            + "\" (expected placeholder, call_function, get_attr, call_module, call_method or output)");
}

ArgIndex NodeJsonReader::readArgs(value v, const Path& path)
{
    const auto index = m_builder.reserveArgs(1);
    fillArg(v, index, path);
    return index;
}

void NodeJsonReader::fillArg(value v, std::uint32_t index, const Path& path)
{
    Arg arg;
    switch (v.type()) {
    case element_type::NULL_VALUE:
        arg.kind = ArgKind::None;
        break;
    case element_type::BOOL:
        arg.kind = ArgKind::Bool;
        arg.boolean = v.get_bool().value_unsafe();
        break;
    case element_type::INT64:
        arg.kind = ArgKind::Int;
        arg.integer = v.get_int64().value_unsafe();
        break;
    case element_type::UINT64:
        fail(path, "integer too large");
    case element_type::DOUBLE:
        arg.kind = ArgKind::Float;
        arg.real = v.get_double().value_unsafe();
        break;
    case element_type::STRING:
        arg.kind = ArgKind::String;
        arg.string = m_builder.intern(v.get_string().value_unsafe());
        break;
    case element_type::ARRAY: {
        const simdjson::dom::array list(v);
        arg.kind = ArgKind::List;
        arg.size = static_cast<std::uint32_t>(list.size());
        arg.first = m_builder.reserveArgs(arg.size);
        std::uint32_t i = 0;
        for (const value element : list) {
            fillArg(element, arg.first + i, path.element(i));
            ++i;
        }
        break;
    }
    case element_type::OBJECT:
        arg = objectArg(object(v), path);
        break;
    }
    m_builder.argAt(index) = arg;
}

Arg NodeJsonReader::objectArg(object obj, const Path& path)
{
    Arg arg;
    if (obj.size() == 1) {
        const auto only = *obj.begin();
        if ((only.key == "node" || only.key == "repr") && only.value.type() == element_type::STRING) {
            const std::string_view text = only.value.get_string().value_unsafe();
            if (only.key == "node") {
                const NodeId target = m_builder.find(text);
                if (target == kNoNode)
                    throw UnresolvedReference {label(), path.text(), std::string(text)};
                arg.kind = ArgKind::Node;
                arg.node = target;
            } else if (text == "inf" || text == "-inf" || text == "nan") {
                // Non-finite floats are written as reprs; they are numbers to CSE and to the user.
                arg.kind = ArgKind::Float;
                arg.real = text == "nan" ? std::nan("") : (text == "inf" ? HUGE_VAL : -HUGE_VAL);
            } else {
                arg.kind = ArgKind::Repr;
                arg.string = m_builder.intern(text);
            }
            return arg;
        }
    }
    arg.kind = ArgKind::Dict;
    arg.size = static_cast<std::uint32_t>(obj.size());
    arg.first = m_builder.reserveArgs(2 * arg.size);
    std::uint32_t slot = arg.first;
    for (const auto field : obj) {
        Arg key;
        key.kind = ArgKind::String;
        key.string = m_builder.intern(field.key);
        m_builder.argAt(slot) = key;
        fillArg(field.value, slot + 1, path.member(field.key));
        slot += 2;
    }
    return arg;
}

void NodeJsonReader::readValue(value v, Node& node) const
{
    const Path root;
    const Path path = root.member("val");
    switch (v.type()) {
    case element_type::NULL_VALUE:
        return;
    case element_type::OBJECT: {
        // Filled where the node keeps it, in one pass over the keys (9k tensors in gpt_n48).
        node.valueKind = ValueKind::Tensor;
        TensorMeta& meta = node.values.emplace_back(std::in_place).value();
        const TensorKeys keys = readTensorMeta(v, path, meta, true);
        if (keys.symbolic) {
            node.values.clear();
            readSymbolic(v, node, path);
        } else if (keys.freeSymbols) {
            readFreeSymbols(v, node, path);
        }
        return;
    }
    case element_type::ARRAY: {
        node.valueKind = ValueKind::TensorList;
        std::size_t i = 0;
        for (const value e : simdjson::dom::array(v)) {
            if (e.is_null()) {
                node.values.emplace_back(std::nullopt);
            } else {
                TensorMeta& meta = node.values.emplace_back(std::in_place).value();
                readTensorMeta(e, path.element(i), meta, false);
                readFreeSymbols(e, node, path.element(i));
            }
            ++i;
        }
        return;
    }
    default:
        fail(path, "expected a TensorMeta object, a list of them, or null");
    }
}

void NodeJsonReader::readSymbolic(value v, Node& node, const Path& path) const
{
    node.valueKind = ValueKind::Symbolic;
    for (const auto field : object(v)) {
        const std::string_view key = field.key;
        const value f = field.value;
        if (key == "sym") {
            if (f.type() != element_type::STRING)
                fail(path.member("sym"), "expected the symbolic expression as a string");
            node.symbolic.edit().expr = std::string(f.get_string().value_unsafe());
        } else if (key == "hint") {
            node.symbolicFloat = f.type() == element_type::DOUBLE;
        } else if (key == "binds") {
            if (f.type() == element_type::STRING)
                node.symbolic.edit().bindsSymbol = std::string(f.get_string().value_unsafe());
            else if (!f.is_null())
                fail(path.member("binds"), "expected a symbol name or null");
        }
    }
    readFreeSymbols(v, node, path);
}

void NodeJsonReader::readFreeSymbols(value v, Node& node, const Path& path) const
{
    const auto list = simdjson::dom::object(v)["free_symbols"];
    if (list.error())
        return;
    if (list.type() != element_type::ARRAY)
        fail(path.member("free_symbols"), "expected a list of symbol names");
    std::vector<std::string>& symbols = node.symbolic.edit().freeSymbols;
    std::size_t i = 0;
    for (const value s : simdjson::dom::array(list.value_unsafe())) {
        if (s.type() != element_type::STRING)
            fail(path.member("free_symbols").element(i), "expected a symbol name");
        symbols.emplace_back(s.get_string().value_unsafe());
        ++i;
    }
    std::sort(symbols.begin(), symbols.end());
    symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
}

NodeJsonReader::TensorKeys NodeJsonReader::readTensorMeta(
    value v, const Path& path, TensorMeta& meta, bool orSymbolic) const
{
    if (v.type() != element_type::OBJECT)
        fail(path, kNotTensorMeta);
    TensorKeys keys;
    bool hasShape = false;
    bool hasDtype = false;
    for (const auto field : object(v)) {
        const std::string_view key = field.key;
        const value f = field.value;
        if (key == "shape") {
            readDims(f, path.member("shape"), true, meta.shape);
            hasShape = true;
        } else if (key == "stride") {
            readDims(f, path.member("stride"), false, meta.stride);
        } else if (key == "dtype") {
            if (f.type() != element_type::STRING)
                fail(path.member("dtype"), "expected a string");
            const std::string_view text = f.get_string().value_unsafe();
            const auto parsed = parseDtype(text);
            if (!parsed)
                fail(path.member("dtype"), "unknown dtype \"" + std::string(text) + "\"");
            meta.dtype = *parsed;
            hasDtype = true;
        } else if (key == "device") {
            if (f.type() != element_type::STRING)
                fail(path.member("device"), "expected a string");
            meta.device = f.get_string().value_unsafe();
        } else if (key == "sym") {
            keys.symbolic = orSymbolic;
        } else if (key == "free_symbols") {
            keys.freeSymbols = true;
        }
    }
    if (keys.symbolic)
        return keys; // a SymInt, SymFloat or SymBool: its own fields, read by readSymbolic
    if (!hasShape)
        fail(path.member("shape"), "missing");
    if (!hasDtype)
        fail(path.member("dtype"), "missing");
    return keys;
}

void NodeJsonReader::readDims(value v, const Path& path, bool isShape, std::vector<std::int64_t>& dims) const
{
    if (v.type() != element_type::ARRAY)
        fail(path, "expected a list of integers");
    const simdjson::dom::array list(v);
    dims.reserve(list.size());
    std::size_t i = 0;
    for (const value d : list) {
        std::int64_t dim = 0;
        if (d.get(dim) != simdjson::SUCCESS)
            fail(path.element(i), "expected an integer");
        if (isShape && dim < 0)
            fail(path.element(i), "negative size " + std::to_string(dim));
        dims.push_back(dim);
        ++i;
    }
}

void NodeJsonReader::readMeta(object meta, NodeMeta& out) const
{
    for (const auto field : meta) {
        const std::string_view key = field.key;
        const value v = field.value;
        if (v.is_null())
            continue;
        if (key == "recompute") {
            out.recompute = readPolicy(v);
        } else if (key == "ac_graph_id") {
            if (v.type() != element_type::INT64)
                fail("meta.ac_graph_id", "expected an integer");
            out.acGraphId = v.get_int64().value_unsafe();
        } else if (key == "partitioner_tag") {
            out.partitionerTag = readTag(v);
        } else if (key == "memory_budget") {
            if (!v.is_number())
                fail("meta.memory_budget", "expected a number");
            out.memoryBudget = v.get_double().value_unsafe();
        } else if (key == "runtime_ms") {
            if (!v.is_number() || v.get_double().value_unsafe() < 0)
                fail("meta.runtime_ms", "expected a non-negative number");
            out.runtimeMs = v.get_double().value_unsafe();
        } else if (key == "has_backward_hook") {
            if (v.type() != element_type::BOOL)
                fail("meta.has_backward_hook", "expected true or false");
            out.hasBackwardHook = v.get_bool().value_unsafe();
        } else if (key == "nn_module_stack") {
            if (v.type() != element_type::ARRAY)
                fail("meta.nn_module_stack", "expected a list of module paths");
            const simdjson::dom::array paths(v);
            if (paths.size() == 0)
                continue;
            std::vector<std::string>& stack = out.source.edit().nnModuleStack;
            stack.reserve(stack.size() + paths.size());
            for (const value e : paths) {
                if (e.type() != element_type::STRING)
                    fail("meta.nn_module_stack", "expected a list of module paths");
                stack.emplace_back(e.get_string().value_unsafe());
            }
        } else if (key == "stack_trace") {
            if (v.type() == element_type::STRING)
                out.source.edit().stackTrace = std::string(v.get_string().value_unsafe());
        }
    }
}

CheckpointPolicy NodeJsonReader::readPolicy(value v) const
{
    if (v.type() == element_type::INT64) {
        const std::int64_t code = v.get_int64().value_unsafe();
        if (code >= 0 && code <= 5)
            return static_cast<CheckpointPolicy>(code);
    } else if (v.type() == element_type::STRING) {
        if (const auto policy = parseCheckpointPolicy(v.get_string().value_unsafe()))
            return *policy;
    }
    fail("meta.recompute", "expected MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE, PREFER_RECOMPUTE or null");
}

PartitionerTag NodeJsonReader::readTag(value v) const
{
    if (v.type() == element_type::STRING) {
        const std::string_view text = v.get_string().value_unsafe();
        if (text == "is_backward")
            return PartitionerTag::IsBackward;
        if (text == "is_forward")
            return PartitionerTag::IsForward;
        if (text == "must_be_in_forward")
            return PartitionerTag::MustBeInForward;
        if (text == "must_be_in_backward")
            return PartitionerTag::MustBeInBackward;
    }
    fail("meta.partitioner_tag",
        "expected is_forward, is_backward, must_be_in_forward or must_be_in_backward");
}

} // namespace remat
