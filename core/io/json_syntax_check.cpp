// SPDX-License-Identifier: MIT
#include "io/json_syntax_check.h"

#include "io/json_location.h"
#include "io/text_encoding.h"

#include <rapidjson/encodings.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace remat {
namespace {

/// Counts nesting as the parser goes, and stops it past kMaxJsonDepth.
struct DepthLimit : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, DepthLimit> {
    int depth = 0;
    bool tooDeep = false;

    bool open()
    {
        tooDeep = ++depth > kMaxJsonDepth;
        return !tooDeep;
    }
    bool StartObject() { return open(); }
    bool StartArray() { return open(); }
    bool close()
    {
        --depth;
        return true;
    }
    bool EndObject(rapidjson::SizeType) { return close(); }
    bool EndArray(rapidjson::SizeType) { return close(); }
};

std::string at(std::string_view text, std::size_t offset)
{
    const auto where = locateOffset(text, offset);
    return std::to_string(where.line) + ":" + std::to_string(where.column);
}

} // namespace

std::optional<std::string> findJsonSyntaxError(std::string_view text)
{
    // Before parsing: RapidJSON stops at a NUL byte as at the end ("the document is empty").
    if (const auto encoding = findEncodingError(text))
        return *encoding;
    rapidjson::Reader reader;
    DepthLimit handler;
    rapidjson::MemoryStream stream(text.data(), text.size());
    constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
    const auto result = reader.Parse<kFlags>(stream, handler);
    if (!result.IsError())
        return std::nullopt;
    if (handler.tooDeep)
        return at(text, result.Offset()) + ": malformed JSON: nested deeper than "
            + std::to_string(kMaxJsonDepth) + " levels";
    return at(text, result.Offset()) + ": malformed JSON: " + rapidjson::GetParseError_En(result.Code());
}

} // namespace remat
