// SPDX-License-Identifier: MIT
#include "io/torch_trace_log.h"

#include "graph/error.h"
#include "io/file_text.h"
#include "io/text_encoding.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

namespace remat::trace {
namespace {

/// glog's prefix: a level letter, MMDD, a space ("V1124 04:23:44.672000 5986 x.py:12] {...").
bool isRecordLine(std::string_view line)
{
    if (line.size() < 6 || std::string_view("VIWEF").find(line[0]) == std::string_view::npos)
        return false;
    for (std::size_t i = 1; i < 5; ++i) {
        if (line[i] < '0' || line[i] > '9')
            return false;
    }
    return line[5] == ' ' && line.find("] {") != std::string_view::npos;
}

std::string_view firstKey(std::string_view json)
{
    if (!json.starts_with("{\""))
        return {};
    const auto close = json.find('"', 2);
    return close == std::string_view::npos ? std::string_view() : json.substr(2, close - 2);
}

std::optional<std::int64_t> intField(simdjson::dom::object record, std::string_view key)
{
    const auto v = record[key];
    if (v.error() || !v.value_unsafe().is_int64())
        return std::nullopt;
    return v.value_unsafe().get_int64().value_unsafe();
}

/// CompileId.__str__ and TraceId.__str__ of 2.14's torch/_guards.py, which tlparse follows.
std::string compileIdOf(simdjson::dom::object record)
{
    const auto frame = intField(record, "frame_id");
    const auto frameCompile = intField(record, "frame_compile_id");
    const auto autograd = intField(record, "compiled_autograd_id");
    const auto attempt = intField(record, "attempt");
    std::string id;
    if (autograd) {
        id = "!" + std::to_string(*autograd);
        if (frame && frameCompile)
            id += "/" + std::to_string(*frame) + "/" + std::to_string(*frameCompile);
    } else if (frame && frameCompile) {
        id = std::to_string(*frame) + "/" + std::to_string(*frameCompile);
    } else {
        return {};
    }
    if (attempt && *attempt != 0)
        id += "_" + std::to_string(*attempt);
    return id;
}

/// The pytorch_version a compilation_metrics line carries, without parsing its large JSON.
std::string pytorchVersion(std::string_view json)
{
    constexpr std::string_view key = "\"pytorch_version\": \"";
    const auto pos = json.find(key);
    if (pos == std::string_view::npos)
        return {};
    const auto begin = pos + key.size();
    const auto end = json.find('"', begin);
    return end == std::string_view::npos ? std::string() : std::string(json.substr(begin, end - begin));
}

std::optional<TraceArtifact>* slotFor(
    TracedCompile& compile, std::string_view key, simdjson::dom::object record)
{
    if (key == "aot_joint_graph")
        return &compile.joint;
    if (key == "aot_forward_graph")
        return &compile.forward;
    if (key == "aot_backward_graph")
        return &compile.backward;
    if (key == "aot_inference_graph")
        return &compile.inference;
    if (key == "dynamo_output_graph")
        return &compile.dynamoGraph;
    if (key == "artifact") {
        std::string_view name;
        if (record["artifact"]["name"].get(name))
            return nullptr;
        if (name == "min_cut_information")
            return &compile.minCutInformation;
        if (name == "torch._functorch.config")
            return &compile.functorchConfig;
        if (name == "aot_forward_graph_fw_metadata")
            return &compile.forwardMetadata;
    }
    return nullptr;
}

bool isWanted(std::string_view key)
{
    return key == "aot_joint_graph" || key == "aot_forward_graph" || key == "aot_backward_graph"
        || key == "aot_inference_graph" || key == "artifact" || key == "chromium_event"
        || key == "create_symbol" || key == "dynamo_output_graph" || key == "describe_source";
}

constexpr std::string_view kJointPassPrefix = "\"name\": \"pass.joint_graph_passes.";

/// The pass a chromium_event's payload names, when it is one of Inductor's joint-graph passes.
std::optional<std::string> jointGraphPassOf(const TraceArtifact& event)
{
    for (const auto& line : event.payload) {
        const auto at = line.text.find(kJointPassPrefix);
        if (at == std::string::npos)
            continue;
        const auto begin = at + kJointPassPrefix.size();
        const auto end = line.text.find('"', begin);
        if (end != std::string::npos && end > begin)
            return line.text.substr(begin, end - begin);
    }
    return std::nullopt;
}

/// {"create_symbol": {"symbol": "s77", "val": "6", ...}}: a backed symbol and its example value.
/// A value that is no integer (a SymFloat's) sizes nothing and is left out.
void addSymbolHint(const simdjson::dom::object& record, printed::SymbolHints& hints)
{
    std::string_view symbol;
    if (record["create_symbol"]["symbol"].get(symbol))
        return;
    const auto val = record["create_symbol"]["val"];
    std::int64_t value = 0;
    std::string_view text;
    if (!val.get(text)) { // 2.14 writes it as a string
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size())
            return;
    } else if (val.get(value)) {
        return;
    }
    hints.insert_or_assign(std::string(symbol), value);
}

} // namespace

