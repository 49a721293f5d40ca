// SPDX-License-Identifier: MIT
// The canvas legend shows every label whole: "banned from recompute (⊘)" lost its ")" in a column
// of fixed width, the ⊘ coming from a fallback font wider than the label's own font predicts.
#include "canvas/canvas_legend.h"

#include <QImage>

#include <QTest>
#include <algorithm>

using namespace remat::ui;

namespace {

/// The rightmost column in [from, to) of `box`'s rows with a pixel darker than the background, or -1.
int rightmostInk(const QImage& image, const QRect& box, int from, int to)
{
    for (int x = std::min(to, image.width()) - 1; x >= std::max(from, 0); --x) {
        for (int y = box.top(); y <= box.bottom(); ++y) {
            if (qGray(image.pixel(x, y)) < 160)
                return x;
        }
    }
    return -1;
}

/// Whether any pixel in the columns [from, to) of `box` is darker than the legend's background.
bool hasInk(const QImage& image, const QRect& box, int from, int to)
{
    for (int x = std::max(from, 0); x < std::min(to, image.width()); ++x) {
        for (int y = box.top(); y <= box.bottom(); ++y) {
            if (qGray(image.pixel(x, y)) < 160)
                return true;
        }
    }
    return false;
}

} // namespace

class TestCanvasLegend : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLabelIsDrawnWhole()
    {
        CanvasLegend legend;
        legend.setReferenceMarks(true); // every label there is
        QVERIFY(!legend.isFolded());
        legend.resize(legend.sizeHint());
        QImage image(legend.size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        legend.render(&image);
        QCOMPARE(legend.labelCount(), 14);
        QCOMPARE(legend.labelText(0), QStringLiteral("forward"));
        for (int i = 0; i < legend.labelCount(); ++i) {
            const QRect label = legend.labelRect(i);
            QVERIFY2(!label.isEmpty(), qPrintable(QString::number(i)));
            const QString what = QString::number(i) + ": " + legend.labelText(i);
            // Inside the frame, and drawn to the end of its measured width (a ")" cut in half
            // left ink two pixels short of it).
            QVERIFY2(legend.rect().adjusted(4, 2, -4, -2).contains(label), qPrintable(what));
            const int ink = rightmostInk(image, label, label.left(), label.right() + 3);
            QVERIFY2(ink >= label.right() - 1, qPrintable(what + " ends at " + QString::number(ink)));
            // Nothing beyond it up to the frame or the next column: no label runs into another.
            QVERIFY2(
                !hasInk(image, label, label.right() + 3, label.right() + 10), qPrintable(QString::number(i)));
        }
        // The two columns do not touch.
        QVERIFY(legend.labelRect(4).right() + 8 < legend.labelRect(6).left() - 20);
    }

    /// Comparing plans, the nodes are filled by which plan saves them; showing a device split, by
    /// the device partition that holds them: the first column says so, the marks stay.
    void theFillsColumnFollowsTheCanvas()
    {
        CanvasLegend legend;
        const int regionsWidth = legend.sizeHint().width();
        legend.setFills(CanvasLegend::Fills::Plans);
        QCOMPARE(legend.labelCount(), 10);
        QCOMPARE(legend.labelText(0), QStringLiteral("saved by plan A only"));
        QCOMPARE(legend.labelText(3), QStringLiteral("saved by neither"));
        QCOMPARE(legend.labelText(4), QStringLiteral("saved for backward (S)"));
        QVERIFY(legend.width() > regionsWidth); // "saved by plan B only" is longer than "unclaimed (bw-only)"
        legend.setFills(CanvasLegend::Fills::Devices, 3);
        QCOMPARE(legend.labelCount(), 9);
        QCOMPARE(legend.labelText(2), QStringLiteral("device partition 2"));
        legend.setFills(CanvasLegend::Fills::Devices, 12); // seven rows: six partitions and the rest
        QCOMPARE(legend.labelCount(), 13);
        QCOMPARE(legend.labelText(5), QStringLiteral("device partition 5"));
        QCOMPARE(legend.labelText(6), QStringLiteral("6 more (Devices dock)"));
        legend.setFills(CanvasLegend::Fills::Regions);
        QCOMPARE(legend.labelCount(), 12);
        QCOMPARE(legend.width(), regionsWidth);
    }

    /// The marks against PyTorch's recorded decision are keyed only while the canvas draws them
    /// (a file with a record for the plan's options): the dotted border and the yellow corner,
    /// in rows the legend has anyway, so that the picture fitted around it stays clear of it.
    void referenceMarksComeWithARecord()
    {
        CanvasLegend legend;
        const QSize size = legend.sizeHint();
        for (int i = 0; i < legend.labelCount(); ++i)
            QVERIFY(!legend.labelText(i).contains(QStringLiteral("PyTorch")));
        legend.setReferenceMarks(true);
        QCOMPARE(legend.labelCount(), 14);
        QCOMPARE(legend.labelText(9), QStringLiteral("only PyTorch saves it"));
        QCOMPARE(legend.labelText(13), QStringLiteral("PyTorch decided otherwise"));
        QCOMPARE(legend.labelRect(13).left(), legend.labelRect(5).left()); // under the regions
        QVERIFY(legend.labelRect(13).top() > legend.labelRect(5).top());
        QCOMPARE(legend.sizeHint().height(), size.height());
        legend.setFills(CanvasLegend::Fills::Devices, 12); // seven rows of partitions: the corner goes last
        QCOMPARE(legend.labelText(legend.labelCount() - 1), QStringLiteral("PyTorch decided otherwise"));
        legend.resize(legend.sizeHint());
        QVERIFY(legend.rect().contains(legend.labelRect(legend.labelCount() - 1)));
    }

    void aLargerFontWidensTheLegend()
    {
        CanvasLegend legend;
        const int before = legend.sizeHint().width();
        QFont wider = legend.font();
        wider.setStretch(QFont::ExtraExpanded);
        wider.setLetterSpacing(QFont::AbsoluteSpacing, 2);
        legend.setFont(wider);
        QVERIFY(legend.sizeHint().width() > before);
        QCOMPARE(legend.width(), legend.sizeHint().width());
    }

    void foldedHasNoLabels()
    {
        CanvasLegend legend;
        legend.setFolded(true);
        QVERIFY(legend.labelRect(0).isEmpty());
        QVERIFY(legend.sizeHint().width() < 100);
    }
};

QTEST_MAIN(TestCanvasLegend)
#include "tst_canvaslegend.moc"
