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

/// Texts below this size parse faster on one core than a thread takes to start.
inline constexpr std::size_t kSplitParseBytes = std::size_t {1} << 20;

/// Parses `text` in two when it is large and a split point is found near its middle. `text` must
/// have simdjson's padding as spare capacity; two of its bytes are overwritten (the head's "]}")
/// and the caller frees it afterwards. nullopt, with `text` as it was, when the text is small,
/// has no split point or does not parse: the caller then parses it whole, which explains why.
std::optional<SplitJsonDocuments> parseNodesInTwo(std::string& text);

} // namespace remat
