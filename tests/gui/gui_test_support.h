// SPDX-License-Identifier: MIT
// Shared by the GUI tests: isolated settings and data folders, and copies of samples in a
// temporary folder so that project files never land beside the checked-in samples.
#pragma once

#include "resources.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTextDocument>

namespace remat::ui::test {

inline void isolate()
{
    QStandardPaths::setTestModeEnabled(true);
    initResources();
}

inline QString samplePath(const char* name)
{
    return QStringLiteral(REMAT_SOURCE_DIR "/samples/") + QLatin1String(name);
}

inline QString oraclePath(const char* name)
{
    return QStringLiteral(REMAT_SHARED_DIR "/oracle/") + QLatin1String(name);
}

/// A copy of `source` in `dir` (autosave then writes its project file there, not beside the source).
inline QString copyInto(const QTemporaryDir& dir, const QString& source)
{
    const QString target = dir.filePath(QFileInfo(source).fileName());
    QFile::remove(target);
    QFile::copy(source, target);
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    return target;
}

/// The whole file, or nothing when it cannot be read.
inline QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Copies a sample into `dir` and returns the copy's path.
inline QString copySample(const QTemporaryDir& dir, const char* name)
{
    return copyInto(dir, samplePath(name));
}

/// A label's text as it reads on screen: rich text rendered (entities, tags), plain text as is,
/// decided as QLabel decides.
inline QString shownText(const QLabel* label)
{
    const bool rich = label->textFormat() == Qt::RichText
        || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
    if (!rich)
        return label->text();
    QTextDocument document;
    document.setHtml(label->text());
    return document.toPlainText();
}

} // namespace remat::ui::test
