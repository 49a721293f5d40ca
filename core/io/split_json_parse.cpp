// SPDX-License-Identifier: MIT
#include "io/split_json_parse.h"

#include "io/file_text.h"
#include "io/other_core_task.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <new>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace remat {
namespace {

using simdjson::dom::element_type;

constexpr std::string_view kTailPrefix = R"({"nodes":[)";
constexpr std::string_view kHeadSuffix = "]}";
/// Where the search for a split point starts, in percent of the file. This thread's part is the
/// larger: the other one starts later (its thread is created first), and the nodes it parsed are
/// read here more slowly (written by another core). gpt_n48 on 2 cores: 56 to 60 equally good,
/// 48 and 64 worse.
constexpr std::size_t kHeadPercent = 58;
/// How far before that the search may look back, and how far past it it goes before giving up.
constexpr std::size_t kLookBackBytes = 256;
constexpr std::size_t kSearchBytes = std::size_t {1} << 16;

/// The bytes both threads read, where each looks for the split point: [begin, end) of the file.
struct Window {
    std::size_t begin;
    std::size_t end;

    static Window of(std::size_t fileSize)
    {
        const std::size_t from = fileSize / 100 * kHeadPercent;
        return {from - kLookBackBytes, std::min(fileSize, from + kSearchBytes)};
    }
    std::size_t size() const { return end - begin; }
};

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/// In a window's bytes: a comma between two objects the second of which starts with a "name"
/// field (in our files, the boundary between two nodes), past the look-back and with room before
/// it for the tail's prefix. Anything else that looks so fails to parse as a head.
std::optional<std::size_t> splitComma(std::string_view window)
{
    for (std::size_t at = kLookBackBytes; at < window.size(); ++at) {
        at = window.find(R"("name")", at);
        if (at == std::string_view::npos)
            return std::nullopt;
        std::size_t i = at;
        while (i > 0 && isJsonSpace(window[i - 1]))
            --i;
        if (i == 0 || window[i - 1] != '{')
            continue;
        --i;
        while (i > 0 && isJsonSpace(window[i - 1]))
            --i;
        if (i <= kTailPrefix.size() || window[i - 1] != ',')
            continue;
        const std::size_t comma = i - 1;
        i = comma;
        while (i > 0 && isJsonSpace(window[i - 1]))
            --i;
        if (i > 0 && window[i - 1] == '}')
            return comma;
    }
    return std::nullopt;
}

/// Reads exactly `bytes` at `offset`; false on an error or a file that ends sooner.
bool readAt(int fd, char* into, std::size_t bytes, std::size_t offset)
{
    while (bytes > 0) {
        const ssize_t got = ::pread(fd, into, bytes, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        into += got;
        bytes -= static_cast<std::size_t>(got);
        offset += static_cast<std::size_t>(got);
    }
    return true;
}

/// Whether nothing follows `size` bytes (a file that grew is read whole, as readFileText does).
bool endsAt(int fd, std::size_t size)
{
    char byte;
    return ::pread(fd, &byte, 1, static_cast<off_t>(size)) == 0;
}

bool startsAsObject(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size() && isJsonSpace(text[i]))
        ++i;
    return i < text.size() && text[i] == '{';
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

/// The other core's part: the file from the window on, read and parsed as the tail.
struct TailPart {
    std::unique_ptr<char[]> bytes; ///< the file from window.begin, then the parser's padding
    bool read = false;
    std::optional<std::size_t> comma; ///< in the window
    simdjson::error_code error = simdjson::UNINITIALIZED;

    /// Its buffers are allocated here, so that their fresh pages are cleared on this core.
    void readAndParse(int fd, std::size_t fileSize, Window window, simdjson::dom::document& into) noexcept
    {
        const std::size_t size = fileSize - window.begin;
        bytes.reset(new (std::nothrow) char[size + simdjson::SIMDJSON_PADDING]);
        read = bytes && readAt(fd, bytes.get(), size, window.begin) && endsAt(fd, fileSize);
        if (!read || !(comma = splitComma(std::string_view(bytes.get(), window.size()))))
            return;
        // The prefix goes over the bytes before the comma's successor: the head's, read there too.
        char* start = bytes.get() + *comma + 1 - kTailPrefix.size();
        std::memcpy(start, kTailPrefix.data(), kTailPrefix.size());
        simdjson::dom::parser parser;
        error = parser
                    .parse_into_document(
                        into, start, size - static_cast<std::size_t>(start - bytes.get()), false)
                    .error();
    }
};

struct FileCloser {
    int fd;
    ~FileCloser() { ::close(fd); }
};

} // namespace

FileInTwo readFileInTwo(const std::string& path)
{
    checkInputFileSize(path);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {readFileText(path), {}}; // which says why
    const FileCloser closer {fd};
    struct stat status { };
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)
        || static_cast<std::uintmax_t>(status.st_size) < kSplitParseBytes)
        return {readFileText(path), {}};
    const auto fileSize = static_cast<std::size_t>(status.st_size);
    const Window window = Window::of(fileSize);

    SplitJsonDocuments parts;
    TailPart tail;
    // Before the other thread starts: the first parser to run picks simdjson's kernels.
    (void)simdjson::get_active_implementation()->name();
    OtherCoreTask tailTask([&] { tail.readAndParse(fd, fileSize, window, parts.tail); });

    std::unique_ptr<char[]> head(new (std::nothrow) char[window.end + simdjson::SIMDJSON_PADDING]);
    const bool headRead = head && readAt(fd, head.get(), window.end, 0);
    std::optional<std::size_t> comma;
    simdjson::error_code headError = simdjson::UNINITIALIZED;
    char replaced[kHeadSuffix.size()] = {};
    if (headRead && startsAsObject(std::string_view(head.get(), window.end))) {
        comma = splitComma(std::string_view(head.get() + window.begin, window.size()));
        if (comma) {
            char* suffix = head.get() + window.begin + *comma;
            std::memcpy(replaced, suffix, sizeof replaced);
            std::memcpy(suffix, kHeadSuffix.data(), kHeadSuffix.size());
            const std::size_t headSize = window.begin + *comma + kHeadSuffix.size();
            simdjson::dom::parser parser;
            headError = parser.parse_into_document(parts.head, head.get(), headSize, false).error();
        }
    }
    tailTask.finish();
    if (comma && comma == tail.comma && !headError && !tail.error
        && isNodesList(parts.head.root(), Field::Last) && isNodesList(parts.tail.root(), Field::First))
        return {{}, std::move(parts)};

    // Whole, from the two reads: the head's bytes before the window's end, the tail's after.
    if (!headRead || !tail.read)
        return {readFileText(path), {}};
    if (comma)
        std::memcpy(head.get() + window.begin + *comma, replaced, sizeof replaced);
    FileInTwo whole;
    whole.text.reserve(fileSize + kReadPadding);
    whole.text.append(head.get(), window.end).append(tail.bytes.get() + window.size(), fileSize - window.end);
    return whole;
}

} // namespace remat
