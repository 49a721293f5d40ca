// SPDX-License-Identifier: MIT
#include "io/joint_graph_reader.h"

#include "graph/error.h"
#include "graph/joint_graph_builder.h"
#include "io/file_text.h"
#include "io/json_location.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <array>
#include <cmath>
#include <functional>

namespace remat {
namespace {

using Value = rapidjson::Value;

constexpr int kFormatVersion = 1;

std::string_view view(const Value& v)
{
    return {v.GetString(), v.GetStringLength()};
}

/// The members named by `keys`, found in one pass over the object (nullptr where absent).
template <std::size_t N>
std::array<const Value*, N> membersOf(const Value& object, const std::array<std::string_view, N>& keys)
{
    std::array<const Value*, N> found {};
    for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
        const auto key = view(it->name);
        for (std::size_t i = 0; i < N; ++i) {
            if (!found[i] && keys[i] == key) {
                found[i] = &it->value;
                break;
            }
        }
    }
    return found;
}

/// Where a value sits inside a node ("args[2][0]"), built only when a message needs it.
struct FieldPath {
    const FieldPath* parent = nullptr;
    std::string_view key; // a member name, or empty for a list index
    std::size_t index = 0;

    FieldPath member(std::string_view name) const { return {this, name, 0}; }
    FieldPath element(std::size_t i) const { return {this, {}, i}; }
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

/// Turns one node object of the file into a Node, resolving references by name.
class NodeReader {
public:
    explicit NodeReader(JointGraphBuilder& builder)
        : m_builder(builder)
    {
    }

    Node read(const Value& object, NodeId id)
    {
        m_id = id;
        m_nodeName = "#" + std::to_string(id);
        if (!object.IsObject())
            fail("", "expected an object");
        static constexpr std::array<std::string_view, 7> kKeys {"name", "op", "target", "args", "kwargs", "val", "meta"};
        const auto [namePtr, opPtr, target, args, kwargs, val, meta] = membersOf(object, kKeys);
        if (!namePtr)
            fail("", "missing \"name\"");
        const Value& name = *namePtr;
        if (!name.IsString() || name.GetStringLength() == 0)
            fail("name", "expected a non-empty string");
        Node node;
        node.name = std::string(view(name));
        m_nodeName = "'" + node.name + "'";

        if (!opPtr)
            fail("", "missing \"op\"");
        node.op = readOp(*opPtr);
        if (target && !target->IsString())
            fail("target", "expected a string");
        node.target = m_builder.internOp(target ? view(*target) : std::string_view(node.name));

        const FieldPath root;
        if (args) {
            if (!args->IsArray())
                fail("args", "expected a list");
            node.args = readArg(*args, root.member("args"));
        }
        node.kwargs = 1; // the builder's shared empty dict
        if (kwargs) {
            if (!kwargs->IsObject())
                fail("kwargs", "expected an object");
            if (kwargs->MemberCount() > 0)
                node.kwargs = readArg(*kwargs, root.member("kwargs"));
        }
        if (val)
            readValue(*val, node);
        if (meta) {
            if (!meta->IsObject())
                fail("meta", "expected an object");
            if (meta->MemberCount() > 0)
                readMeta(*meta, node.meta);
        }
        if (node.op == NodeOp::Output) {
            const Arg& outputArgs = m_builder.argAt(node.args);
            if (outputArgs.size != 1 || m_builder.argAt(outputArgs.first).kind != ArgKind::List)
                fail("args", "the output node's args must be [[outputs...]]");
        }
        return node;
    }

private:
    [[noreturn]] void fail(const FieldPath& field, const std::string& what) const { fail(field.text(), what); }

    [[noreturn]] void fail(const std::string& field, const std::string& what) const
    {
        std::string message = "node " + m_nodeName;
        if (!field.empty())
            message += ": " + field;
        throw Error(message + ": " + what);
    }

    static const Value* find(const Value& object, const char* key)
    {
        const auto it = object.FindMember(key);
        return it == object.MemberEnd() ? nullptr : &it->value;
    }

    NodeOp readOp(const Value& op) const
    {
        if (!op.IsString())
            fail("op", "expected a string");
        const auto text = view(op);
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
        fail("op", "unknown op \"" + std::string(text)
                 + "\" (expected placeholder, call_function, get_attr, call_module, call_method or output)");
    }

    ArgIndex readArg(const Value& value, const FieldPath& path)
    {
        const auto index = m_builder.reserveArgs(1);
        fillArg(value, index, path);
        return index;
    }

