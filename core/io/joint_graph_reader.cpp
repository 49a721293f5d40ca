// SPDX-License-Identifier: MIT
#include "io/joint_graph_reader.h"

#include "graph/error.h"
#include "graph/joint_graph_builder.h"
#include "io/file_text.h"
#include "io/json_syntax_check.h"
#include "io/node_json_reader.h"
#include "io/split_json_parse.h"

#include <simdjson.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace remat {
namespace {

using simdjson::dom::object;
using value = simdjson::dom::element;
using simdjson::dom::element_type;

constexpr int kFormatVersion = 1;

std::vector<std::string> nameList(value v, const std::string& where)
{
    if (v.type() != element_type::ARRAY)
        throw Error(where + ": expected a list of node names");
    const simdjson::dom::array list(v);
    std::vector<std::string> names;
    names.reserve(list.size()); // gpt_n48 records 20k names: no regrowth, no moves
    for (const value e : list) {
        if (e.type() != element_type::STRING)
            throw Error(where + ": expected a list of node names");
        names.emplace_back(e.get_string().value_unsafe());
    }
    return names;
}

/// A recorded decision: {"saved_values", "saved_sym_nodes", "fw_nodes", "bw_nodes", "seconds"}.
/// Returns nullopt for other objects (reference may hold more than partitions).
std::optional<RecordedPartition> readRecorded(object obj, const std::string& where, RecordedDetail detail)
{
    const bool nodeLists = detail == RecordedDetail::Full;
    RecordedPartition p;
    bool isPartition = false;
    for (const auto field : obj) {
        const std::string_view key = field.key;
        const value v = field.value;
        if (key == "saved_values") {
            p.savedValues = nameList(v, where + ".saved_values");
            isPartition = true;
        } else if (key == "saved_sym_nodes") {
            p.savedSymNodes = nameList(v, where + ".saved_sym_nodes");
        } else if (key == "fw_nodes" && nodeLists) {
            p.fwNodes = nameList(v, where + ".fw_nodes");
        } else if (key == "bw_nodes" && nodeLists) {
            p.bwNodes = nameList(v, where + ".bw_nodes");
        } else if (key == "saved_rng_states" && v.type() == element_type::INT64) {
            p.savedRngStates
                = static_cast<int>(std::clamp<std::int64_t>(v.get_int64().value_unsafe(), 0, 1 << 30));
        } else if (key == "seconds" && v.is_number()) {
            p.seconds = v.get_double().value_unsafe();
        } else if (key == "memory_budget" && v.is_number()) {
            p.memoryBudget = v.get_double().value_unsafe();
        }
    }
    if (!isPartition)
        return std::nullopt;
    return p;
}

/// extra.min_cut_details: what the min-cut run reported beside its decision.
struct MinCutDetails {
    std::optional<std::int64_t> cutValue;
    std::vector<std::string> dceRemoved;
    std::map<std::string, std::string> cseMerged;
};

MinCutDetails readMinCutDetails(object obj)
{
    MinCutDetails details;
    for (const auto field : obj) {
        const std::string_view key = field.key;
        const value v = field.value;
        if (key == "cut_value" && v.type() == element_type::INT64) {
            details.cutValue = v.get_int64().value_unsafe();
        } else if (key == "dce_removed") {
            details.dceRemoved = nameList(v, "extra.min_cut_details.dce_removed");
        } else if (key == "cse_merged" && v.type() == element_type::OBJECT) {
            for (const auto merged : object(v)) {
                if (merged.value.type() == element_type::STRING)
                    details.cseMerged.emplace(
                        std::string(merged.key), std::string(merged.value.get_string().value_unsafe()));
            }
        }
    }
    return details;
}

std::string stringField(object obj, std::string_view wanted)
{
    for (const auto field : obj) {
        if (field.key == wanted && field.value.type() == element_type::STRING)
            return std::string(field.value.get_string().value_unsafe());
    }
    return {};
}

/// Reads the whole document in one pass, in file order.
class DocumentReader {
public:
    DocumentReader(JointGraphBuilder& builder, RecordedDetail detail)
        : m_builder(builder)
        , m_nodes(builder)
        , m_detail(detail)
    { }

    JointGraph read(value document)
    {
        if (document.type() != element_type::OBJECT)
            throw Error("expected a JSON object at the top level");
        for (const auto field : object(document))
            readField(field.key, field.value);
        return finish();
    }