std::string payloadText(const TraceArtifact& artifact)
{
    std::string text;
    for (const auto& line : artifact.payload)
        text += line.text + "\n";
    return text;
}

bool looksLikeTorchTrace(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    while (!text.empty() && (text.front() == '\n' || text.front() == '\r' || text.front() == ' '))
        text.remove_prefix(1);
    return isRecordLine(text.substr(0, text.find('\n')));
}

bool isTorchTracePath(const std::string& path)
{
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
        for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
            const std::string name = entry.path().filename().string();
            if (name.starts_with(kTraceLogPrefix) && name.ends_with(".log"))
                return true;
        }
        return false;
    }
    if (!std::filesystem::is_regular_file(path, error))
        return false;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return false;
    char head[512];
    const std::size_t n = std::fread(head, 1, sizeof head, file);
    std::fclose(file);
    return looksLikeTorchTrace(std::string_view(head, n));
}

TraceLogFile readTraceLog(const std::string& text, const std::string& fileName)
{
    if (const auto encoding = findEncodingError(text))
        throw Error(fileName + ":" + *encoding);
    TraceLogFile log;
    log.path = fileName;
    simdjson::dom::parser parser;
    std::optional<TraceArtifact>* open = nullptr; // the artifact whose payload lines come next
    int declaredPayloadLine = 0; // a record that announced a payload not yet seen
    // chromium_event records, by compile id: each pass is logged as it begins and as it ends.
    std::vector<std::pair<std::string, std::optional<TraceArtifact>>> events;
    std::map<std::string, printed::SymbolHints> hints; // create_symbol records, by compile id
    std::map<std::string, std::vector<std::string>> sources; // describe_source records, by compile id
    const auto missingPayload = [&] {
        if (declaredPayloadLine)
            throw Error(fileName + ":" + std::to_string(declaredPayloadLine)
                + ": the record announces a payload (has_payload) but no payload line follows; is the log "
                  "cut short?");
    };
    std::size_t start = 0;
    int number = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string_view line(text.data() + start, end - start);
        start = end + 1;
        ++number;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line.starts_with('\t')) {
            declaredPayloadLine = 0;
            if (open && *open)
                (*open)->payload.push_back({number, std::string(line.substr(1))});
            continue;
        }
        if (printed::trimSpaces(line).empty())
            continue;
        missingPayload();
        if (number == 1 && line.starts_with("\xEF\xBB\xBF"))
            line.remove_prefix(3);
        if (!isRecordLine(line))
            throw Error(fileName + ":" + std::to_string(number)
                + ": not a TORCH_TRACE record (expected a line like 'V1124 04:23:44.672000 5986 file.py:12] "
                  "{...}'"
                  " or a tab-indented payload line)");
        const std::string_view json = line.substr(line.find("] {") + 2);
        const std::string_view key = firstKey(json);
        open = nullptr;
        if (key == "compilation_metrics" && log.torchVersion.empty())
            log.torchVersion = pytorchVersion(json);
        if (!isWanted(key))
            continue;
        simdjson::dom::object record;
        if (const auto error = parser.parse(json.data(), json.size()).get(record))
            throw Error(fileName + ":" + std::to_string(number)
                + ": the record's metadata is not valid JSON (" + simdjson::error_message(error) + ")");
        const std::string id = compileIdOf(record);
        if (id.empty())
            continue;
        if (key == "create_symbol") {
            addSymbolHint(record, hints[id]);
            continue;
        }
        if (key == "describe_source") {
            std::string_view source;
            if (!record["describe_source"]["source"].get(source))
                sources[id].emplace_back(source);
            continue;
        }
        if (key == "chromium_event") {
            events.emplace_back(id, TraceArtifact {number, {}});
            open = &events.back().second;
            if (!record["has_payload"].error())
                declaredPayloadLine = number;
            continue;
        }
        auto found = std::find_if(
            log.compiles.begin(), log.compiles.end(), [&](const TracedCompile& c) { return c.id == id; });
        TracedCompile probe;
        probe.id = id;
        std::optional<TraceArtifact>* slot
            = slotFor(found == log.compiles.end() ? probe : *found, key, record);
        if (!slot)
            continue;
        if (found == log.compiles.end()) {
            log.compiles.push_back(std::move(probe));
            slot = slotFor(log.compiles.back(), key, record);
        }
        *slot = TraceArtifact {number, {}};
        open = slot;
        // Dynamo's graph only names inputs: a log cut short after it still opens what it holds.
        if (!record["has_payload"].error() && key != "dynamo_output_graph")
            declaredPayloadLine = number;
    }
    missingPayload();
    for (const auto& event : events) {
        const auto pass = jointGraphPassOf(*event.second);
        // Not a structured binding: clang 14 (the fuzzers' compiler) cannot capture one.
        const std::string& id = event.first;
        auto compile = std::find_if(
            log.compiles.begin(), log.compiles.end(), [&](const TracedCompile& c) { return c.id == id; });
        if (pass && compile != log.compiles.end()
            && std::find(compile->jointGraphPasses.begin(), compile->jointGraphPasses.end(), *pass)
                == compile->jointGraphPasses.end())
            compile->jointGraphPasses.push_back(*pass);
    }
    for (TracedCompile& compile : log.compiles) {
        if (const auto it = hints.find(compile.id); it != hints.end())
            compile.symbolHints = std::move(it->second);
        if (const auto it = sources.find(compile.id); it != sources.end())
            compile.inputSources = std::move(it->second);
    }
    // Keep compilations that left an AOT graph; config-only entries say nothing on their own.
    std::erase_if(log.compiles,
        [](const TracedCompile& c) { return !c.joint && !c.forward && !c.backward && !c.inference; });
    return log;
}

std::vector<TraceLogFile> readTracePath(const std::string& path)
{
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
        checkInputFileSize(path);
        return {readTraceLog(readFileText(path), path)};
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(kTraceLogPrefix) && name.ends_with(".log") && entry.is_regular_file())
            files.push_back(entry.path().string());
    }
    if (error)
        throw Error(path + ": cannot read the folder: " + error.message());
    if (files.empty())
        throw Error(path + ": the folder holds no TORCH_TRACE log (dedicated_log_torch_trace_*.log)");
    std::sort(files.begin(), files.end());
    std::vector<TraceLogFile> logs;
    for (const std::string& file : files) {
        checkInputFileSize(file);
        logs.push_back(readTraceLog(readFileText(file), file));
    }
    return logs;
}

} // namespace remat::trace
