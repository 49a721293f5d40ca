// SPDX-License-Identifier: MIT
#include "io/graph_loader.h"

#include "graph/error.h"
#include "io/file_text.h"
#include "io/joint_graph_reader.h"
#include "io/printed_graph_reader.h"

namespace remat {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::size_t firstNonBlank(std::string_view text)
{
    std::size_t i = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    return i;
}

JointGraph load(std::string text, const std::string& fileName)
{
    if (firstNonBlank(text) == text.size())
        throw Error(fileName + ": the file is empty");
    if (text.starts_with(kUtf8Bom))
        text.erase(0, kUtf8Bom.size());
    if (looksLikeJson(text))
        return readJointGraphText(std::move(text), fileName);
    return readPrintedGraphText(text, fileName);
}

} // namespace

bool looksLikeJson(const std::string& text)
{
    const std::size_t i = firstNonBlank(text);
    return i < text.size() && (text[i] == '{' || text[i] == '[');
}

JointGraph loadGraphText(const std::string& text, const std::string& fileName)
{
    return load(text, fileName);
}

JointGraph loadGraphFile(const std::string& path)
{
    return load(readFileText(path), path);
}

} // namespace remat
