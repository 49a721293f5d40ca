// SPDX-License-Identifier: MIT
// The layout cache on disk is never trusted: damaged, foreign or mismatched files are ignored
// with a note (and removed), sound ones come back whatever their edge lengths.
#include "gui_test_support.h"
#include "layout/layout_cache.h"
#include "layout/layout_check.h"

#include <QDataStream>
#include <QTest>

#include <limits>

using namespace remat::ui;

namespace {

/// Three boxes in a chain, laid out by hand (no Graphviz needed to test the cache).
LayoutRequest chainRequest(double width = 100)
{
    LayoutRequest request;
    request.boxes = {{width, 40, -1}, {width, 40, -1}, {width, 40, -1}};
    request.links = {{0, 1, EdgeRole::Down}, {1, 2, EdgeRole::Down}};
    return request;
}

LayoutResult chainLayout(const LayoutRequest& request, int curvePoints = 4)
{
    LayoutResult layout;
    for (std::size_t i = 0; i < request.boxes.size(); ++i)
        layout.boxes.emplace_back(
            0, 80.0 * static_cast<double>(i), request.boxes[i].width, request.boxes[i].height);
    for (const LayoutLink& link : request.links) {
        EdgeGeometry e;
        const QPointF a = layout.boxes[static_cast<std::size_t>(link.from)].center();
        const QPointF b = layout.boxes[static_cast<std::size_t>(link.to)].center();
        for (int k = 0; k < curvePoints; ++k)
            e.curve.push_back(a + (b - a) * k / (curvePoints - 1));
        e.arrowTip = b;
        layout.edges.push_back(e);
    }
    layout.bounds = QRectF(0, 0, 200, 240);
    layout.engine = QStringLiteral("by hand");
    return layout;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

} // namespace

class TestLayoutCache : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate(); }

    void soundFileComesBackWithLongEdges()
    {
        QTemporaryDir dir;
        const LayoutRequest request = chainRequest();
        // The old cache refused edges over 10 000 points, so big layouts were never reused.
        const LayoutResult layout = chainLayout(request, 3 * 20'000 + 1);
        LayoutCache(dir.path()).store(request, layout);
        QString note;
        const auto back = LayoutCache(dir.path()).find(request, &note);
        QVERIFY2(back, qPrintable(note));
        QVERIFY(note.isEmpty());
        QVERIFY(back->fromCache);
        QCOMPARE(back->boxes, layout.boxes);
        QCOMPARE(back->edges[1].curve, layout.edges[1].curve);
        QCOMPARE(back->engine, layout.engine);
    }

    void damagedFilesAreIgnoredWithANote_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("expected");
        QTest::addRow("empty") << "empty"
                               << "not a layout cache file";
        QTest::addRow("truncated header") << "truncate:10"
                                          << "truncated";
        QTest::addRow("truncated payload") << "truncate:-7"
                                           << "truncated";
        QTest::addRow("flipped byte") << "flip"
                                      << "checksum";
        QTest::addRow("other version") << "version"
                                       << "cache version";
        QTest::addRow("foreign graph") << "foreign"
                                       << "another graph";
        QTest::addRow("too few boxes") << "fewer boxes"
                                       << "2 boxes where the graph shows 3";
        QTest::addRow("too few edges") << "fewer edges"
                                       << "1 edges where the graph shows 2";
        QTest::addRow("boxes of another size") << "resized"
                                               << "box 1 is";
        QTest::addRow("not finite") << "nan"
                                    << "not finite";
        QTest::addRow("broken curve") << "short curve"
                                      << "curve points";
    }

    void damagedFilesAreIgnoredWithANote()
    {
        QFETCH(QString, damage);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const LayoutRequest request = chainRequest();
        LayoutResult layout = chainLayout(request);
        if (damage == QLatin1String("fewer boxes"))
            layout.boxes.pop_back();
        else if (damage == QLatin1String("fewer edges"))
            layout.edges.pop_back();
        else if (damage == QLatin1String("resized"))
            layout.boxes[1].setWidth(130);
        else if (damage == QLatin1String("nan"))
            layout.edges[0].curve[2].setY(std::numeric_limits<double>::quiet_NaN());
        else if (damage == QLatin1String("short curve"))
            layout.edges[1].curve.resize(2);

        const QString path = LayoutCache(dir.path()).fileFor(request.fingerprint());
        if (damage == QLatin1String("foreign")) {
            // Another graph's file under this graph's name (copied caches, a hash collision).
            const LayoutRequest other = chainRequest(120);
            LayoutCache(dir.path()).store(other, chainLayout(other));
            QVERIFY(QFile::rename(LayoutCache(dir.path()).fileFor(other.fingerprint()), path));
        } else {
            LayoutCache(dir.path()).store(request, layout);
        }
        QByteArray bytes = readAll(path);
        QVERIFY(!bytes.isEmpty());
        if (damage == QLatin1String("empty")) {
            bytes.clear();
        } else if (damage.startsWith(QLatin1String("truncate:"))) {
            const int n = damage.mid(9).toInt();
            bytes = n > 0 ? bytes.left(n) : bytes.chopped(-n);
        } else if (damage == QLatin1String("flip")) {
            bytes[bytes.size() - 20] = static_cast<char>(bytes[bytes.size() - 20] ^ 0x40);
        } else if (damage == QLatin1String("version")) {
            bytes[7] = static_cast<char>(bytes[7] + 1); // the version follows the 4-byte magic
        }
        writeAll(path, bytes);

        QString note;
        QVERIFY(!LayoutCache(dir.path()).find(request, &note));
        QVERIFY2(note.contains(expected), qPrintable(note));
        QVERIFY2(note.contains(path), "the note names the file");
        QVERIFY2(!QFile::exists(path), "a rejected file is removed so that the fresh layout replaces it");
    }

    void hugeCountsAreRefusedWithoutAllocating()
    {
        // A payload claiming 2^32-1 boxes in a few bytes: rejected before any resize.
        QByteArray payload = chainLayout(chainRequest()).serialize();
        QByteArray forged;
        QDataStream out(&forged, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out.writeRawData(payload.constData(), 4); // the format number
        out << QStringLiteral("x") << QRectF(0, 0, 1, 1) << quint32(0xffffffff);
        LayoutResult result;
        QString error;
        QVERIFY(!LayoutResult::deserialize(forged, result, &error));
        QVERIFY2(error.contains(QLatin1String("truncated in the boxes")), qPrintable(error));
        QVERIFY(result.boxes.empty());
    }

    void trailingBytesAreRefused()
    {
        QByteArray payload = chainLayout(chainRequest()).serialize();
        payload.append("junk");
        LayoutResult result;
        QString error;
        QVERIFY(!LayoutResult::deserialize(payload, result, &error));
        QVERIFY2(error.contains(QLatin1String("unknown data")), qPrintable(error));
    }

    void damagedRequestsAreRefused_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("expected");
        QTest::addRow("link out of range") << "link"
                                           << "a link refers to box 1 -> 9 of 3";
        QTest::addRow("box in a missing frame") << "box frame"
                                                << "box 1 is in frame 4 of 2";
        QTest::addRow("frames in a cycle") << "cycle"
                                           << "frames are nested in a cycle";
        QTest::addRow("parent out of range") << "parent"
                                             << "a frame's parent 5 is not one of the 2 frames";
        QTest::addRow("truncated") << "truncate"
                                   << "truncated";
        QTest::addRow("other format") << "format"
                                      << "request format";
    }

    void damagedRequestsAreRefused()
    {
        // What the layout worker reads on stdin: checked before Graphviz indexes anything.
        QFETCH(QString, damage);
        QFETCH(QString, expected);
        LayoutRequest request = chainRequest();
        request.clusters = {{-1, 24, true}, {0, 24, true}};
        if (damage == QLatin1String("link"))
            request.links[1].to = 9;
        else if (damage == QLatin1String("box frame"))
            request.boxes[1].cluster = 4;
        else if (damage == QLatin1String("cycle"))
            request.clusters[0].parent = 1;
        else if (damage == QLatin1String("parent"))
            request.clusters[1].parent = 5;
        QByteArray bytes = request.serialize();
        if (damage == QLatin1String("truncate"))
            bytes.chop(5);
        else if (damage == QLatin1String("format"))
            bytes[3] = static_cast<char>(bytes[3] + 1);
        LayoutRequest back;
        QString error;
        QVERIFY(!LayoutRequest::deserialize(bytes, back, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void requestRoundTrips()
    {
        LayoutRequest request = chainRequest();
        request.clusters = {{-1, 24, true}, {0, 0, false}};
        request.boxes[2].cluster = 1;
        LayoutRequest back;
        QVERIFY(LayoutRequest::deserialize(request.serialize(), back));
        QCOMPARE(back.fingerprint(), request.fingerprint());
    }

    void mismatchIsEmptyForAFittingLayout()
    {
        const LayoutRequest request = chainRequest();
        QCOMPARE(layoutMismatch(request, chainLayout(request)), QString());
    }
};

QTEST_MAIN(TestLayoutCache)
#include "tst_layoutcache.moc"