    void fillArg(const Value& value, std::uint32_t index, const FieldPath& path)
    {
        Arg arg;
        switch (value.GetType()) {
        case rapidjson::kNullType:
            arg.kind = ArgKind::None;
            break;
        case rapidjson::kFalseType:
        case rapidjson::kTrueType:
            arg.kind = ArgKind::Bool;
            arg.boolean = value.GetBool();
            break;
        case rapidjson::kNumberType:
            if (value.IsInt64()) {
                arg.kind = ArgKind::Int;
                arg.integer = value.GetInt64();
            } else if (value.IsUint64()) {
                fail(path, "integer too large");
            } else {
                arg.kind = ArgKind::Float;
                arg.real = value.GetDouble();
            }
            break;
        case rapidjson::kStringType:
            arg.kind = ArgKind::String;
            arg.string = m_builder.intern(view(value));
            break;
        case rapidjson::kArrayType: {
            arg.kind = ArgKind::List;
            arg.size = value.Size();
            arg.first = m_builder.reserveArgs(arg.size);
            for (rapidjson::SizeType i = 0; i < value.Size(); ++i)
                fillArg(value[i], arg.first + i, path.element(i));
            break;
        }
        case rapidjson::kObjectType:
            arg = objectArg(value, path);
            break;
        }
        m_builder.argAt(index) = arg;
    }

    Arg objectArg(const Value& value, const FieldPath& path)
    {
        Arg arg;
        if (value.MemberCount() == 1 && value.HasMember("node")) {
            const Value& ref = value["node"];
            if (!ref.IsString())
                fail(path, "a node reference must be {\"node\": \"<name>\"}");
            const NodeId target = m_builder.find(view(ref));
            if (target == kNoNode)
                fail(path, "refers to unknown node '" + std::string(view(ref)) + "'");
            if (target >= m_id)
                fail(path, "refers to '" + std::string(view(ref))
                         + "', which does not come before it (nodes must be in topological order; is there a cycle?)");
            arg.kind = ArgKind::Node;
            arg.node = target;
            return arg;
        }
        if (value.MemberCount() == 1 && value.HasMember("repr")) {
            const Value& repr = value["repr"];
            if (!repr.IsString())
                fail(path, "{\"repr\": ...} must hold a string");
            const auto text = view(repr);
            // Non-finite floats are written as reprs; they are numbers to CSE and to the user.
            arg.kind = ArgKind::Float;
            if (text == "inf")
                arg.real = HUGE_VAL;
            else if (text == "-inf")
                arg.real = -HUGE_VAL;
            else if (text == "nan")
                arg.real = std::nan("");
            else {
                arg.kind = ArgKind::Repr;
                arg.string = m_builder.intern(text);
            }
            return arg;
        }
        arg.kind = ArgKind::Dict;
        arg.size = value.MemberCount();
        arg.first = m_builder.reserveArgs(2 * arg.size);
        std::uint32_t slot = arg.first;
        for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
            Arg key;
            key.kind = ArgKind::String;
            key.string = m_builder.intern(view(it->name));
            m_builder.argAt(slot) = key;
            fillArg(it->value, slot + 1, path.member(view(it->name)));
            slot += 2;
        }
        return arg;
    }

    TensorMeta readTensorMeta(const Value& value, const FieldPath& path) const
    {
        if (!value.IsObject())
            fail(path, "expected a TensorMeta object {\"shape\", \"dtype\", \"stride\", \"device\"}");
        TensorMeta meta;
        static constexpr std::array<std::string_view, 4> kKeys {"shape", "dtype", "stride", "device"};
        const auto [shape, dtype, stride, device] = membersOf(value, kKeys);
        if (!shape || !shape->IsArray())
            fail(path.member("shape"), shape ? "expected a list of integers" : "missing");
        meta.shape = readDims(*shape, path.member("shape"), true);
        if (stride) {
            if (!stride->IsArray())
                fail(path.member("stride"), "expected a list of integers");
            meta.stride = readDims(*stride, path.member("stride"), false);
        }
        if (!dtype || !dtype->IsString())
            fail(path.member("dtype"), dtype ? "expected a string" : "missing");
        const auto parsed = parseDtype(view(*dtype));
        if (!parsed)
            fail(path.member("dtype"), "unknown dtype \"" + std::string(view(*dtype)) + "\"");
        meta.dtype = *parsed;
        if (device) {
            if (!device->IsString())
                fail(path.member("device"), "expected a string");
            meta.device = std::string(view(*device));
        }
        return meta;
    }