    /// A text parsed in parts (io/split_json_parse.h): the head's fields, each later part's
    /// "nodes" as more of the head's last list as soon as the other core has parsed it, then the
    /// last part's other fields. Throws SplitReadFailed when a later part did not parse.
    JointGraph read(const SplitJsonDocuments& parts)
    {
        m_headShare = parts.headShare(); // the later parts' nodes are not counted yet
        for (const auto headField : object(parts.head().root()))
            readField(headField.key, headField.value);
        const simdjson::dom::document* part = nullptr;
        for (std::size_t i = 0; !part || !parts.isLast(i - 1); ++i) {
            part = parts.later(i);
            if (!part)
                throw SplitReadFailed {};
            readNodeList(simdjson::dom::array((*object(part->root()).begin()).value));
        }
        const object tail(part->root());
        for (auto field = ++tail.begin(); field != tail.end(); ++field)
            readField((*field).key, (*field).value);
        return finish();
    }

private:
    void readField(std::string_view key, value v)
    {
        if (key == "format")
            readFormat(v);
        else if (key == "version")
            readVersion(v);
        else if (key == "kind")
            readKind(v);
        else if (key == "num_fwd_outputs")
            readNumFwdOutputs(v);
        else if (key == "source" && v.type() == element_type::OBJECT)
            readSource(object(v));
        else if (key == "static_lifetime_input_indices")
            readStaticInputs(v);
        else if (key == "nodes")
            readNodes(v);
        else if (key == "reference" && v.type() == element_type::OBJECT)
            readReference(object(v));
        else if (key == "extra" && v.type() == element_type::OBJECT)
            readExtra(object(v));
    }

    JointGraph finish()
    {
        if (!m_sawFormat)
            throw Error("missing \"format\": this is not a joint-graph file");
        if (!m_sawVersion)
            throw Error("missing or non-integer \"version\"");
        if (!m_sawNodes)
            throw Error("missing \"nodes\" list");
        if (!m_sawNumFwdOutputs && !m_forward)
            throw Error("missing \"num_fwd_outputs\" (required for a joint graph)");
        JointGraph graph = finishRecorded();
        if (m_inputNames.empty())
            return graph;
        for (const auto& [name, inputName] : m_inputNames) {
            const NodeId n = graph.find(name);
            if (n == kNoNode || graph.node(n).op != NodeOp::Placeholder)
                throw Error(
                    "\"extra.input_names\": '" + name + "' is not an input (a placeholder) of the graph");
        }
        return JointGraphBuilder::withInputNames(std::move(graph), m_inputNames);
    }

    JointGraph finishRecorded()
    {
        if (m_details) {
            if (RecordedPartition* minCut = m_builder.recorded("min_cut")) {
                minCut->cutValue = m_details->cutValue;
                minCut->dceRemoved = std::move(m_details->dceRemoved);
                minCut->cseMerged = std::move(m_details->cseMerged);
            }
        }
        return m_builder.finish();
    }

    void readFormat(value v)
    {
        if (v.type() != element_type::STRING || v.get_string().value_unsafe() != "joint-graph")
            throw Error("\"format\" must be \"joint-graph\"; this is a different kind of file");
        m_sawFormat = true;
    }

    void readVersion(value v)
    {
        if (v.type() != element_type::INT64)
            throw Error("missing or non-integer \"version\"");
        const std::int64_t version = v.get_int64().value_unsafe();
        if (version != kFormatVersion)
            throw Error("format version " + std::to_string(version)
                + " is not supported (this build reads version " + std::to_string(kFormatVersion) + ")");
        m_sawVersion = true;
    }

    void readKind(value v)
    {
        const std::string_view kind
            = v.type() == element_type::STRING ? v.get_string().value_unsafe() : std::string_view();
        if (kind != "joint" && kind != "forward")
            throw Error("\"kind\" must be \"joint\" or \"forward\"");
        m_forward = kind == "forward";
        m_builder.setKind(m_forward ? GraphKind::Forward : GraphKind::Joint);
    }

    void readNumFwdOutputs(value v)
    {
        if (v.type() != element_type::INT64 || v.get_int64().value_unsafe() < 0
            || v.get_int64().value_unsafe() > std::numeric_limits<int>::max())
            throw Error("\"num_fwd_outputs\" must be a non-negative integer below 2^31");
        m_builder.setNumFwdOutputs(static_cast<int>(v.get_int64().value_unsafe()));
        m_sawNumFwdOutputs = true;
    }

    void readSource(object obj)
    {
        GraphSource source;
        for (const auto field : obj) {
            if (field.key == "recipe" && field.value.type() == element_type::OBJECT) {
                source.recipeJson = simdjson::minify(field.value);
                continue;
            }
            if (field.key == "partitioned_inside_compile" && field.value.type() == element_type::BOOL) {
                source.partitionedInsideCompile = field.value.get_bool().value_unsafe();
                continue;
            }
            if (field.value.type() != element_type::STRING)
                continue;
            const std::string text(field.value.get_string().value_unsafe());
            if (field.key == "producer")
                source.producer = text;
            else if (field.key == "model")
                source.model = text;
            else if (field.key == "description")
                source.description = text;
        }
        m_builder.setSource(std::move(source));
    }

