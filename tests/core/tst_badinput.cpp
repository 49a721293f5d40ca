// SPDX-License-Identifier: MIT
// Every broken input of tests/data/bad/ (listed in its MANIFEST.tsv with the message it must get),
// plus the ones too large to check in (a 1 GB file, a 2-million-node graph) made here.
#include "../bad_corpus_manifest.h"
#include "budget/device_profile.h"
#include "graph/error.h"
#include "io/file_text.h"
#include "io/graph_loader.h"
#include "io/plan_json.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace remat;
using remat::test::BadCase;
using remat::test::badCorpusManifest;
using remat::test::kBadDir;

namespace {

/// The reader's message for `path`, or "(accepted)" when it reads without complaint.
QString readerMessage(const QString& kind, const std::string& path)
{
    try {
        if (kind == QLatin1String("graph"))
            loadGraphFile(path);
        else if (kind == QLatin1String("plan") || kind == QLatin1String("plan-names"))
            readPlanFile(path);
        else if (kind == QLatin1String("devices"))
            readDeviceProfiles(path);
        else
            return QStringLiteral("(unknown kind ") + kind + QLatin1Char(')');
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(accepted)");
}

/// A joint graph of `count` nodes in a chain (cos of cos of ...), as compact JSON.
std::string chainGraph(int count)
{
    std::string text = R"({"format":"joint-graph","version":1,"kind":"forward","nodes":[)";
    text.reserve(static_cast<std::size_t>(count) * 110);
    const std::string val = R"(,"val":{"shape":[4],"dtype":"float32"}},)";
    text += R"({"name":"n0","op":"placeholder","target":"x")" + val;
    for (int i = 1; i < count; ++i) {
        text += R"({"name":"n)" + std::to_string(i)
            + R"(","op":"call_function","target":"aten.cos.default","args":[{"node":"n)"
            + std::to_string(i - 1) + "\"}]" + val;
    }
    text += R"({"name":"output","op":"output","args":[[{"node":"n)" + std::to_string(count - 1) + "\"}]]}]}";
    return text;
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private slots:
    void everyFileIsListed()
    {
        const QList<BadCase> cases = badCorpusManifest();
        QVERIFY2(cases.size() >= 80, qPrintable(QString::number(cases.size()) + QStringLiteral(" cases")));
        QStringList listed;
        for (const BadCase& c : cases)
            listed << c.file;
        const QStringList helpers {QStringLiteral("README.md"), QStringLiteral("MANIFEST.tsv"),
            QStringLiteral("make_bad_inputs.py")};
        for (const QString& name : QDir(kBadDir).entryList(QDir::Files)) {
            if (!helpers.contains(name))
                QVERIFY2(listed.contains(name), qPrintable(name + QStringLiteral(" is not in MANIFEST.tsv")));
        }
        QCOMPARE(QSet<QString>(listed.begin(), listed.end()).size(), listed.size());
    }

    void eachGetsItsOwnMessage_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pattern");
        for (const BadCase& c : badCorpusManifest()) {
            if (c.kind != QLatin1String("project")) // the app reads those: tests/gui/tst_badprojectfiles.cpp
                QTest::newRow(qPrintable(c.file)) << c.kind << c.file << c.pattern;
        }
    }

    void eachGetsItsOwnMessage()
    {
        QFETCH(QString, kind);
        QFETCH(QString, file);
        QFETCH(QString, pattern);
        const QString path = kBadDir + QLatin1Char('/') + file;
        QVERIFY2(QFile::exists(path), qPrintable(path + QStringLiteral(" is missing")));
        const QString message = readerMessage(kind, path.toStdString());
        if (kind == QLatin1String("plan-names")) {
            // Well-formed: only resolving its names against a graph finds the fault (cli_hardening).
            QCOMPARE(message, QStringLiteral("(accepted)"));
            return;
        }
        QVERIFY2(message.startsWith(path + QLatin1Char(':')), qPrintable(message)); // names the file
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message)); // one line
        const QRegularExpression expected(pattern);
        QVERIFY2(expected.isValid(), qPrintable(pattern));
        QVERIFY2(expected.match(message).hasMatch(),
            qPrintable(message + QStringLiteral("\n  expected: ") + pattern));
    }

    void aOneGigabyteFileIsRefusedUnread()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.json"));
        const int fd = ::open(qPrintable(path), O_CREAT | O_WRONLY, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, 1'000'000'000), 0); // sparse: costs no disk
        ::close(fd);
        QElapsedTimer timer;
        timer.start();
        const QString message = readerMessage(QStringLiteral("graph"), path.toStdString());
        QVERIFY2(message.contains(QStringLiteral("huge.json: cannot read: the file is 1000000000 bytes")),
            qPrintable(message));
        QVERIFY2(timer.elapsed() < 1000, "refused from its size, not after reading it");
        QCOMPARE(readerMessage(QStringLiteral("plan"), path.toStdString()), message);
    }

    void aGraphOfTwoMillionNodesLoads()
    {
        constexpr int kNodes = 2'000'000;
        const std::string text = chainGraph(kNodes);
        QElapsedTimer timer;
        timer.start();
        const JointGraph graph = loadGraphText(text, "chain.json");
        qInfo("2 000 000-node graph (%zu MB of JSON) loaded in %lld ms", text.size() >> 20, timer.elapsed());
        QCOMPARE(graph.size(), std::size_t(kNodes) + 1);
        QCOMPARE(graph.node(graph.find("n1999999")).users.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