    std::vector<std::int64_t> readDims(const Value& list, const FieldPath& path, bool isShape) const
    {
        std::vector<std::int64_t> dims;
        dims.reserve(list.Size());
        for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
            const Value& d = list[i];
            if (!d.IsInt64())
                fail(path.element(i), "expected an integer");
            if (isShape && d.GetInt64() < 0)
                fail(path.element(i), "negative size " + std::to_string(d.GetInt64()));
            dims.push_back(d.GetInt64());
        }
        return dims;
    }

    void readValue(const Value& val, Node& node) const
    {
        if (val.IsNull())
            return;
        const FieldPath root;
        const FieldPath path = root.member("val");
        if (val.IsObject()) {
            node.valueKind = ValueKind::Tensor;
            node.values.emplace_back(readTensorMeta(val, path));
            return;
        }
        if (!val.IsArray())
            fail("val", "expected a TensorMeta object, a list of them, or null");
        node.valueKind = ValueKind::TensorList;
        node.values.reserve(val.Size());
        for (rapidjson::SizeType i = 0; i < val.Size(); ++i) {
            if (val[i].IsNull())
                node.values.emplace_back(std::nullopt);
            else
                node.values.emplace_back(readTensorMeta(val[i], path.element(i)));
        }
    }

    void readMeta(const Value& meta, NodeMeta& out) const
    {
        if (const Value* v = find(meta, "recompute"))
            out.recompute = readPolicy(*v);
        if (const Value* v = find(meta, "ac_graph_id"); v && !v->IsNull()) {
            if (!v->IsInt64())
                fail("meta.ac_graph_id", "expected an integer");
            out.acGraphId = v->GetInt64();
        }
        if (const Value* v = find(meta, "partitioner_tag"); v && !v->IsNull())
            out.partitionerTag = readTag(*v);
        if (const Value* v = find(meta, "memory_budget"); v && !v->IsNull()) {
            if (!v->IsNumber())
                fail("meta.memory_budget", "expected a number");
            out.memoryBudget = v->GetDouble();
        }
        if (const Value* v = find(meta, "runtime_ms"); v && !v->IsNull()) {
            if (!v->IsNumber() || v->GetDouble() < 0)
                fail("meta.runtime_ms", "expected a non-negative number");
            out.runtimeMs = v->GetDouble();
        }
        if (const Value* v = find(meta, "has_backward_hook"); v && !v->IsNull()) {
            if (!v->IsBool())
                fail("meta.has_backward_hook", "expected true or false");
            out.hasBackwardHook = v->GetBool();
        }
        if (const Value* v = find(meta, "nn_module_stack"); v && !v->IsNull()) {
            if (!v->IsArray())
                fail("meta.nn_module_stack", "expected a list of module paths");
            for (const Value& entry : v->GetArray()) {
                if (!entry.IsString())
                    fail("meta.nn_module_stack", "expected a list of module paths");
                out.nnModuleStack.emplace_back(view(entry));
            }
        }
        if (const Value* v = find(meta, "stack_trace"); v && v->IsString())
            out.stackTrace = std::string(view(*v));
    }

    CheckpointPolicy readPolicy(const Value& v) const
    {
        static constexpr std::pair<std::string_view, CheckpointPolicy> kNames[] = {
            {"MUST_SAVE", CheckpointPolicy::MustSave},
            {"PREFER_SAVE", CheckpointPolicy::PreferSave},
            {"MUST_RECOMPUTE", CheckpointPolicy::MustRecompute},
            {"PREFER_RECOMPUTE", CheckpointPolicy::PreferRecompute},
            {"MUST_CPU_OFFLOAD", CheckpointPolicy::MustCpuOffload},
            {"PREFER_CPU_OFFLOAD", CheckpointPolicy::PreferCpuOffload},
        };
        if (v.IsNull())
            return CheckpointPolicy::None;
        if (v.IsInt() && v.GetInt() >= 0 && v.GetInt() <= 5)
            return static_cast<CheckpointPolicy>(v.GetInt());
        if (v.IsString()) {
            auto text = view(v);
            if (text.starts_with("CheckpointPolicy."))
                text.remove_prefix(17);
            for (const auto& [name, policy] : kNames) {
                if (name == text)
                    return policy;
            }
        }
        fail("meta.recompute", "expected MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE, PREFER_RECOMPUTE or null");
    }

