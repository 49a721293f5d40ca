// SPDX-License-Identifier: MIT
#include "io/printed_source.h"

#include "graph/error.h"

namespace remat::printed {
namespace {

/// Removes ANSI escape sequences (TORCH_LOGS colours graphs when stderr is a terminal).
std::string stripAnsi(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size()
                && !((line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z')))
                ++i;
            continue;
        }
        out += line[i];
    }
    return out;
}

std::vector<SourceLine> splitLines(std::string_view text)
{
    std::vector<SourceLine> lines;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    int number = 1;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        auto line = text.substr(start, end - start);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        lines.push_back(
            {number++, line.find('\x1b') == std::string_view::npos ? std::string(line) : stripAnsi(line)});
        start = end + 1;
    }
    return lines;
}

bool isClassNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '<'
        || c == '>' || c == '.';
}

/// Where "class Name(...Module):" or a leading "def forward(" starts in a line, or npos.
std::size_t graphStart(std::string_view line)
{
    const auto def = line.find("def forward(");
    if (def != std::string_view::npos && trimSpaces(line.substr(0, def)).empty())
        return def;
    for (auto pos = line.find("class "); pos != std::string_view::npos; pos = line.find("class ", pos + 1)) {
        if (pos > 0 && line[pos - 1] != ' ' && line[pos - 1] != '\t')
            continue;
        std::size_t i = pos + 6;
        const std::size_t nameStart = i;
        while (i < line.size() && isClassNameChar(line[i]))
            ++i;
        if (i == nameStart || i >= line.size() || line[i] != '(')
            continue;
        const auto rest = trimSpaces(line.substr(i));
        if (rest.ends_with("):") && rest.find("Module") != std::string_view::npos)
            return pos;
    }
    return std::string_view::npos;
}

struct Candidate {
    std::size_t line = 0; // index of the class/def line
    std::string prefix;
    bool tabPayload = false;
    std::string title;
    std::string origin;
};

std::string_view withoutPrefix(std::string_view line, std::string_view prefix)
{
    return line.starts_with(prefix) ? line.substr(prefix.size()) : line;
}

std::string headerTitle(std::string_view line)
{
    // " ===== Joint graph 0 =====" -> "Joint graph 0"
    line = trimSpaces(line);
    while (line.starts_with('='))
        line.remove_prefix(1);
    while (line.ends_with('='))
        line.remove_suffix(1);
    return std::string(trimSpaces(line));
}

/// A raw TORCH_TRACE line: `V0101 ... {"aot_joint_graph": {}, "frame_id": 0, ...}`.
std::string traceKey(std::string_view line)
{
    const auto brace = line.find("{\"");
    if (brace == std::string_view::npos)
        return {};
    const auto close = line.find('"', brace + 2);
    if (close == std::string_view::npos)
        return {};
    const auto key = line.substr(brace + 2, close - brace - 2);
    return key.ends_with("_graph") || key == "graph_dump" ? std::string(key) : std::string();
}

std::vector<Candidate> findCandidates(const std::vector<SourceLine>& lines)
{
    std::vector<Candidate> found;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i].text;
        if (const auto pos = line.find("TRACED GRAPH");
            pos != std::string_view::npos && trimSpaces(line.substr(pos + 12)).empty()) {
            Candidate c;
            c.prefix = std::string(line.substr(0, pos));
            c.origin = "TORCH_LOGS";
            for (std::size_t j = i + 1; j < lines.size() && j <= i + 4; ++j) {
                const auto text = withoutPrefix(lines[j].text, c.prefix);
                if (graphStart(text) != std::string_view::npos) {
                    c.line = j;
                    found.push_back(c);
                    break;
                }
                if (text.find("=====") != std::string_view::npos)
                    c.title = headerTitle(text);
            }
        } else if (auto key = traceKey(line); !key.empty() && i + 1 < lines.size()
                   && lines[i + 1].text.starts_with('\t')
                   && graphStart(std::string_view(lines[i + 1].text).substr(1)) != std::string_view::npos) {
            found.push_back({i + 1, "\t", true, std::move(key), "TORCH_TRACE"});
        }
    }
    return found;
}

bool isJoint(const Candidate& c)
{
    return c.title.find("Joint graph") != std::string::npos || c.title == "aot_joint_graph";
}

} // namespace

std::string_view trimSpaces(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

int indentation(std::string_view line)
{
    int n = 0;
    for (char c : line) {
        if (c == ' ')
            ++n;
        else if (c == '\t')
            n += 8 - n % 8;
        else
            break;
    }
    return n;
}

std::vector<SourceLine> logLines(std::string_view text)
{
    return splitLines(text);
}

std::string compileIdIn(std::string_view prefix)
{
    // "[0/0_1]", "[1/0]", "[!0/1/0]" (compiled autograd): the first bracketed group of digits, '/',
    // '_' and '!' that holds a digit and a '/' ("[rank1]" and a 2.1 timestamp are not one). One
    // pass: a prefix is any text before "TRACED GRAPH", however long.
    std::size_t open = std::string_view::npos;
    bool slash = false;
    bool digit = false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        const char c = prefix[i];
        if (c == '[') {
            open = i;
            slash = digit = false;
        } else if (c == ']' && open != std::string_view::npos && slash && digit) {
            return std::string(prefix.substr(open + 1, i - open - 1));
        } else if (c == '/') {
            slash = true;
        } else if (c >= '0' && c <= '9') {
            digit = true;
        } else if (c != '_' && c != '!') {
            open = std::string_view::npos;
        }
    }
    return {};
}

