// SPDX-License-Identifier: MIT
#include "io/file_text.h"

#include "graph/error.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace remat {

void checkInputFileSize(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path + ": cannot read: it is a folder");
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxInputFileBytes)
        throw Error(path + ": cannot read: the file is " + std::to_string(size) + " bytes; files over "
            + std::to_string(kMaxInputFileBytes >> 20) + " MiB are refused (no joint graph is that large)");
}

std::string readFileText(const std::string& path)
{
    checkInputFileSize(path);
    std::error_code ec;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        throw Error(path + ": cannot read: " + std::strerror(errno));
    std::string text;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) { // read in place: a 3 MB graph is not copied chunk by chunk
        text.reserve(size + kReadPadding);
        text.resize(size);
        text.resize(std::fread(text.data(), 1, size, file));
    }
    char chunk[1 << 16]; // the rest, for files that grew or report no size (pipes)
    std::size_t got = 0;
    while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
        text.append(chunk, got);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed)
        throw Error(path + ": cannot read: I/O error");
    return text;
}

void writeFileAtomically(const std::string& path, const std::string& contents)
{
    // One temporary name per call, so that two threads writing one path never share a file.
    static std::atomic<unsigned> calls {0};
    const std::string temp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(calls++);
    std::FILE* file = std::fopen(temp.c_str(), "wb");
    if (!file)
        throw Error(path + ": cannot write: " + std::strerror(errno));
    // The file it replaces keeps its permissions (a project shared with the group stays shared).
    if (struct stat old {}; ::stat(path.c_str(), &old) == 0)
        ::fchmod(::fileno(file), old.st_mode & 07777);
    const bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
    const bool flushed = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
    const int savedErrno = errno;
    std::fclose(file);
    if (!written || !flushed) {
        std::remove(temp.c_str());
        throw Error(path + ": cannot write: " + std::strerror(savedErrno));
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        const int renameErrno = errno;
        std::remove(temp.c_str());
        throw Error(path + ": cannot write: " + std::strerror(renameErrno));
    }
}

} // namespace remat
