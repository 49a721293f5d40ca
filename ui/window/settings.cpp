// SPDX-License-Identifier: MIT
#include "window/settings.h"

#include "model/background_writes.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QSettings>

#include <utility>
#include <vector>

namespace remat::ui::Settings {
namespace {

namespace Key {
const QString recentFiles = QStringLiteral("files/recent");
const QString lastFolder = QStringLiteral("files/lastFolder");
const QString geometry = QStringLiteral("window/geometry");
const QString state = QStringLiteral("window/state");
const QString colours = QStringLiteral("canvas/colours/");
const QString overview = QStringLiteral("canvas/overview");
const QString legend = QStringLiteral("canvas/legend");
const QString compare = QStringLiteral("canvas/compareWithReference");
} // namespace Key

/// Each key this run changed, with its newest value (invalid: removed), ahead of the file until
/// the write gets there. The GUI thread alone reads and writes it.
QHash<QString, QVariant>& changed()
{
    static QHash<QString, QVariant> values;
    return values;
}

QVariant read(const QString& key, const QVariant& fallback = {})
{
    if (const auto it = changed().constFind(key); it != changed().cend())
        return it->isValid() ? *it : fallback;
    return QSettings().value(key, fallback);
}

/// Applies `changes` (an invalid value removes its key) on the background writer: a QSettings
/// syncs as it is destroyed, and that takes a lock file and two fsyncs.
void write(std::vector<std::pair<QString, QVariant>> changes)
{
    for (const auto& [key, value] : changes)
        changed().insert(key, value);
    BackgroundWrites::post([changes = std::move(changes), format = QSettings::defaultFormat(),
                               organization = QCoreApplication::organizationName(),
                               application = QCoreApplication::applicationName()] {
        QSettings settings(format, QSettings::UserScope, organization, application);
        for (const auto& [key, value] : changes) {
            if (value.isValid())
                settings.setValue(key, value);
            else
                settings.remove(key);
        }
    });
}

void write(const QString& key, const QVariant& value)
{
    write(std::vector<std::pair<QString, QVariant>> {{key, value}});
}

} // namespace

void flush()
{
    BackgroundWrites::flush();
}

void clearAll()
{
    BackgroundWrites::flush();
    changed().clear();
    QSettings().clear();
}

QStringList recentFiles()
{
    return read(Key::recentFiles).toStringList();
}

void addRecentFile(const QString& path)
{
    if (path.startsWith(QLatin1String(":/")))
        return; // the bundled sample has its own menu entry
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    write(Key::recentFiles, files);
}

void removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    write(Key::recentFiles, files);
}

QString lastOpenFolder()
{
    return read(Key::lastFolder).toString();
}

void setLastOpenFolder(const QString& folder)
{
    write(Key::lastFolder, folder);
}

QByteArray windowGeometry()
{
    return read(Key::geometry).toByteArray();
}

QByteArray windowState()
{
    return read(Key::state).toByteArray();
}

void setWindowGeometry(const QByteArray& geometry)
{
    write(Key::geometry, geometry);
}

void setWindowState(const QByteArray& state)
{
    write(Key::state, state);
}

CanvasPalette palette()
{
    CanvasPalette p = CanvasPalette::defaults();
    for (const auto& entry : CanvasPalette::entries()) {
        const QColor c(read(Key::colours + QLatin1String(entry.key)).toString());
        if (c.isValid())
            p.*entry.member = c;
    }
    return p;
}

void setPalette(const CanvasPalette& p)
{
    const CanvasPalette defaults = CanvasPalette::defaults();
    std::vector<std::pair<QString, QVariant>> changes;
    for (const auto& entry : CanvasPalette::entries()) {
        // Only what differs from the defaults is stored, so that new defaults reach old users.
        const bool isDefault = p.*entry.member == defaults.*entry.member;
        changes.emplace_back(Key::colours + QLatin1String(entry.key),
            isDefault ? QVariant() : QVariant((p.*entry.member).name()));
    }
    write(std::move(changes));
}

bool overviewVisible()
{
    return read(Key::overview, true).toBool();
}

void setOverviewVisible(bool visible)
{
    write(Key::overview, visible);
}

bool legendVisible()
{
    return read(Key::legend, true).toBool();
}

void setLegendVisible(bool visible)
{
    write(Key::legend, visible);
}

bool compareWithReference()
{
    return read(Key::compare, true).toBool();
}

void setCompareWithReference(bool compare)
{
    write(Key::compare, compare);
}

} // namespace remat::ui::Settings
