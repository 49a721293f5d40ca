// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace remat {

/// A file mapped read-only from the kernel's page cache, to parse where it lies: reading a 3 MB
/// graph into fresh memory costs a copy and 700 page faults, about as long as parsing it.
/// Mapping is optional: text() is empty when it failed (a pipe, an empty file, no memory), and
/// the caller reads the file instead. A file truncated while mapped would end the process with
/// SIGBUS; ours are replaced by a rename (writeFileAtomically), which leaves the mapped one intact.
class MappedFile {
public:
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::string_view text() const { return {m_data, m_size}; }
    /// Bytes that may be read past the end of text() (the rest of its last page, zeros).
    std::size_t readablePastEnd() const { return m_mapped - m_size; }

private:
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_mapped = 0;
};

} // namespace remat
