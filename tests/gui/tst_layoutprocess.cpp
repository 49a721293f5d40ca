// SPDX-License-Identifier: MIT
// Graphviz in a worker child: the same layout as in process, clear failures, and Cancel, a newer
// request and destroying the service all kill a long layout at once. This test binary is its
// own layout worker, as the app is (see main() below).
#include "canvas/graph_scene.h"
#include "gui_test_support.h"
#include "io/graph_loader.h"
#include "layout/graphviz_layout.h"
#include "layout/layout_process.h"
#include "layout/layout_service.h"
#include "layout/layout_worker.h"
#include "layout/view_graph.h"

#include <QApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <unistd.h>

using namespace remat;
using namespace remat::ui;

namespace {

LoadedGraphPtr load(const QString& path)
{
    if (!QFile::exists(path))
        qFatal("test data missing: %s", qPrintable(path));
    return analyseGraph(loadGraphFile(path.toStdString()), path);
}

std::vector<char> allExpanded(const LoadedGraph& graph)
{
    return std::vector<char>(graph.groups.groups.size(), 1);
}

/// Our children still alive (or not yet reaped): none may be left behind by a cancel.
int childProcesses()
{
    int count = 0;
    const QString me = QString::number(getpid());
    for (QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot); it.hasNext();) {
        QFile stat(it.next() + QStringLiteral("/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // pid (comm) state ppid ...: the parent is the second field after the command's ')'.
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1] == me.toLatin1())
            ++count;
    }
    return count;
}

/// Waits until the service reports that Graphviz is running for `ticket`.
bool waitForGraphviz(QSignalSpy& stages, quint64 ticket, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        for (const QList<QVariant>& s : stages) {
            if (s[0].toULongLong() == ticket && s[1].toString().contains(QLatin1String("Graphviz")))
                return true;
        }
        stages.wait(100);
    }
    return false;
}

/// gpt_n96 with every group expanded, laid out as one dot graph: minutes of Graphviz.
LayoutRequest longRequest()
{
    const LoadedGraphPtr big = load(test::oraclePath("gpt_n96.json"));
    return layoutRequestFor(*big, buildViewGraph(*big, allExpanded(*big)));
}

} // namespace

