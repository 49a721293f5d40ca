// SPDX-License-Identifier: MIT
#include "layout/layout_cache.h"

#include "layout/layout_check.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace remat::ui {
namespace {

// A cache file: magic, version, the request's fingerprint, a digest of the payload, the payload.
constexpr quint32 kMagic = 0x524d4c59; // "RMLY"
constexpr quint32 kFileVersion = 2;

QByteArray digestOf(const QByteArray& payload)
{
    return QCryptographicHash::hash(payload, QCryptographicHash::Sha1);
}

} // namespace

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

void LayoutCache::remember(const QByteArray& key, const LayoutResult& layout)
{
    m_recent.emplace_front(key, layout);
    if (m_recent.size() > m_memoryEntries)
        m_recent.pop_back();
}

std::optional<LayoutResult> LayoutCache::find(const LayoutRequest& request, QString* note)
{
    const QByteArray key = request.fingerprint();
    const std::lock_guard lock(m_mutex);
    for (auto it = m_recent.begin(); it != m_recent.end(); ++it) {
        if (it->first == key) {
            m_recent.splice(m_recent.begin(), m_recent, it);
            return m_recent.front().second;
        }
    }
    if (m_directory.isEmpty())
        return std::nullopt;
    std::optional<LayoutResult> layout = readFile(request, key, note);
    if (layout)
        remember(key, *layout);
    return layout;
}

std::optional<LayoutResult> LayoutCache::readFile(
    const LayoutRequest& request, const QByteArray& key, QString* note) const
{
    const QString path = fileFor(key);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt; // not laid out before
    const QByteArray bytes = file.readAll();
    file.close();

    auto reject = [&](const QString& why) -> std::optional<LayoutResult> {
        if (note)
            *note = QStringLiteral("Ignored the layout cache file %1: %2; laying out afresh.").arg(path, why);
        // Removed so that the fresh layout replaces it instead of being rejected again.
        QFile::remove(path);
        return std::nullopt;
    };
    QDataStream in(bytes);
    in.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0;
    quint32 version = 0;
    QByteArray storedKey;
    QByteArray digest;
    QByteArray payload;
    in >> magic >> version;
    if (in.status() != QDataStream::Ok || magic != kMagic)
        return reject(QStringLiteral("not a layout cache file"));
    if (version != kFileVersion)
        return reject(
            QStringLiteral("cache version %1, this version reads %2").arg(version).arg(kFileVersion));
    in >> storedKey >> digest >> payload;
    if (in.status() != QDataStream::Ok)
        return reject(QStringLiteral("truncated"));
    if (storedKey != key)
        return reject(QStringLiteral("made for another graph (fingerprint %1)")
                          .arg(QString::fromLatin1(storedKey.left(40))));
    if (digestOf(payload) != digest)
        return reject(QStringLiteral("its contents do not match their checksum"));
    LayoutResult layout;
    QString error;
    if (!LayoutResult::deserialize(payload, layout, &error))
        return reject(error);
    if (const QString mismatch = layoutMismatch(request, layout); !mismatch.isEmpty())
        return reject(mismatch);
    layout.fromCache = true;
    layout.seconds = 0;
    return layout;
}

void LayoutCache::store(const LayoutRequest& request, const LayoutResult& layout)
{
    const QByteArray key = request.fingerprint();
    const std::lock_guard lock(m_mutex);
    remember(key, layout);
    if (m_directory.isEmpty())
        return;
    const QByteArray payload = layout.serialize();
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    out << kMagic << kFileVersion << key << digestOf(payload) << payload;
    // A failed write only costs a Graphviz run next time: no error to report.
    QSaveFile file(fileFor(key));
    if (file.open(QIODevice::WriteOnly)) {
        file.write(bytes);
        file.commit();
    }
}

void LayoutCache::prune(int maxFiles)
{
    if (m_directory.isEmpty())
        return;
    const QFileInfoList files
        = QDir(m_directory).entryInfoList({QStringLiteral("*.layout")}, QDir::Files, QDir::Time);
    for (qsizetype i = maxFiles; i < files.size(); ++i)
        QFile::remove(files[i].absoluteFilePath());
}

} // namespace remat::ui
