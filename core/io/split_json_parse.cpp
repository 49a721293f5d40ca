// SPDX-License-Identifier: MIT
#include "io/split_json_parse.h"

#include "io/file_text.h"
#include "io/other_core_task.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <new>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace remat {
namespace {

using simdjson::dom::element_type;

constexpr std::string_view kTailPrefix = R"({"nodes":[)";
constexpr std::string_view kHeadSuffix = "]}";
/// Where the searches for split points start, in percent of the file: this core parses the head
/// up to the first, the other core the parts between and after the others, in order, while this
/// one reads the nodes of the parts before. A point past the nodes list ends the parts early (the
/// part before it runs to the end). gpt_n48 on 2 cores, medians of 300 interleaved runs:
/// {35, 60, 80} 9.66 ms, {30, 55, 78} 9.75 ms, {30, 60} 10.00 ms; the head and one part split
/// at 58% (both parsed before any node is read), 10.39 ms.
constexpr std::array<std::size_t, 3> kSplitPercents {35, 60, 80};
/// How far before each point the search may look back, and how far past it it goes before giving up.
constexpr std::size_t kLookBackBytes = 256;
constexpr std::size_t kSearchBytes = std::size_t {1} << 16;

/// The bytes in which a split point is looked for: [begin, end) of the file.
struct Window {
    std::size_t begin;
    std::size_t end;

    static Window of(std::size_t fileSize, std::size_t split)
    {
        const std::size_t from = fileSize / 100 * kSplitPercents[split];
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
/// it for a later part's prefix. Anything else that looks so fails to parse as a head or as a
/// middle part.
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

enum class Field { First, Last, Only };

/// Whether the last part's first field, the head's last, or a middle part's only one is a
/// non-empty "nodes" list, and the head has no other: a text with two would read differently in parts.
bool isNodesList(const simdjson::dom::element& root, Field which)
{
    if (root.type() != element_type::OBJECT)
        return false;
    std::string_view key;
    simdjson::dom::element value;
    int nodesKeys = 0;
    int fields = 0;
    for (const auto field : simdjson::dom::object(root)) {
        key = field.key;
        value = field.value;
        nodesKeys += key == "nodes";
        ++fields;
        if (which == Field::First)
            break;
    }
    return nodesKeys == 1 && key == "nodes" && value.type() == element_type::ARRAY
        && simdjson::dom::array(value).size() > 0 && (which != Field::Only || fields == 1);
}

constexpr std::size_t kNoComma = std::string_view::npos;
constexpr std::size_t kNoPart = std::string_view::npos;

} // namespace

struct SplitJsonDocuments::Shared {
    std::size_t fileSize = 0;
    std::size_t headBytes = 0;
    simdjson::dom::document head;
    std::vector<simdjson::dom::document> later {kSplitPercents.size()};
    std::atomic<bool> cancelled {false};

    std::mutex mutex;
    std::condition_variable changed;
    std::size_t finished = 0; ///< later parts the other core is done with, in order
    std::size_t parsed = 0; ///< of them, those that parsed as more nodes
    std::size_t lastPart = kNoPart; ///< the one that runs to the end of the text
    std::size_t firstComma = kNoComma; ///< where the head ends, as this core found it
    std::size_t helperFirstComma = kNoComma; ///< and as the other core did: they must agree

