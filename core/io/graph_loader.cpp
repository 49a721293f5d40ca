// SPDX-License-Identifier: MIT
#include "io/graph_loader.h"

#include "io/file_text.h"
#include "io/joint_graph_reader.h"
#include "io/printed_graph_reader.h"

namespace remat {

bool looksLikeJson(const std::string& text)
{
    std::size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    return i < text.size() && text[i] == '{';
}

JointGraph loadGraphText(const std::string& text, const std::string& fileName)
{
    if (looksLikeJson(text))
        return readJointGraphText(text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text, fileName);
    return readPrintedGraphText(text, fileName);
}

JointGraph loadGraphFile(const std::string& path)
{
    std::string text = readFileText(path);
    if (text.starts_with("\xEF\xBB\xBF"))
        text.erase(0, 3);
    if (looksLikeJson(text))
        return readJointGraphText(std::move(text), path);
    return readPrintedGraphText(text, path);
}

} // namespace remat
