// SPDX-License-Identifier: MIT
#include "io/split_json_parse.h"

#include "io/other_core_task.h"

#include <cstring>
#include <new>
#include <string_view>

namespace remat {
namespace {

using simdjson::dom::element_type;

constexpr std::string_view kTailPrefix = R"({"nodes":[)";
constexpr std::string_view kHeadSuffix = "]}";
/// Where the head ends, in percent of the text: the other thread also starts, allocates and
/// copies before it parses, so its part is the smaller (gpt_n48 on 2 cores: best at 55-58).
constexpr std::size_t kHeadPercent = 56;
/// How far past that to look for a split point before giving up.
constexpr std::size_t kSearchBytes = 1u << 16;

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/// A comma between two objects the second of which starts with a "name" field: in our files,
/// the boundary between two nodes. Anything else that looks so fails to parse as a head.
std::optional<std::size_t> splitComma(std::string_view text)
{
    const std::size_t from = text.size() / 100 * kHeadPercent;
    const std::size_t end = std::min(text.size(), from + kSearchBytes);
    for (std::size_t at = from; at < end; ++at) {
        at = text.find(R"("name")", at);
        if (at == std::string_view::npos || at >= end)
            return std::nullopt;
        std::size_t i = at;
        while (i > 0 && isJsonSpace(text[i - 1]))
            --i;
        if (i == 0 || text[i - 1] != '{')
            continue;
        --i;
        while (i > 0 && isJsonSpace(text[i - 1]))
            --i;
        if (i < 2 || text[i - 1] != ',')
            continue;
        const std::size_t comma = i - 1;
        i = comma;
        while (i > 0 && isJsonSpace(text[i - 1]))
            --i;
        if (i > 0 && text[i - 1] == '}')
            return comma;
    }
    return std::nullopt;
}

enum class Field { First, Last };

/// Whether the tail's first field, or the head's last, is a non-empty "nodes" list, and the head
/// has no other: a text with two would read differently in two.
bool isNodesList(const simdjson::dom::element& root, Field which)
{
    if (root.type() != element_type::OBJECT)
        return false;
    std::string_view key;
    simdjson::dom::element value;
    int nodesKeys = 0;
    for (const auto field : simdjson::dom::object(root)) {
        key = field.key;
        value = field.value;
        nodesKeys += key == "nodes";
        if (which == Field::First)
            break;
    }
    return nodesKeys == 1 && key == "nodes" && value.type() == element_type::ARRAY
        && simdjson::dom::array(value).size() > 0;
}

} // namespace

std::optional<SplitJsonDocuments> parseNodesInTwo(std::string& text)
{
    if (text.size() < kSplitParseBytes || text.capacity() < text.size() + simdjson::SIMDJSON_PADDING)
        return std::nullopt;
    const auto comma = splitComma(text);
    if (!comma)
        return std::nullopt;

    SplitJsonDocuments parts;
    simdjson::dom::parser headParser;
    simdjson::dom::parser tailParser;
    const std::size_t headSize = *comma + kHeadSuffix.size();
    const std::size_t tailSize = kTailPrefix.size() + text.size() - (*comma + 1);
    std::string tailText;
    // Before the other thread starts: the first parser to allocate picks simdjson's kernels.
    if (parts.head.allocate(headSize) || headParser.allocate(headSize))
        return std::nullopt;

    // The other thread copies the tail from past the two bytes the head's "]}" takes, and is
    // given the one of them that belongs to the tail: neither thread writes what the other reads.
    const char tailFirst = text[*comma + 1];
    simdjson::error_code tailError = simdjson::SUCCESS;
    OtherCoreTask tailTask([&] {
        // The tail's buffers are allocated there, so that their fresh pages are cleared there.
        try {
            tailText.reserve(tailSize + simdjson::SIMDJSON_PADDING);
        } catch (const std::bad_alloc&) {
            tailError = simdjson::MEMALLOC;
            return;
        }
        tailText.append(kTailPrefix).append(1, tailFirst).append(std::string_view(text).substr(*comma + 2));
        tailError
            = tailParser.parse_into_document(parts.tail, tailText.data(), tailText.size(), false).error();
    });
    const char saved[2] = {text[*comma], tailFirst};
    std::memcpy(text.data() + *comma, kHeadSuffix.data(), kHeadSuffix.size());
    const auto headError = headParser.parse_into_document(parts.head, text.data(), headSize, false).error();
    tailTask.finish();
    if (headError || tailError || !isNodesList(parts.head.root(), Field::Last)
        || !isNodesList(parts.tail.root(), Field::First)) {
        std::memcpy(text.data() + *comma, saved, sizeof saved);
        return std::nullopt;
    }
    return parts;
}

} // namespace remat
