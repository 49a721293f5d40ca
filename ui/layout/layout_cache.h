// SPDX-License-Identifier: MIT
#pragma once

#include "layout/layout_types.h"

#include <QString>

#include <list>
#include <mutex>
#include <optional>
#include <utility>

namespace remat::ui {

/// Layouts by request fingerprint: the last few in memory, all on disk, so that reopening a
/// graph (or expanding a group seen before) skips Graphviz. A file on disk is never trusted: it
/// carries a format version, the fingerprint of the request it was made for and a digest of its
/// contents, and the layout must fit the request (layoutMismatch) before it is used; a damaged
/// or foreign file is removed and the reason given as a note. Thread-safe.
class LayoutCache {
public:
    /// `directory` empty: memory only.
    explicit LayoutCache(QString directory = {}, std::size_t memoryEntries = 24);

    /// The layout stored for `request`, if any and sound. `note` gets why a file was ignored.
    std::optional<LayoutResult> find(const LayoutRequest& request, QString* note = nullptr);
    void store(const LayoutRequest& request, const LayoutResult& layout);
    QString directory() const { return m_directory; }
    /// The file that holds (or would hold) the layout of the request with this fingerprint.
    QString fileFor(const QByteArray& key) const;
    /// Removes the oldest files beyond `maxFiles`.
    void prune(int maxFiles = 400);

private:
    std::optional<LayoutResult> readFile(
        const LayoutRequest& request, const QByteArray& key, QString* note) const;
    void remember(const QByteArray& key, const LayoutResult& layout);

    QString m_directory;
    std::size_t m_memoryEntries;
    std::mutex m_mutex;
    std::list<std::pair<QByteArray, LayoutResult>> m_recent; // most recent first
};

} // namespace remat::ui
