// SPDX-License-Identifier: MIT
#pragma once

#include <QDockWidget>
#include <QFutureWatcher>

#include <memory>

namespace remat::devices {
class DeviceSplitInput;
}

namespace remat::ui {

class DevicesPanel;
class GraphDocument;
class GraphScene;
class NodeSelection;

/// The "Devices" dock: splits the open graph's forward across devices (torch.fx's accelerator
/// partitioner) and, while the dock is on screen, colours the canvas by partition (groups show
/// their split); a refusal names its node and selects it.
class DevicesDock : public QDockWidget {
    Q_OBJECT
public:
    DevicesDock(
        GraphDocument* document, GraphScene* scene, NodeSelection* selection, QWidget* parent = nullptr);

    DevicesPanel* panel() const { return m_panel; }
    bool isBusy() const;

Q_SIGNALS:
    void message(const QString& text);

private:
    void loadInput();
    void applyColours();

    GraphDocument* m_document;
    GraphScene* m_scene;
    NodeSelection* m_selection;
    DevicesPanel* m_panel;
    /// What the loader thread hands back: it owns nothing of the dock, which may be gone by then.
    struct LoadedInput {
        std::shared_ptr<const devices::DeviceSplitInput> input;
        QString error;
    };
    QFutureWatcher<LoadedInput> m_loader;
    bool m_inputPending = false; ///< until the loader's result is in the panel (see isBusy)
    bool m_loadedForGraph = false;
    bool m_shown = false; ///< on screen: the current tab of its dock area, or alone
    std::vector<int> m_partitionOfNode;
};

} // namespace remat::ui
