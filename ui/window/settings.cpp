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

/// Every setting, read from disk once and kept up to date by write(). The GUI thread alone uses
/// it, and never opens a QSettings while a write may be pending: Qt shares one file's unsaved
/// changes between the QSettings of all threads, and whichever syncs first writes them (with its
/// fsyncs), so that a reader on the GUI thread would take over the writer's work.
QHash<QString, QVariant>& store()
{
    static QHash<QString, QVariant> values = [] {
        QHash<QString, QVariant> loaded;
        const QSettings settings;
        for (const QString& key : settings.allKeys())
            loaded.insert(key, settings.value(key));
        return loaded;
    }();
    return values;
}

QVariant read(const QString& key, const QVariant& fallback = {})
{
    return store().value(key, fallback);
}

/// Applies `changes` (an invalid value removes its key) on the background writer: a QSettings
/// syncs as it is destroyed, and that takes a lock file and two fsyncs.
void write(std::vector<std::pair<QString, QVariant>> changes)
{
    for (const auto& [key, value] : changes) {
        if (value.isValid())
            store().insert(key, value);
        else
            store().remove(key);
    }
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
    store().clear();
    BackgroundWrites::flush();
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
