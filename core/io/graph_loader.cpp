// SPDX-License-Identifier: MIT
#include "io/graph_loader.h"

#include "graph/error.h"
#include "io/file_text.h"
#include "io/joint_graph_reader.h"
#include "io/printed_graph_reader.h"
#include "io/split_json_parse.h"
#include "io/torch_logs_capture.h"
#include "io/torch_trace.h"

#include <filesystem>
#include <utility>

namespace remat {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::size_t firstNonBlank(std::string_view text)
{
    std::size_t i = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    return i;
}

JointGraph loadTrace(const std::vector<trace::TraceLogFile>& logs, const std::string& path, std::string id)
{
    if (id.empty())
        id = trace::defaultTracedGraph(
            trace::listTraceLogs(logs, path), "a compile id (--graph on the command line)");
    return trace::loadTracedGraph(logs, path, id);
}

// The text is only read: a 28 MB graph is not copied on its way to the JSON parser. `ownedText`
// (the same text, when the caller gives it away) lets the JSON reader free it once parsed.
JointGraph load(const std::string& text, const std::string& fileName, const std::string& traceGraph,
    std::string* ownedText = nullptr, RecordedDetail detail = RecordedDetail::Full)
{
    if (firstNonBlank(text) == text.size())
        throw Error(fileName + ": the file is empty");
    if (trace::looksLikeTorchTrace(text))
        return loadTrace({trace::readTraceLog(text, fileName)}, fileName, traceGraph);
    const bool bom = text.starts_with(kUtf8Bom);
    if (!looksLikeJson(text)) {
        // A TORCH_LOGS capture names each graph's compile id: its compilations open as a log's do.
        if (auto capture = trace::readTorchLogsCapture(text, fileName))
            return loadTrace({std::move(*capture)}, fileName, traceGraph);
        if (traceGraph.empty())
            return readPrintedGraphText(bom ? text.substr(kUtf8Bom.size()) : text, fileName);
    }
    if (!traceGraph.empty())
        throw Error(fileName + ": not a TORCH_TRACE log or TORCH_LOGS capture, so it has no compiled graph "
            + traceGraph + " to choose");
    if (bom)
        return readJointGraphText(std::string_view(text).substr(kUtf8Bom.size()), fileName);
    return ownedText ? readJointGraphText(std::move(*ownedText), fileName, detail)
                     : readJointGraphText(text, fileName);
}

} // namespace

bool looksLikeJson(const std::string& text)
{
    const std::size_t i = firstNonBlank(text);
    if (i >= text.size() || (text[i] != '{' && text[i] != '['))
        return false;
    if (text[i] == '{')
        return true;
    // A '[' also starts many log lines captured from stderr ("[transformers] ...", "[W1127 ...",
    // "[rank0]:", 2.1's "[2023-10-12 11:04:05,419] [0/0] ..."): JSON only if a value follows.
    std::string_view rest = std::string_view(text).substr(i + 1);
    rest.remove_prefix(firstNonBlank(rest));
    if (rest.empty() || std::string_view("{[]\"").find(rest.front()) != std::string_view::npos)
        return true;
    const auto endsValue = [](std::string_view after) {
        const std::size_t k = firstNonBlank(after);
        return k == after.size() || after[k] == ',' || after[k] == ']';
    };
    for (std::string_view literal : {"true", "false", "null"}) {
        if (rest.starts_with(literal))
            return endsValue(rest.substr(literal.size()));
    }
    std::size_t n = rest.front() == '-' ? 1 : 0;
    const std::size_t digits = n;
    while (n < rest.size()
        && ((rest[n] >= '0' && rest[n] <= '9') || rest[n] == '.' || rest[n] == 'e' || rest[n] == 'E'
            || ((rest[n] == '+' || rest[n] == '-') && n > digits
                && (rest[n - 1] == 'e' || rest[n - 1] == 'E'))))
        ++n;
    return n > digits && endsValue(rest.substr(n));
}

JointGraph loadGraphText(const std::string& text, const std::string& fileName, const std::string& traceGraph)
{
    return load(text, fileName, traceGraph);
}

JointGraph loadGraphFile(const std::string& path, const std::string& traceGraph, RecordedDetail detail)
{
    if (std::filesystem::is_directory(path))
        return loadTrace(trace::readTracePath(path), path, traceGraph);
    if (!traceGraph.empty()) {
        std::string text = readFileText(path);
        return load(text, path, traceGraph, &text, detail);
    }
    // A large joint graph is read and parsed in parts on two cores; any other file comes back as text.
    FileInParts file = readFileInParts(path);
    if (file.documents) {
        try {
            return readJointGraphDocuments(*file.documents, path, detail);
        } catch (const SplitReadFailed&) {
            // A later part did not parse: the whole text does not, or parts were split wrongly.
        }
        file.documents.reset();
        file.text = readFileText(path);
    }
    return load(file.text, path, traceGraph, &file.text, detail);
}

} // namespace remat