    PartitionerTag readTag(const Value& v) const
    {
        if (v.IsString()) {
            const auto text = view(v);
            if (text == "is_backward")
                return PartitionerTag::IsBackward;
            if (text == "is_forward")
                return PartitionerTag::IsForward;
            if (text == "must_be_in_forward")
                return PartitionerTag::MustBeInForward;
            if (text == "must_be_in_backward")
                return PartitionerTag::MustBeInBackward;
        }
        fail("meta.partitioner_tag", "expected is_forward, is_backward, must_be_in_forward or must_be_in_backward");
    }

    JointGraphBuilder& m_builder;
    NodeId m_id = 0;
    std::string m_nodeName;
};

std::vector<std::string> readNameList(const Value& object, const char* key, const std::string& where)
{
    std::vector<std::string> names;
    const auto it = object.FindMember(key);
    if (it == object.MemberEnd())
        return names;
    if (!it->value.IsArray())
        throw Error(where + "." + key + ": expected a list of node names");
    for (const Value& v : it->value.GetArray()) {
        if (!v.IsString())
            throw Error(where + "." + key + ": expected a list of node names");
        names.emplace_back(view(v));
    }
    return names;
}

RecordedPartition readRecorded(const Value& object, const std::string& where)
{
    RecordedPartition p;
    p.savedValues = readNameList(object, "saved_values", where);
    p.savedSymNodes = readNameList(object, "saved_sym_nodes", where);
    p.fwNodes = readNameList(object, "fw_nodes", where);
    p.bwNodes = readNameList(object, "bw_nodes", where);
    if (const auto it = object.FindMember("seconds"); it != object.MemberEnd() && it->value.IsNumber())
        p.seconds = it->value.GetDouble();
    if (const auto it = object.FindMember("memory_budget"); it != object.MemberEnd() && it->value.IsNumber())
        p.memoryBudget = it->value.GetDouble();
    return p;
}

bool looksLikePartition(const Value& v)
{
    return v.IsObject() && v.HasMember("saved_values");
}

void readReference(const Value& root, JointGraphBuilder& builder)
{
    if (const auto ref = root.FindMember("reference"); ref != root.MemberEnd() && ref->value.IsObject()) {
        for (auto it = ref->value.MemberBegin(); it != ref->value.MemberEnd(); ++it) {
            const std::string key(view(it->name));
            if (key == "torch_version" && it->value.IsString())
                builder.setRecordedTorchVersion(std::string(view(it->value)));
            else if (looksLikePartition(it->value))
                builder.addRecorded(key, readRecorded(it->value, "reference." + key));
        }
    }
    const auto extra = root.FindMember("extra");
    if (extra == root.MemberEnd() || !extra->value.IsObject())
        return;
    if (const auto it = extra->value.FindMember("min_cut_inductor");
        it != extra->value.MemberEnd() && looksLikePartition(it->value))
        builder.addRecorded("min_cut_inductor", readRecorded(it->value, "extra.min_cut_inductor"));
    const auto details = extra->value.FindMember("min_cut_details");
    RecordedPartition* minCut = builder.recorded("min_cut");
    if (details == extra->value.MemberEnd() || !details->value.IsObject() || !minCut)
        return;
    const Value& d = details->value;
    if (const auto it = d.FindMember("cut_value"); it != d.MemberEnd() && it->value.IsInt64())
        minCut->cutValue = it->value.GetInt64();
    minCut->dceRemoved = readNameList(d, "dce_removed", "extra.min_cut_details");
    if (const auto it = d.FindMember("cse_merged"); it != d.MemberEnd() && it->value.IsObject()) {
        for (auto m = it->value.MemberBegin(); m != it->value.MemberEnd(); ++m) {
            if (m->value.IsString())
                minCut->cseMerged.emplace(std::string(view(m->name)), std::string(view(m->value)));
        }
    }
}