class TestLayoutProcess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolate();
        QVERIFY2(!layoutWorkerProgram().isEmpty(), "this binary serves the worker switch");
        QCOMPARE(layoutWorkerProgram(), QCoreApplication::applicationFilePath());
    }

    void childLaysOutAsInProcess()
    {
        const LoadedGraphPtr graph = load(test::samplePath("mlp.json"));
        const LayoutRequest request = layoutRequestFor(*graph, buildViewGraph(*graph, {}));
        const auto fromChild
            = layoutInChildren(layoutWorkerProgram(), {request, request}, 2, [] { return false; });
        QVERIFY(fromChild);
        QCOMPARE(fromChild->size(), std::size_t(2));
        const LayoutResult here = layoutWithGraphviz(request);
        for (const LayoutResult& child : *fromChild) {
            QCOMPARE(child.boxes, here.boxes);
            QCOMPARE(child.edges.size(), here.edges.size());
            QCOMPARE(child.edges.back().curve, here.edges.back().curve);
            QCOMPARE(child.engine, here.engine);
        }
    }

    void workerRefusesABadRequest()
    {
        QProcess worker;
        worker.start(layoutWorkerProgram(), {QString::fromLatin1(kLayoutWorkerSwitch)});
        LayoutRequest request;
        request.boxes = {{10, 10, -1}};
        request.links = {{0, 0, EdgeRole::Down}};
        QByteArray bytes = request.serialize();
        bytes[bytes.size() - 6] = 7; // the link's target: box 7 of 1 (the last 4 bytes count frames)
        worker.write(bytes);
        worker.closeWriteChannel();
        QVERIFY(worker.waitForFinished(10000));
        QCOMPARE(worker.exitCode(), 1);
        const QString err = QString::fromLocal8Bit(worker.readAllStandardError());
        QVERIFY2(err.contains(QLatin1String("bad request")) && err.contains(QLatin1String("box 0 -> 7 of 1")),
            qPrintable(err));
    }

    void missingWorkerFailsClearly()
    {
        LayoutRequest request;
        request.boxes = {{10, 10, -1}};
        try {
            layoutInChildren(
                QStringLiteral("/nonexistent/remat-explorer"), {request}, 1, [] { return false; });
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            QVERIFY2(
                QString::fromUtf8(e.what()).contains(QLatin1String("/nonexistent/remat-explorer")), e.what());
        }
    }

    void cancelKillsTheChildAtOnce()
    {
        const LayoutRequest request = longRequest();
        QElapsedTimer clock;
        clock.start();
        qint64 cancelledAt = -1;
        const auto result = layoutInChildren(layoutWorkerProgram(), {request}, 1, [&] {
            // Give the child time to read the request and get into Graphviz first.
            if (clock.elapsed() < 1500)
                return false;
            if (cancelledAt < 0)
                cancelledAt = clock.elapsed();
            return true;
        });
        QVERIFY(!result);
        const qint64 afterCancel = clock.elapsed() - cancelledAt;
        qInfo("cancelled a %zu-box layout %lld ms after asking", request.boxes.size(), afterCancel);
        QVERIFY2(afterCancel < 1000, "the child is killed, not waited for");
        QCOMPARE(childProcesses(), 0);
    }

    void serviceCancelThenSmallLayoutIsPrompt()
    {
        const LoadedGraphPtr big = load(test::oraclePath("gpt_n96.json"));
        const LoadedGraphPtr small = load(test::samplePath("mlp.json"));
        GraphScene scene;
        LayoutService service;
        service.setComposeBlocks(false); // one long Graphviz run (minutes) to cancel
        QSignalSpy stages(&service, &LayoutService::stageChanged);
        QSignalSpy ready(&service, &LayoutService::contentReady);
        QSignalSpy failed(&service, &LayoutService::failed);
        const quint64 bigTicket = service.request(big, allExpanded(*big), scene.statePointer());
        QVERIFY2(waitForGraphviz(stages, bigTicket, 60000), "the big layout reached Graphviz");
        service.cancel();
        QElapsedTimer clock;
        clock.start();
        const quint64 smallTicket = service.request(small, {}, scene.statePointer());
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 10000);
        qInfo("a 49-node layout after cancelling gpt_n96: %lld ms", clock.elapsed());
        QCOMPARE(ready.size(), 1);
        QCOMPARE(ready[0][0].toULongLong(), smallTicket);
        QVERIFY(failed.isEmpty());
        QVERIFY2(clock.elapsed() < 5000, "the small layout did not wait for the big one");
        QTRY_COMPARE_WITH_TIMEOUT(childProcesses(), 0, 2000);
    }

    void newerRequestSupersedesAndKills()
    {
        const LoadedGraphPtr big = load(test::oraclePath("gpt_n96.json"));
        const LoadedGraphPtr small = load(test::samplePath("mlp.json"));
        GraphScene scene;
        LayoutService service;
        service.setComposeBlocks(false);
        QSignalSpy stages(&service, &LayoutService::stageChanged);
        QSignalSpy ready(&service, &LayoutService::contentReady);
        const quint64 bigTicket = service.request(big, allExpanded(*big), scene.statePointer());
        QVERIFY(waitForGraphviz(stages, bigTicket, 60000));
        QElapsedTimer clock;
        clock.start();
        const quint64 smallTicket = service.request(small, {}, scene.statePointer());
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 10000);
        QCOMPARE(ready[0][0].toULongLong(), smallTicket);
        QVERIFY(clock.elapsed() < 5000);
        QTRY_COMPARE_WITH_TIMEOUT(childProcesses(), 0, 2000);
        QVERIFY(!service.isBusy());
    }

    void destroyingTheServiceReturnsAtOnce()
    {
        const LoadedGraphPtr big = load(test::oraclePath("gpt_n96.json"));
        GraphScene scene;
        auto* service = new LayoutService;
        service->setComposeBlocks(false);
        QSignalSpy stages(service, &LayoutService::stageChanged);
        const quint64 ticket = service->request(big, allExpanded(*big), scene.statePointer());
        QVERIFY(waitForGraphviz(stages, ticket, 60000));
        QElapsedTimer clock;
        clock.start();
        delete service;
        qInfo("destroyed the service during a Graphviz run in %lld ms", clock.elapsed());
        QVERIFY2(clock.elapsed() < 1000, "no waiting for Graphviz");
        QCOMPARE(childProcesses(), 0);
    }
};

int main(int argc, char** argv)
{
    if (int code = 0; serveLayoutWorker(argc, argv, code))
        return code;
    QApplication app(argc, argv);
    TestLayoutProcess test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_layoutprocess.moc"
