// SPDX-License-Identifier: MIT
#pragma once

#include <simdjson.h>

#include <optional>
#include <string>

namespace remat {

/// A large joint-graph text parsed as two documents on two cores, split at a comma between two
/// elements of its top-level "nodes" list:
///   head: the text up to that comma, closed with "]}": every field up to and with "nodes",
///         whose list holds the nodes before the comma;
///   tail: {"nodes":[ and the rest of the text: the nodes after the comma, then every field after.
/// Both parse only if the whole text does, and then hold the same values: before the comma the
/// text is inside the top-level object's last list, right after an element (else the head would
/// not close with "]}"), exactly where the tail's prefix leaves its parser.
struct SplitJsonDocuments {
    simdjson::dom::document head;
    simdjson::dom::document tail;
};

/// Files below this size are read and parsed faster on one core than a thread takes to start.
inline constexpr std::size_t kSplitParseBytes = std::size_t {1} << 20;

/// A file as read by readFileInTwo: its documents when it was parsed in two, else its text.
struct FileInTwo {
    std::string text; ///< the whole file with readFileText's spare capacity; empty when parsed
    std::optional<SplitJsonDocuments> documents;
};

/// Reads `path` as readFileText does (and throws as it does). When the file is large, another
/// core meanwhile reads its part past the middle and parses it as the tail of the nodes list,
/// while this one reads and parses the head; that takes a text that starts as a JSON object (no
/// byte-order mark) and a split point near the middle. Any other file, or one whose halves do
/// not both parse as the one nodes list, comes back whole as text: parsed whole, it reads as it
/// would have (or explains why it cannot).
FileInTwo readFileInTwo(const std::string& path);

} // namespace remat
