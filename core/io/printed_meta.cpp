// SPDX-License-Identifier: MIT
#include "io/printed_meta.h"

#include "graph/checkpoint_policy.h"
#include "graph/error.h"
#include "io/printed_source.h"

#include <array>
#include <charconv>
#include <string>

namespace remat::printed {
namespace {

std::string_view word(std::string_view s)
{
    std::size_t n = 0;
    while (n < s.size()
        && ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') || s[n] == '_' || s[n] == '.'))
        ++n;
    return s.substr(0, n);
}

CheckpointPolicy policy(std::string_view name)
{
    if (const auto parsed = parseCheckpointPolicy(name))
        return *parsed;
    throw Error("unknown checkpoint policy '" + std::string(name)
        + "' (expected MUST_SAVE, PREFER_SAVE, MUST_RECOMPUTE, PREFER_RECOMPUTE, MUST_CPU_OFFLOAD or"
          " PREFER_CPU_OFFLOAD)");
}

} // namespace

NodeMeta parseSummaryComment(std::string_view comment)
{
    NodeMeta meta;
    const auto file = comment.find("File: ");
    // Tags come before the stack-trace summary; the code excerpt after it is the user's text.
    const std::string_view head = comment.substr(0, file);
    if (const auto at = head.find("ac_graph_id: "); at != std::string_view::npos) {
        std::string_view rest = head.substr(at + 13);
        std::int64_t id = 0;
        const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), id);
        if (ec != std::errc())
            throw Error("malformed ac_graph_id in the comment '" + std::string(trimSpaces(comment)) + "'");
        meta.acGraphId = id;
        rest.remove_prefix(static_cast<std::size_t>(ptr - rest.data()));
        if (rest.starts_with(" - "))
            meta.recompute = policy(word(rest.substr(3)));
    }
    if (const auto at = head.find("recompute: "); at != std::string_view::npos)
        meta.recompute = policy(word(head.substr(at + 11)));
    if (file != std::string_view::npos) {
        constexpr std::string_view kBackward = "Backward of forward node: ";
        auto start = file;
        if (file >= kBackward.size()
            && comment.substr(file - kBackward.size(), kBackward.size()) == kBackward)
            start = file - kBackward.size();
        meta.source.edit().stackTrace = std::string(trimSpaces(comment.substr(start)));
    }
    return meta;
}

} // namespace remat::printed