std::vector<LoggedGraph> loggedGraphs(const std::vector<SourceLine>& lines)
{
    std::vector<LoggedGraph> graphs;
    const std::vector<Candidate> candidates = findCandidates(lines);
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const Candidate& c = candidates[k];
        if (c.origin != "TORCH_LOGS")
            continue;
        LoggedGraph g {compileIdIn(c.prefix), c.title, {}};
        const std::size_t end = k + 1 < candidates.size() ? candidates[k + 1].line : lines.size();
        const std::string_view first = withoutPrefix(lines[c.line].text, c.prefix);
        g.lines.push_back({lines[c.line].number, std::string(first.substr(graphStart(first)))});
        for (std::size_t i = c.line + 1; i < end; ++i)
            g.lines.push_back({lines[i].number, std::string(withoutPrefix(lines[i].text, c.prefix))});
        graphs.push_back(std::move(g));
    }
    return graphs;
}

std::optional<GraphText> locateGraph(std::string_view text)
{
    const std::vector<SourceLine> lines = splitLines(text);
    std::vector<Candidate> candidates = findCandidates(lines);
    GraphText graph;
    graph.graphsInFile = static_cast<int>(candidates.size());
    if (candidates.empty()) {
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const auto pos = graphStart(lines[i].text);
            if (pos == std::string_view::npos)
                continue;
            const auto before = std::string_view(lines[i].text).substr(0, pos);
            Candidate c;
            c.line = i;
            c.prefix = trimSpaces(before).empty() ? std::string() : std::string(before);
            c.origin = "print_readable";
            candidates.push_back(c);
            graph.graphsInFile = 1;
            break;
        }
    }
    if (candidates.empty())
        return std::nullopt;
    const Candidate* chosen = &candidates.front();
    for (const auto& c : candidates) {
        if (isJoint(c)) {
            chosen = &c;
            break;
        }
    }
    graph.origin = chosen->origin;
    graph.title = chosen->title;
    const auto& first = lines[chosen->line];
    const std::string_view firstText = withoutPrefix(first.text, chosen->prefix);
    graph.lines.push_back({first.number, std::string(firstText.substr(graphStart(firstText)))});
    for (std::size_t i = chosen->line + 1; i < lines.size(); ++i) {
        if (chosen->tabPayload && !lines[i].text.starts_with('\t'))
            break;
        graph.lines.push_back({lines[i].number, std::string(withoutPrefix(lines[i].text, chosen->prefix))});
    }
    return graph;
}

void StatementReader::fail(int line, const std::string& what) const
{
    throw Error(m_file + ":" + std::to_string(line) + ": " + what);
}

StatementReader::Scanned StatementReader::scan(
    const SourceLine& line, std::vector<std::pair<char, int>>& open) const
{
    Scanned out;
    const std::string& text = line.text;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '#') {
            out.code = text.substr(0, i);
            out.comment = text.substr(i + 1);
            return out;
        }
        if (c == '\'' || c == '"') {
            std::size_t j = i + 1;
            while (j < text.size() && text[j] != c)
                j += text[j] == '\\' ? 2 : 1;
            if (j >= text.size())
                fail(line.number, "unterminated string");
            i = j;
        } else if (c == '(' || c == '[' || c == '{') {
            open.emplace_back(c, line.number);
        } else if (c == ')' || c == ']' || c == '}') {
            const char expected = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (open.empty())
                fail(line.number, std::string("unbalanced brackets: '") + c + "' closes nothing");
            if (open.back().first != expected)
                fail(line.number,
                    std::string("unbalanced brackets: '") + c + "' does not match the '" + open.back().first
                        + "' opened on line " + std::to_string(open.back().second));
            open.pop_back();
        }
    }
    out.code = text;
    return out;
}

std::optional<Statement> StatementReader::next(int minIndent)
{
    while (m_index < m_lines.size()) {
        const SourceLine& line = m_lines[m_index];
        const auto stripped = trimSpaces(line.text);
        if (stripped.empty()) {
            ++m_index;
            continue;
        }
        if (stripped.starts_with("\"\"\"")) {
            // FX_GRAPH_SHOW_META=1 prints each node's meta as a docstring block: skip it.
            bool closed = stripped.size() >= 6 && stripped.ends_with("\"\"\"");
            ++m_index;
            while (!closed && m_index < m_lines.size())
                closed = trimSpaces(m_lines[m_index++].text).ends_with("\"\"\"");
            continue;
        }
        Statement statement;
        statement.line = line.number;
        statement.indent = indentation(line.text);
        if (!stripped.starts_with('#') && statement.indent < minIndent)
            return std::nullopt;
        std::vector<std::pair<char, int>> open;
        Scanned scanned = scan(line, open);
        ++m_index;
        m_lastLine = line.number;
        if (trimSpaces(scanned.code).empty()) {
            statement.comment = std::move(scanned.comment);
            return statement;
        }
        statement.code = std::move(scanned.code);
        while (!open.empty()) {
            if (m_index == m_lines.size())
                fail(open.back().second,
                    std::string("unbalanced brackets: the '") + open.back().first
                        + "' opened here is never closed");
            const SourceLine& more = m_lines[m_index++];
            m_lastLine = more.number;
            statement.code += '\n';
            statement.code += scan(more, open).code;
        }
        return statement;
    }
    return std::nullopt;
}

} // namespace remat::printed
