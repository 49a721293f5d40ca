// SPDX-License-Identifier: MIT
#include "io/traced_input_names.h"

#include <cctype>
#include <optional>
#include <vector>

namespace remat::trace {
namespace {

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Dynamo's placeholder name for a source: every run of other characters than letters and digits
/// becomes one underscore ("L['self']._modules['lm']" -> "L_self_modules_lm_").
std::string mangled(std::string_view text)
{
    std::string out;
    bool gap = false;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            if (gap)
                out += '_';
            gap = false;
            out += c;
        } else {
            gap = true;
        }
    }
    if (gap)
        out += '_';
    return out;
}

/// The parameter names of the first `def forward(self, a: "...", b: "...")` of a printed graph, in
/// order; the signature may run over several lines, and its annotations hold commas.
std::vector<std::string> forwardParameters(const TraceArtifact& graph)
{
    std::string signature;
    bool inside = false;
    for (const auto& line : graph.payload) {
        if (!inside) {
            const auto at = line.text.find("def forward(");
            if (at == std::string::npos)
                continue;
            inside = true;
            signature = line.text.substr(at + 12);
        } else {
            signature += ' ' + line.text;
        }
        // Closed: a ')' at depth 0 outside quotes.
        int depth = 0;
        bool quoted = false;
        for (std::size_t i = 0; i < signature.size(); ++i) {
            const char c = signature[i];
            if (c == '"')
                quoted = !quoted;
            else if (!quoted && (c == '(' || c == '['))
                ++depth;
            else if (!quoted && (c == ')' || c == ']') && depth-- == 0) {
                signature.resize(i);
                std::vector<std::string> names;
                std::string current;
                int d = 0;
                bool q = false;
                bool inName = true;
                for (char ch : signature + ",") {
                    if (ch == '"')
                        q = !q;
                    else if (!q && (ch == '(' || ch == '['))
                        ++d;
                    else if (!q && (ch == ')' || ch == ']'))
                        --d;
                    if (!q && d == 0 && ch == ',') {
                        if (!current.empty() && current != "self")
                            names.push_back(current);
                        current.clear();
                        inName = true;
                    } else if (inName && isWordChar(ch)) {
                        current += ch;
                    } else if (inName && !current.empty()) {
                        inName = false; // the annotation or default follows
                    }
                }
                return names;
            }
        }
    }
    return {};
}

/// "primals_2" and what its `# PlainAOTInput(idx=1)` comment says: Dynamo's input 1, or a name
/// (ParamAOTInput / BufferAOTInput(target='w')).
struct PrimalDescriptor {
    std::string primal;
    std::optional<std::size_t> index;
    std::string target;
};

std::optional<PrimalDescriptor> primalDescriptor(std::string_view line)
{
    while (!line.empty() && line.front() == ' ')
        line.remove_prefix(1);
    if (!line.starts_with("primals_"))
        return std::nullopt;
    PrimalDescriptor d;
    std::size_t end = 0;
    while (end < line.size() && isWordChar(line[end]))
        ++end;
    d.primal = std::string(line.substr(0, end));
    const auto comment = line.rfind("  # ");
    if (comment == std::string_view::npos)
        return std::nullopt;
    const std::string_view text = line.substr(comment + 4);
    if (text.starts_with("PlainAOTInput(idx=")) {
        std::size_t index = 0;
        std::size_t i = 18;
        if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i])))
            return std::nullopt;
        for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && index < 1000000; ++i)
            index = index * 10 + static_cast<std::size_t>(text[i] - '0');
        if (text.substr(i) != ")")
            return std::nullopt;
        d.index = index;
        return d;
    }
    for (const std::string_view kind : {"ParamAOTInput(target='", "BufferAOTInput(target='"}) {
        if (text.starts_with(kind) && text.ends_with("')")) {
            d.target = std::string(text.substr(kind.size(), text.size() - kind.size() - 2));
            return d;
        }
    }
    return std::nullopt;
}

} // namespace

std::string modelNameOfSource(std::string_view source)
{
    std::vector<std::string> parts;
    std::size_t i = 0;
    while (i < source.size()) {
        if (source.substr(i).starts_with("['")) {
            const auto close = source.find("']", i + 2);
            if (close == std::string_view::npos)
                return {};
            parts.emplace_back(source.substr(i + 2, close - i - 2));
            i = close + 2;
        } else if (source[i] == '[') {
            const auto close = source.find(']', i + 1);
            if (close == std::string_view::npos || close == i + 1)
                return {};
            for (std::size_t k = i + 1; k < close; ++k) {
                if (!std::isdigit(static_cast<unsigned char>(source[k])))
                    return {};
            }
            parts.emplace_back(source.substr(i + 1, close - i - 1));
            i = close + 1;
        } else {
            if (source[i] == '.') {
                if (parts.empty())
                    return {};
                ++i;
            }
            const std::size_t start = i;
            while (i < source.size() && isWordChar(source[i]))
                ++i;
            if (i == start)
                return {}; // a call, an operator: not a name
            parts.emplace_back(source.substr(start, i - start));
        }
    }
    // The frame's locals or globals, and the module itself, are not part of the model's names.
    std::string name;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::string& part = parts[k];
        if (k == 0 && (part == "L" || part == "G"))
            continue;
        if (k == 1 && part == "self" && parts[0] == "L")
            continue;
        if (part == "_modules" || part == "_parameters" || part == "_buffers")
            continue;
        name += (name.empty() ? "" : ".") + part;
    }
    return name;
}

std::map<std::string, std::string> tracedInputNames(const TracedCompile& compile)
{
    std::map<std::string, std::string> names;
    if (!compile.joint)
        return names;
    const std::vector<std::string> dynamoInputs
        = compile.dynamoGraph ? forwardParameters(*compile.dynamoGraph) : std::vector<std::string>();
    std::map<std::string, std::string> sourceByPlaceholder;
    for (const std::string& source : compile.inputSources)
        sourceByPlaceholder.emplace(mangled(source), source);
    for (const auto& line : compile.joint->payload) {
        const auto d = primalDescriptor(line.text);
        if (!d)
            continue;
        std::string name = d->target;
        if (d->index && *d->index < dynamoInputs.size()) {
            const auto it = sourceByPlaceholder.find(mangled(dynamoInputs[*d->index]));
            if (it != sourceByPlaceholder.end())
                name = modelNameOfSource(it->second);
        }
        if (!name.empty())
            names.emplace(d->primal, std::move(name));
    }
    return names;
}

} // namespace remat::trace
