// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"

#include <QByteArray>
#include <QStringList>

namespace remat::ui {

/// Typed access to the app's QSettings; every key is named here once. Changes are seen at once
/// and written to disk off the GUI thread.
namespace Settings {

/// Returns once every change made so far is on disk (before the app quits).
void flush();
/// Removes every setting, on disk too (tests).
void clearAll();

constexpr int kMaxRecentFiles = 10;
/// Bump when docks or toolbars change, so that an old saved layout is not applied.
constexpr int kWindowStateVersion = 2; // 2: the trade-off, timeline and compare docks

QStringList recentFiles();
void addRecentFile(const QString& path);
void removeRecentFile(const QString& path);

QString lastOpenFolder();
void setLastOpenFolder(const QString& folder);

QByteArray windowGeometry();
QByteArray windowState();
void setWindowGeometry(const QByteArray& geometry);
void setWindowState(const QByteArray& state);

CanvasPalette palette();
void setPalette(const CanvasPalette& palette);

bool overviewVisible();
void setOverviewVisible(bool visible);
bool legendVisible();
void setLegendVisible(bool visible);
bool compareWithReference();
void setCompareWithReference(bool compare);

} // namespace Settings

} // namespace remat::ui
