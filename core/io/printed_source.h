// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace remat::printed {

struct SourceLine {
    int number = 0; ///< 1-based line number in the file
    std::string text;
};

/// The one graph taken from a file, with log prefixes removed. The first line is the
/// "class X(torch.nn.Module):" or "def forward(" line, cut at that keyword.
struct GraphText {
    std::vector<SourceLine> lines;
    std::string origin; ///< "print_readable", "TORCH_LOGS" or "TORCH_TRACE"
    std::string title; ///< the log's header ("Joint graph 0", "aot_joint_graph"), if any
    int graphsInFile = 0;
};

/// Finds the graph in a print_readable() dump, a TORCH_LOGS log ("TRACED GRAPH" records, every
/// line behind the same prefix), a tlparse artifact or a raw TORCH_TRACE file (tab-indented
/// payloads). With several graphs, the first joint graph wins, else the first graph.
/// Returns nullopt if there is none. ANSI colour codes are removed.
std::optional<GraphText> locateGraph(std::string_view text);

/// The text's lines, numbered from 1, without a BOM, '\r' and ANSI colour codes.
std::vector<SourceLine> logLines(std::string_view text);

/// The compile id a TORCH_LOGS line prefix names, "0/0_1" in
/// "I1128 ... graph_compile.py:1803] [0/0_1] [__aot_joint_graph] "; empty if none.
std::string compileIdIn(std::string_view prefix);

/// One graph a TORCH_LOGS capture printed (a "TRACED GRAPH" record).
struct LoggedGraph {
    std::string compileId; ///< from the record's prefix; empty if it names none
    std::string title; ///< "Joint graph 0", "Forward graph 1", "Backward graph 1"
    std::vector<SourceLine> lines; ///< from its class/def line to the next record, prefix removed
};

/// Every TORCH_LOGS record of a printed graph among `lines` (logLines), in order.
std::vector<LoggedGraph> loggedGraphs(const std::vector<SourceLine>& lines);

/// One logical line of code: physical lines joined while brackets are open, comments removed.
struct Statement {
    int line = 0; ///< first physical line
    int indent = 0; ///< of the first physical line
    std::string code; ///< empty for a comment line
    std::string comment; ///< a comment line's text after the '#'
};

/// Hands out the statements of a GraphText one at a time, so that the caller can stop at the
/// end of the function without reading whatever follows it in a log.
/// Errors (unbalanced brackets, unterminated strings) throw remat::Error("<file>:<line>: ...").
class StatementReader {
public:
    StatementReader(const std::vector<SourceLine>& lines, std::string fileName)
        : m_lines(lines)
        , m_file(std::move(fileName))
    { }

    /// The next statement whose first line is indented at least `minIndent` (comments at any
    /// indentation); nullopt at the end of the text or when a less indented line comes.
    std::optional<Statement> next(int minIndent);
    /// The last physical line handed out.
    int lastLine() const { return m_lastLine; }

private:
    struct Scanned {
        std::string code;
        std::string comment;
    };
    Scanned scan(const SourceLine& line, std::vector<std::pair<char, int>>& open) const;
    [[noreturn]] void fail(int line, const std::string& what) const;

    const std::vector<SourceLine>& m_lines;
    std::string m_file;
    std::size_t m_index = 0;
    int m_lastLine = 0;
};

/// Leading whitespace, a tab counting to the next multiple of 8.
int indentation(std::string_view line);

/// `text` without leading and trailing spaces, tabs, newlines and carriage returns.
std::string_view trimSpaces(std::string_view text);

} // namespace remat::printed