void readHeader(const Value& root, JointGraphBuilder& builder)
{
    const auto format = root.FindMember("format");
    if (format == root.MemberEnd())
        throw Error("missing \"format\": this is not a joint-graph file");
    if (!format->value.IsString() || view(format->value) != "joint-graph")
        throw Error("\"format\" must be \"joint-graph\"; this is a different kind of file");
    const auto version = root.FindMember("version");
    if (version == root.MemberEnd() || !version->value.IsInt())
        throw Error("missing or non-integer \"version\"");
    if (version->value.GetInt() != kFormatVersion)
        throw Error("format version " + std::to_string(version->value.GetInt())
                    + " is not supported (this build reads version " + std::to_string(kFormatVersion) + ")");

    if (const auto kind = root.FindMember("kind"); kind != root.MemberEnd()) {
        if (!kind->value.IsString() || (view(kind->value) != "joint" && view(kind->value) != "forward"))
            throw Error("\"kind\" must be \"joint\" or \"forward\"");
        builder.setKind(view(kind->value) == "forward" ? GraphKind::Forward : GraphKind::Joint);
    }
    if (const auto n = root.FindMember("num_fwd_outputs"); n != root.MemberEnd()) {
        if (!n->value.IsInt() || n->value.GetInt() < 0)
            throw Error("\"num_fwd_outputs\" must be a non-negative integer");
        builder.setNumFwdOutputs(n->value.GetInt());
    } else if (!root.HasMember("kind") || view(root["kind"]) != "forward") {
        throw Error("missing \"num_fwd_outputs\" (required for a joint graph)");
    }
    if (const auto src = root.FindMember("source"); src != root.MemberEnd() && src->value.IsObject()) {
        GraphSource source;
        const auto text = [&](const char* key) {
            const auto it = src->value.FindMember(key);
            return it != src->value.MemberEnd() && it->value.IsString() ? std::string(view(it->value)) : std::string();
        };
        source.producer = text("producer");
        source.model = text("model");
        source.description = text("description");
        builder.setSource(std::move(source));
    }
    if (const auto s = root.FindMember("static_lifetime_input_indices"); s != root.MemberEnd()) {
        if (!s->value.IsArray())
            throw Error("\"static_lifetime_input_indices\" must be a list of integers");
        std::vector<int> indices;
        for (const Value& v : s->value.GetArray()) {
            if (!v.IsInt() || v.GetInt() < 0)
                throw Error("\"static_lifetime_input_indices\" must be a list of non-negative integers");
            indices.push_back(v.GetInt());
        }
        builder.setStaticLifetimeInputIndices(std::move(indices));
    }
}

JointGraph buildGraph(const Value& root, JointGraphBuilder& builder)
{
    if (!root.IsObject())
        throw Error("expected a JSON object at the top level");
    readHeader(root, builder);
    const auto nodesIt = root.FindMember("nodes");
    if (nodesIt == root.MemberEnd() || !nodesIt->value.IsArray())
        throw Error("missing \"nodes\" list");
    const Value& nodes = nodesIt->value;

    // Names first, so that a reference to a later node can be told from an unknown one.
    StringMap<NodeId> names;
    names.reserve(nodes.Size());
    for (rapidjson::SizeType i = 0; i < nodes.Size(); ++i) {
        if (nodes[i].IsObject()) {
            const auto name = nodes[i].FindMember("name");
            if (name != nodes[i].MemberEnd() && name->value.IsString()) {
                const auto [it, added] = names.emplace(std::string(view(name->value)), static_cast<NodeId>(i));
                if (!added)
                    throw Error("nodes[" + std::to_string(i) + "]: a second node named '" + it->first
                                + "' (the first is nodes[" + std::to_string(it->second) + "])");
            }
        }
    }
    builder.adoptNameIndex(std::move(names));
    NodeReader reader(builder);
    for (rapidjson::SizeType i = 0; i < nodes.Size(); ++i) {
        builder.addNode(reader.read(nodes[i], static_cast<NodeId>(i)));
    }
    readReference(root, builder);
    return builder.finish();
}

} // namespace

/// Parses in place (fast: no string copies); in-place parsing rewrites the buffer, so a syntax
/// error is located in `original()`, the untouched text.
JointGraph parseJointGraph(std::string& buffer, const std::string& fileName,
                           const std::function<std::string()>& original)
{
    rapidjson::Document doc;
    doc.ParseInsitu<rapidjson::kParseFullPrecisionFlag>(buffer.data()); // floats exactly as Python wrote them
    if (doc.HasParseError()) {
        const auto where = locateOffset(original(), doc.GetErrorOffset());
        throw Error(fileName + ":" + std::to_string(where.line) + ":" + std::to_string(where.column)
                    + ": malformed JSON: " + rapidjson::GetParseError_En(doc.GetParseError()));
    }
    JointGraphBuilder builder;
    builder.setFilePath(fileName);
    try {
        return buildGraph(doc, builder);
    } catch (const Error& e) {
        throw Error(fileName + ": " + e.what());
    }
}

JointGraph readJointGraphText(std::string text, const std::string& fileName)
{
    std::string buffer = text;
    return parseJointGraph(buffer, fileName, [&text] { return text; });
}

JointGraph readJointGraphFile(const std::string& path)
{
    std::string buffer = readFileText(path);
    return parseJointGraph(buffer, path, [&path] { return readFileText(path); });
}

} // namespace remat
