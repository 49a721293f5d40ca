// SPDX-License-Identifier: MIT
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>

namespace remat {

class OtherCoreTask;

/// A large joint-graph text parsed as several documents, split at commas between elements of its
/// top-level "nodes" list. This core parses the head; another core meanwhile parses the later
/// parts in order, so that the caller reads the head's nodes while the rest is being parsed.
///   head:   the text up to the first comma, closed with "]}": every field up to and with
///           "nodes", whose list holds the nodes before the comma;
///   middle: {"nodes":[, the nodes between two commas, then ]};
///   last:   {"nodes":[ and the rest of the text: the last nodes, then every field after.
/// They all parse only if the whole text does, and then hold the same values: before each comma
/// the text is inside the top-level object's last list, right after an element (else the head
/// would not close with "]}", nor a middle part hold one list and nothing else), exactly where
/// a later part's prefix leaves its parser.
class SplitJsonDocuments {
public:
    struct Shared; ///< what both cores see
    explicit SplitJsonDocuments(std::shared_ptr<Shared> shared, std::unique_ptr<OtherCoreTask> task);
    ~SplitJsonDocuments(); ///< waits for the other core
    SplitJsonDocuments(const SplitJsonDocuments&) = delete;
    SplitJsonDocuments& operator=(const SplitJsonDocuments&) = delete;

    const simdjson::dom::document& head() const;
    /// The i-th later part, once the other core has parsed it; nullptr if it did not parse as
    /// more of the head's "nodes" list, or the part before it was the last (the whole text then
    /// reads or explains itself: see SplitReadFailed). Any thread that reads the head may call
    /// it; it waits.
    const simdjson::dom::document* later(std::size_t i) const;
    /// Whether the i-th later part, once later(i) returned it, is the last: the one that runs to
    /// the end of the text.
    bool isLast(std::size_t i) const;
    /// The head's share of the file's bytes, for sizing the graph before the later parts are in.
    double headShare() const;

private:
    std::shared_ptr<Shared> m_shared;
    std::unique_ptr<OtherCoreTask> m_task;
};

/// Thrown by the reader of split documents when a later part did not parse: the caller reads the
/// file whole instead (it parses, or its parse says where it is broken).
struct SplitReadFailed { };

/// Files below this size are read and parsed faster on one core than a thread takes to start.
inline constexpr std::size_t kSplitParseBytes = std::size_t {1} << 20;

/// A file as read by readFileInParts: its documents when it is parsed in parts, else its text.
struct FileInParts {
    std::string text; ///< the whole file with readFileText's spare capacity; empty when parsed
    std::unique_ptr<SplitJsonDocuments> documents;
};

/// Reads `path` as readFileText does (and throws as it does). When the file is large, this core
/// reads and parses the head while another core reads and parses the later parts (see
/// SplitJsonDocuments); that takes a text that starts as a JSON object (no byte-order mark), and
/// split points near where they are looked for. Any other file, or one whose head does not parse
/// as the one nodes list, comes back whole as text: parsed whole, it reads as it would have (or
/// explains why it cannot).
FileInParts readFileInParts(const std::string& path);

} // namespace remat