    void readStaticInputs(value v)
    {
        const char* const what = "\"static_lifetime_input_indices\" must be a list of non-negative integers";
        if (v.type() != element_type::ARRAY)
            throw Error(what);
        std::vector<int> indices;
        for (const value e : simdjson::dom::array(v)) {
            if (e.type() != element_type::INT64 || e.get_int64().value_unsafe() < 0
                || e.get_int64().value_unsafe() > std::numeric_limits<int>::max())
                throw Error(what);
            indices.push_back(static_cast<int>(e.get_int64().value_unsafe()));
        }
        m_builder.setStaticLifetimeInputIndices(std::move(indices));
    }

    void readNodes(value v)
    {
        if (v.type() != element_type::ARRAY)
            throw Error("missing \"nodes\" list");
        const simdjson::dom::array nodes(v);
        // Parsed in parts: room for as many nodes per byte as the head has, and some more.
        const auto count = static_cast<double>(nodes.size());
        m_builder.reserve(
            m_headShare < 1.0 ? static_cast<std::size_t>(1.1 * count / m_headShare) + 64 : nodes.size());
        m_nextId = 0;
        readNodeList(nodes);
        m_sawNodes = true;
    }

    void readNodeList(simdjson::dom::array nodes)
    {
        for (const value node : nodes) {
            m_nodes.read(node, m_nextId++, m_builder.newNode());
            m_builder.commitNode();
        }
    }

    void readReference(object obj)
    {
        for (const auto field : obj) {
            const std::string key(field.key);
            const value v = field.value;
            if (key == "torch_version" && v.type() == element_type::STRING) {
                m_builder.setRecordedTorchVersion(std::string(v.get_string().value_unsafe()));
            } else if (v.type() == element_type::OBJECT) {
                if (auto recorded = readRecorded(object(v), "reference." + key, m_detail))
                    m_builder.addRecorded(key, std::move(*recorded));
            }
        }
    }

    void readExtra(object obj)
    {
        for (const auto field : obj) {
            const value v = field.value;
            if (field.key == "input_names") {
                readInputNames(v);
                continue;
            }
            if (v.type() != element_type::OBJECT)
                continue;
            if (field.key == "min_cut_inductor") {
                if (auto recorded = readRecorded(object(v), "extra.min_cut_inductor", m_detail))
                    m_builder.addRecorded("min_cut_inductor", std::move(*recorded));
            } else if (field.key == "min_cut_details") {
                m_details = readMinCutDetails(object(v));
            }
        }
    }

    /// extra.input_names: what the model calls each input ({"primals_1": "fc1.weight"}), written
    /// by our exporter; checked against the nodes once they are all read.
    void readInputNames(value v)
    {
        const char* const what = "\"extra.input_names\" must map input nodes to their names in the model, "
                                 "such as {\"primals_1\": \"fc1.weight\"}";
        if (v.type() != element_type::OBJECT)
            throw Error(what);
        for (const auto field : object(v)) {
            const std::string name(field.key);
            if (field.value.type() != element_type::STRING || field.value.get_string().value_unsafe().empty())
                throw Error("\"extra.input_names\": the name of '" + name + "' must be a non-empty string");
            if (!m_inputNames.emplace(name, field.value.get_string().value_unsafe()).second)
                throw Error("\"extra.input_names\": '" + name + "' is named twice");
        }
    }

