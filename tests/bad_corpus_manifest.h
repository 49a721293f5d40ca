// SPDX-License-Identifier: MIT
// tests/data/bad/MANIFEST.tsv, read once for the tests that go through the bad corpus (engine,
// app dialogs, project files): one row per broken file, kind<TAB>file<TAB>regex of its message.
#pragma once

#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

namespace remat::test {

inline const QString kBadDir = QStringLiteral(REMAT_TEST_DATA_DIR "/bad");

struct BadCase {
    QString kind; ///< graph, plan, plan-names (checked against a graph by the CLI test), devices, project
    QString file;
    QString pattern;
};

/// Every row; a missing manifest or a malformed row stops the test (qFatal), never an empty list.
inline QList<BadCase> badCorpusManifest()
{
    QFile file(kBadDir + QStringLiteral("/MANIFEST.tsv"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    QList<BadCase> cases;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList fields = line.split(QLatin1Char('\t'));
        if (fields.size() != 3)
            qFatal("MANIFEST.tsv: expected kind<TAB>file<TAB>regex: %s", qPrintable(line));
        cases.push_back({fields[0], fields[1], fields[2]});
    }
    return cases;
}

/// The rows of one kind.
inline QList<BadCase> badCorpusManifest(const QString& kind)
{
    QList<BadCase> rows;
    for (const BadCase& c : badCorpusManifest())
        if (c.kind == kind)
            rows.push_back(c);
    return rows;
}

} // namespace remat::test