    void publish(bool ok, bool last)
    {
        const std::lock_guard lock(mutex);
        parsed += ok && parsed == finished;
        if (last)
            lastPart = finished;
        finished = last || !ok ? later.size() : finished + 1;
        changed.notify_all();
    }
    void failTheRest()
    {
        const std::lock_guard lock(mutex);
        finished = later.size();
        changed.notify_all();
    }
};

namespace {

/// The other core's work: the file from the first window on, read a part at a time and each part
/// parsed as soon as it is read. Its buffers are allocated here, so that their fresh pages are
/// cleared on this core.
void readAndParseLaterParts(int fd, SplitJsonDocuments::Shared& shared) noexcept
{
    const std::size_t fileSize = shared.fileSize;
    const std::size_t base = Window::of(fileSize, 0).begin; // the buffer's first byte in the file
    std::unique_ptr<char[]> bytes(new (std::nothrow) char[fileSize - base + simdjson::SIMDJSON_PADDING]);
    std::size_t readUpTo = base; // in the file
    const auto readThrough = [&](std::size_t end) {
        if (end <= readUpTo)
            return true;
        const bool ok = readAt(fd, bytes.get() + (readUpTo - base), end - readUpTo, readUpTo);
        readUpTo = end;
        return ok;
    };
    const auto commaIn = [&](std::size_t split) {
        const Window window = Window::of(fileSize, split);
        const auto at = splitComma(std::string_view(bytes.get() + (window.begin - base), window.size()));
        return at ? window.begin + *at : kNoComma;
    };
    if (!bytes || !readThrough(Window::of(fileSize, 0).end))
        return shared.failTheRest();
    std::size_t comma = commaIn(0);
    {
        const std::lock_guard lock(shared.mutex);
        shared.helperFirstComma = comma;
    }
    simdjson::dom::parser parser;
    // Parses the part after the comma at `after`, up to the one at `next` (a middle part) or to
    // the end of the text.
    const auto parsePart = [&](std::size_t part, std::size_t after, std::size_t next) {
        const bool last = next == kNoComma;
        // The prefix goes over the bytes before the comma's successor: the previous part's, parsed.
        char* start = bytes.get() + (after + 1 - base) - kTailPrefix.size();
        std::memcpy(start, kTailPrefix.data(), kTailPrefix.size());
        char replaced[kHeadSuffix.size()] = {};
        char* suffix = last ? nullptr : bytes.get() + (next - base);
        if (suffix) {
            std::memcpy(replaced, suffix, sizeof replaced);
            std::memcpy(suffix, kHeadSuffix.data(), kHeadSuffix.size());
        }
        const auto size = static_cast<std::size_t>(
            (suffix ? suffix + kHeadSuffix.size() : bytes.get() + (fileSize - base)) - start);
        auto& document = shared.later[part];
        const bool ok = !parser.parse_into_document(document, start, size, false).error()
            && isNodesList(document.root(), last ? Field::First : Field::Only);
        if (suffix)
            std::memcpy(suffix, replaced, sizeof replaced);
        return ok;
    };
    for (std::size_t part = 0; part < shared.later.size(); ++part) {
        if (comma == kNoComma || shared.cancelled.load(std::memory_order_relaxed))
            return shared.failTheRest();
        // A middle part ends at the next split point; the last, or one before a point where no
        // nodes are split (past the nodes list), runs to the end of the text.
        std::size_t next = kNoComma;
        if (part + 1 < shared.later.size()) {
            if (!readThrough(Window::of(fileSize, part + 1).end))
                return shared.failTheRest();
            next = commaIn(part + 1);
            if (next != kNoComma && (next <= comma + 1 || !parsePart(part, comma, next)))
                next = kNoComma; // what looked like a split point was not one between nodes
        }
        if (next == kNoComma) {
            const bool ok = readThrough(fileSize) && endsAt(fd, fileSize) && parsePart(part, comma, kNoComma);
            return shared.publish(ok, true);
        }
        shared.publish(true, false);
        comma = next;
    }
}

struct FileCloser {
    explicit FileCloser(int file)
        : fd(file)
    { }
    FileCloser(const FileCloser&) = delete;
    FileCloser& operator=(const FileCloser&) = delete;
    ~FileCloser() { ::close(fd); }
    int fd;
};

} // namespace

SplitJsonDocuments::SplitJsonDocuments(std::shared_ptr<Shared> shared, std::unique_ptr<OtherCoreTask> task)
    : m_shared(std::move(shared))
    , m_task(std::move(task))
{ }

SplitJsonDocuments::~SplitJsonDocuments()
{
    m_shared->cancelled = true;
    m_task->finish();
}

const simdjson::dom::document& SplitJsonDocuments::head() const
{
    return m_shared->head;
}

const simdjson::dom::document* SplitJsonDocuments::later(std::size_t i) const
{
    if (i >= m_shared->later.size())
        return nullptr;
    m_task->runHereUnlessStarted(); // then it has finished every part
    std::unique_lock lock(m_shared->mutex);
    m_shared->changed.wait(lock, [&] { return m_shared->finished > i; });
    return i < m_shared->parsed && m_shared->helperFirstComma == m_shared->firstComma ? &m_shared->later[i]
                                                                                      : nullptr;
}

bool SplitJsonDocuments::isLast(std::size_t i) const
{
    const std::lock_guard lock(m_shared->mutex);
    return m_shared->lastPart == i;
}

double SplitJsonDocuments::headShare() const
{
    return static_cast<double>(m_shared->headBytes) / static_cast<double>(m_shared->fileSize);
}

FileInParts readFileInParts(const std::string& path)
{
    checkInputFileSize(path);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {readFileText(path), {}}; // which says why
    const auto closer = std::make_shared<FileCloser>(fd); // closed when both cores are done with it
    struct stat status { };
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)
        || static_cast<std::uintmax_t>(status.st_size) < kSplitParseBytes)
        return {readFileText(path), {}};
    auto shared = std::make_shared<SplitJsonDocuments::Shared>();
    shared->fileSize = static_cast<std::size_t>(status.st_size);
    const Window window = Window::of(shared->fileSize, 0);

    // Before the other thread starts: the first parser to run picks simdjson's kernels.
    (void)simdjson::get_active_implementation()->name();
    // The task holds the file open and the shared state alive for as long as it may run.
    auto documents = std::make_unique<SplitJsonDocuments>(shared,
        std::make_unique<OtherCoreTask>([shared, closer] { readAndParseLaterParts(closer->fd, *shared); }));

    std::unique_ptr<char[]> head(new (std::nothrow) char[window.end + simdjson::SIMDJSON_PADDING]);
    if (!head || !readAt(fd, head.get(), window.end, 0)
        || !startsAsObject(std::string_view(head.get(), window.end)))
        return {readFileText(path), {}};
    const auto comma = splitComma(std::string_view(head.get() + window.begin, window.size()));
    if (!comma)
        return {readFileText(path), {}};
    {
        const std::lock_guard lock(shared->mutex);
        shared->firstComma = window.begin + *comma;
    }
    std::memcpy(head.get() + window.begin + *comma, kHeadSuffix.data(), kHeadSuffix.size());
    shared->headBytes = window.begin + *comma + kHeadSuffix.size();
    simdjson::dom::parser parser;
    if (parser.parse_into_document(shared->head, head.get(), shared->headBytes, false).error()
        || !isNodesList(shared->head.root(), Field::Last))
        return {readFileText(path), {}};
    return {{}, std::move(documents)};
}

} // namespace remat