    JointGraphBuilder& m_builder;
    NodeJsonReader m_nodes;
    std::map<std::string, std::string> m_inputNames;
    RecordedDetail m_detail;
    std::optional<MinCutDetails> m_details;
    NodeId m_nextId = 0;
    double m_headShare = 1.0; ///< of the file's bytes, when the text was parsed in parts
    bool m_sawFormat = false;
    bool m_sawVersion = false;
    bool m_sawNodes = false;
    bool m_sawNumFwdOutputs = false;
    bool m_forward = false;
};

/// Adds the names the nodes of a document declare, for telling an unknown name from a later one.
void addDeclaredNames(value document, std::set<std::string>& names)
{
    if (document.type() != element_type::OBJECT)
        return;
    const auto nodes = object(document)["nodes"];
    if (nodes.error() || nodes.value_unsafe().type() != element_type::ARRAY)
        return;
    for (const value node : simdjson::dom::array(nodes.value_unsafe())) {
        if (node.type() == element_type::OBJECT) {
            if (auto name = stringField(object(node), "name"); !name.empty())
                names.insert(name);
        }
    }
}

/// The documents whose nodes declare names: all of a split text's parts, or throws SplitReadFailed
/// when one did not parse (the whole text then reads or explains itself).
std::vector<value> documentsOf(const value& document)
{
    return {document};
}

std::vector<value> documentsOf(const SplitJsonDocuments& parts)
{
    std::vector<value> documents {parts.head().root()};
    for (std::size_t i = 0; documents.size() == 1 || !parts.isLast(i - 1); ++i) {
        const simdjson::dom::document* part = parts.later(i);
        if (!part)
            throw SplitReadFailed {};
        documents.push_back(part->root());
    }
    return documents;
}

/// Reads the parsed document(s) into a graph, every message prefixed with the file's name. A text
/// parsed in parts reports an error only once every part parsed, as a whole parse would.
template <typename Parsed>
JointGraph readParsed(const Parsed& parsed, const std::string& fileName, RecordedDetail detail)
{
    try {
        JointGraphBuilder builder;
        builder.setFilePath(fileName);
        DocumentReader reader(builder, detail);
        return reader.read(parsed);
    } catch (const UnresolvedReference& ref) {
        std::set<std::string> names;
        for (const value document : documentsOf(parsed))
            addDeclaredNames(document, names);
        const std::string what = names.contains(ref.name) ? "refers to '" + ref.name
                + "', which does not come before it (nodes must be in topological order; is there a cycle?)"
                                                          : "refers to unknown node '" + ref.name + "'";
        throw Error(fileName + ": node " + ref.node + ": " + ref.field + ": " + what);
    } catch (const Error& e) {
        (void)documentsOf(parsed);
        throw Error(fileName + ": " + e.what());
    }
}

/// Parses `text` into `document` (the tape and the strings). The parser goes when this returns,
/// and with it its index of every token (gpt_n48: 3 MB), whose pages the graph then reuses.
simdjson::error_code parseInto(simdjson::dom::document& document, simdjson::padded_string_view text)
{
    simdjson::dom::parser parser;
    return parser.parse_into_document(document, text.data(), text.size(), false).error();
}

/// `ownedText`, when the caller gave its text away: freed as soon as it is parsed, like the
/// parsed document once the graph is built, so that the nodes and the partition reuse their
/// memory instead of fresh pages (about 1 ms of a 17 ms `partition` of gpt_n48), and no thread
/// keeps the buffers of the largest file it ever opened.
JointGraph parseJointGraph(simdjson::padded_string_view text, const std::string& fileName,
    std::string* ownedText = nullptr, RecordedDetail detail = RecordedDetail::Full)
{
    simdjson::dom::document parsed;
    if (const auto error = parseInto(parsed, text)) {
        // simdjson says what, not where: the slower RapidJSON reader finds the line and column.
        const auto syntax = findJsonSyntaxError(std::string_view(text.data(), text.size()));
        throw Error(fileName + ":"
            + (syntax ? *syntax : std::string(" unreadable JSON: ") + simdjson::error_message(error)));
    }
    const value document = parsed.root(); // its strings are the document's copies
    if (ownedText)
        std::string().swap(*ownedText);
    return readParsed(document, fileName, detail);
}

} // namespace

JointGraph readJointGraphText(std::string_view text, const std::string& fileName)
{
    return parseJointGraph(simdjson::padded_string(text), fileName);
}

static_assert(kReadPadding >= simdjson::SIMDJSON_PADDING, "readFileText leaves room for the parser");

JointGraph readJointGraphText(const std::string& text, const std::string& fileName)
{
    if (text.capacity() < text.size() + simdjson::SIMDJSON_PADDING)
        return readJointGraphText(std::string_view(text), fileName);
    return parseJointGraph(simdjson::padded_string_view(text.data(), text.size(), text.capacity()), fileName);
}

JointGraph readJointGraphText(std::string&& text, const std::string& fileName, RecordedDetail detail)
{
    if (text.capacity() < text.size() + simdjson::SIMDJSON_PADDING)
        text.reserve(text.size() + simdjson::SIMDJSON_PADDING); // the one copy the other overloads make too
    return parseJointGraph(
        simdjson::padded_string_view(text.data(), text.size(), text.capacity()), fileName, &text, detail);
}

JointGraph readJointGraphDocuments(
    const SplitJsonDocuments& parts, const std::string& fileName, RecordedDetail detail)
{
    return readParsed(parts, fileName, detail);
}

JointGraph readJointGraphFile(const std::string& path)
{
    checkInputFileSize(path);
    auto loaded = simdjson::padded_string::load(path);
    if (loaded.error())
        return parseJointGraph(simdjson::padded_string(readFileText(path)), path); // readFileText explains
    return parseJointGraph(loaded.value_unsafe(), path);
}

} // namespace remat
