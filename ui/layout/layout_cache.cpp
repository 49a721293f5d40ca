// SPDX-License-Identifier: MIT
#include "layout/layout_cache.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace remat::ui {

LayoutCache::LayoutCache(QString directory, std::size_t memoryEntries)
    : m_directory(std::move(directory))
    , m_memoryEntries(memoryEntries)
{
    if (!m_directory.isEmpty())
        QDir().mkpath(m_directory);
}

QString LayoutCache::fileFor(const QByteArray& key) const
{
    return m_directory + QLatin1Char('/') + QString::fromLatin1(key) + QStringLiteral(".layout");
}

std::optional<LayoutResult> LayoutCache::find(const QByteArray& key)
{
    const std::lock_guard lock(m_mutex);
    for (auto it = m_recent.begin(); it != m_recent.end(); ++it) {
        if (it->first == key) {
            m_recent.splice(m_recent.begin(), m_recent, it);
            return m_recent.front().second;
        }
    }
    if (m_directory.isEmpty())
        return std::nullopt;
    QFile file(fileFor(key));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    LayoutResult layout;
    if (!LayoutResult::deserialize(file.readAll(), layout))
        return std::nullopt;
    m_recent.emplace_front(key, layout);
    if (m_recent.size() > m_memoryEntries)
        m_recent.pop_back();
    return layout;
}

void LayoutCache::store(const QByteArray& key, const LayoutResult& layout)
{
    const std::lock_guard lock(m_mutex);
    m_recent.emplace_front(key, layout);
    if (m_recent.size() > m_memoryEntries)
        m_recent.pop_back();
    if (m_directory.isEmpty())
        return;
    // A failed write only costs a Graphviz run next time: no error to report.
    QSaveFile file(fileFor(key));
    if (file.open(QIODevice::WriteOnly)) {
        file.write(layout.serialize());
        file.commit();
    }
}

void LayoutCache::prune(int maxFiles)
{
    if (m_directory.isEmpty())
        return;
    const QFileInfoList files = QDir(m_directory).entryInfoList({QStringLiteral("*.layout")}, QDir::Files, QDir::Time);
    for (qsizetype i = maxFiles; i < files.size(); ++i)
        QFile::remove(files[i].absoluteFilePath());
}

} // namespace remat::ui
