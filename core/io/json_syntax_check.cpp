// SPDX-License-Identifier: MIT
#include "io/json_syntax_check.h"

#include "io/json_location.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace remat {

std::optional<std::string> findJsonSyntaxError(std::string_view text)
{
    rapidjson::Reader reader;
    rapidjson::BaseReaderHandler<> ignore;
    rapidjson::MemoryStream stream(text.data(), text.size());
    const auto result = reader.Parse(stream, ignore);
    if (!result.IsError())
        return std::nullopt;
    const auto where = locateOffset(text, result.Offset());
    return std::to_string(where.line) + ":" + std::to_string(where.column)
        + ": malformed JSON: " + rapidjson::GetParseError_En(result.Code());
}

} // namespace remat
