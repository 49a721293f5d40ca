// SPDX-License-Identifier: MIT
#include "window/settings.h"

#include <QFileInfo>
#include <QSettings>

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

} // namespace

QStringList recentFiles()
{
    return QSettings().value(Key::recentFiles).toStringList();
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
    QSettings().setValue(Key::recentFiles, files);
}

void removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(Key::recentFiles, files);
}

QString lastOpenFolder()
{
    return QSettings().value(Key::lastFolder).toString();
}

void setLastOpenFolder(const QString& folder)
{
    QSettings().setValue(Key::lastFolder, folder);
}

QByteArray windowGeometry()
{
    return QSettings().value(Key::geometry).toByteArray();
}

QByteArray windowState()
{
    return QSettings().value(Key::state).toByteArray();
}

void setWindowGeometry(const QByteArray& geometry)
{
    QSettings().setValue(Key::geometry, geometry);
}

void setWindowState(const QByteArray& state)
{
    QSettings().setValue(Key::state, state);
}

CanvasPalette palette()
{
    CanvasPalette p = CanvasPalette::defaults();
    QSettings settings;
    for (const auto& entry : CanvasPalette::entries()) {
        const QColor c(settings.value(Key::colours + QLatin1String(entry.key)).toString());
        if (c.isValid())
            p.*entry.member = c;
    }
    return p;
}

void setPalette(const CanvasPalette& p)
{
    QSettings settings;
    const CanvasPalette defaults = CanvasPalette::defaults();
    for (const auto& entry : CanvasPalette::entries()) {
        const QString key = Key::colours + QLatin1String(entry.key);
        // Only what differs from the defaults is stored, so that new defaults reach old users.
        if (p.*entry.member == defaults.*entry.member)
            settings.remove(key);
        else
            settings.setValue(key, (p.*entry.member).name());
    }
}

bool overviewVisible()
{
    return QSettings().value(Key::overview, true).toBool();
}

void setOverviewVisible(bool visible)
{
    QSettings().setValue(Key::overview, visible);
}

bool legendVisible()
{
    return QSettings().value(Key::legend, true).toBool();
}

void setLegendVisible(bool visible)
{
    QSettings().setValue(Key::legend, visible);
}

bool compareWithReference()
{
    return QSettings().value(Key::compare, true).toBool();
}

void setCompareWithReference(bool compare)
{
    QSettings().setValue(Key::compare, compare);
}

} // namespace remat::ui::Settings
