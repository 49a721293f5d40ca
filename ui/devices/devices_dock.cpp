// SPDX-License-Identifier: MIT
#include "devices/devices_dock.h"

#include "canvas/graph_scene.h"
#include "devices/device_split.h"
#include "devices/devices_panel.h"
#include "document/graph_document.h"
#include "document/node_selection.h"
#include "model/thread_handoff.h"
#include "window/window_geometry.h"

#include <QLabel>

namespace remat::ui {

DevicesDock::DevicesDock(
    GraphDocument* document, GraphScene* scene, NodeSelection* selection, QWidget* parent)
    : QDockWidget(tr("Devices"), parent)
    , m_document(document)
    , m_scene(scene)
    , m_selection(selection)
    , m_panel(new DevicesPanel(this))
{
    setObjectName(QStringLiteral("DevicesDock"));
    setWidget(scrollableWhenShort(m_panel)); // tabbed with the Partition dock: as short as it can be
    connect(m_document, &GraphDocument::graphChanged, this, [this] {
        m_loadedForGraph = false;
        m_partitionOfNode.clear();
        m_panel->setInput(nullptr);
        if (m_shown)
            loadInput();
    });
    // Not isVisible(): Qt keeps a tab that is not current "visible", only moved off screen.
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        m_shown = visible;
        if (visible && !m_loadedForGraph)
            loadInput();
        applyColours();
    });
    connect(&m_loader, &QFutureWatcher<LoadedInput>::finished, this, [this] {
        m_inputPending = false;
        const LoadedInput loaded = m_loader.result();
        if (!loaded.input) {
            m_panel->errorLabel()->setText(loaded.error);
            m_panel->errorLabel()->show();
            return;
        }
        m_panel->setInput(loaded.input);
    });
    connect(m_panel, &DevicesPanel::partitioned, this, [this](const QVector<int>& partitionOfNode) {
        m_partitionOfNode.assign(partitionOfNode.begin(), partitionOfNode.end());
        applyColours();
    });
    connect(m_panel, &DevicesPanel::failed, this, [this](const QString& text, int node) {
        m_partitionOfNode.clear();
        applyColours();
        if (node >= 0)
            m_selection->selectNode(node, NodeSelection::Origin::Program);
        Q_EMIT message(text);
    });
}

bool DevicesDock::isBusy() const
{
    // Not m_loader.isRunning(): that turns false before the finished signal has been delivered.
    return m_inputPending || m_panel->isBusy();
}

void DevicesDock::loadInput()
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    m_loadedForGraph = true;
    // The splitter reads the file itself (its own graph: call_module nodes, the modules table).
    const std::string path = graph->path.toStdString();
    const std::string traceGraph = graph->traceGraph.toStdString(); // the log's graph the canvas shows
    if (graph->path.startsWith(QLatin1Char(':'))) {
        const QString error = tr("The bundled sample cannot be split here: open a graph file (File > Open).");
        m_inputPending = true;
        m_loader.setFuture(runConcurrently([error] { return LoadedInput {nullptr, error}; }));
        return;
    }
    // Captures only values: closing the window while a big file loads must not touch a freed dock.
    m_inputPending = true;
    m_loader.setFuture(runConcurrently([path, traceGraph]() -> LoadedInput {
        try {
            return {std::make_shared<const devices::DeviceSplitInput>(path, traceGraph), {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromUtf8(e.what())};
        }
    }));
}

void DevicesDock::applyColours()
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph || !m_shown || m_partitionOfNode.size() != graph->size()) {
        if (m_scene->state().showingDevices())
            m_scene->setDevicePartitions({});
        return;
    }
    m_scene->setDevicePartitions(m_partitionOfNode);
}

} // namespace remat::ui
