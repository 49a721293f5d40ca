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
/// graph (or expanding a group seen before) skips Graphviz. Thread-safe.
class LayoutCache {
public:
    /// `directory` empty: memory only.
    explicit LayoutCache(QString directory = {}, std::size_t memoryEntries = 24);

    std::optional<LayoutResult> find(const QByteArray& key);
    void store(const QByteArray& key, const LayoutResult& layout);
    QString directory() const { return m_directory; }
    /// Removes the oldest files beyond `maxFiles`.
    void prune(int maxFiles = 400);

private:
    QString fileFor(const QByteArray& key) const;

    QString m_directory;
    std::size_t m_memoryEntries;
    std::mutex m_mutex;
    std::list<std::pair<QByteArray, LayoutResult>> m_recent; // most recent first
};

} // namespace remat::ui
