// SPDX-License-Identifier: MIT
// Shared by the GUI tests that drive a whole main window.
#pragma once

#include "canvas/canvas_items.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "panels/partition_panel.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QImage>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTest>

namespace remat::ui::test {

/// Background work (open, layout, partition) may take a while on a loaded 2-core machine.
constexpr int kTimeoutMs = 60'000;

/// Nothing running, a graph open, a partition shown.
inline bool idle(const MainWindow& w)
{
    return !w.isBusy() && w.document()->graph() && w.document()->outcome()
        && w.canvas()->scene()->hasContent();
}

/// Opens `path` in a window as the tests drive it (no dialogs; shown, at `size` if given) and waits
/// until it is idle. False if it never got there.
[[nodiscard]] inline bool openAndWait(MainWindow& w, const QString& path, QSize size = {})
{
    w.setInteractive(false);
    if (size.isValid())
        w.resize(size);
    w.show();
    w.openFile(path);
    return QTest::qWaitFor([&w] { return idle(w); }, kTimeoutMs);
}

/// Picks "memory budget" in the partition panel's partitioner box, as a user would. False if the
/// box has no such entry.
[[nodiscard]] inline bool chooseBudgetPartitioner(MainWindow& w)
{
    QComboBox* box = w.partitionPanel()->partitionerBox();
    const int index = box->findData(QStringLiteral("budget"));
    if (index < 0)
        return false;
    box->setCurrentIndex(index);
    return true;
}

/// A computed value the current plan saves (the first in its list), or kNoNode.
inline NodeId savedComputation(const MainWindow& w)
{
    const auto& graph = w.document()->graph()->graph;
    for (NodeId n : w.document()->outcome()->result->savedValues) {
        if (graph.node(n).op == NodeOp::CallFunction)
            return n;
    }
    return kNoNode;
}

/// What a node's box looks like right now, to compare before and after a change.
inline QImage renderBox(GraphScene* scene, NodeId n)
{
    BoxItem* box = scene->boxForNode(n);
    QImage image(box->boundingRect().size().toSize() * 2, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.scale(2, 2);
    painter.translate(-box->boundingRect().topLeft());
    QStyleOptionGraphicsItem option;
    box->paint(&painter, &option, nullptr);
    return image;
}

} // namespace remat::ui::test
