// SPDX-License-Identifier: MIT
#pragma once

#include "document/trace_graph_chooser.h"
#include "layout/layout_service.h"

#include <QMainWindow>

#include <optional>

class QAction;
class QLabel;
class QMenu;

namespace remat::ui {

class ExportActions;
class GraphCanvas;
class GraphDocument;
class GraphOpener;
class NodeInspector;
class NodeSelection;
class ComparePanel;
class DevicesDock;
class ParetoPanel;
class PlanAnalyst;
class PartitionPanel;
class TeachingWindow;
class TimelinePanel;
class TagActions;

/// The main window: canvas in the middle, partition panel and inspector in docks; opening
/// files (dialog, recent files, drag and drop), tagging with undo, find, zoom, settings.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// The sample opened when the app starts without a file.
    static QString bundledSamplePath();

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a graph (off the GUI thread); failures show the core's message in a dialog when
    /// interactive, and are always reported through openFailed. `traceGraph` picks one of a
    /// TORCH_TRACE log's compiled graphs by its compile id; empty, the window asks if it must.
    void openFile(const QString& path, const QString& traceGraph = QString());
    /// Headless runs (screenshots, tests): no dialogs, no project files written.
    void setInteractive(bool interactive);

    GraphDocument* document() const { return m_document; }
    NodeSelection* selection() const { return m_selection; }
    GraphCanvas* canvas() const { return m_canvas; }
    PartitionPanel* partitionPanel() const { return m_partitionPanel; }
    NodeInspector* inspector() const { return m_inspector; }
    ParetoPanel* paretoPanel() const { return m_paretoPanel; }
    TimelinePanel* timelinePanel() const { return m_timelinePanel; }
    ComparePanel* comparePanel() const { return m_comparePanel; }
    DevicesDock* devicesDock() const { return m_devicesDock; }
    GraphOpener* opener() const { return m_opener; }
    TagActions* tagActions() const { return m_tagActions; }
    ExportActions* exportActions() const { return m_exportActions; }
    /// Opening, laying out or partitioning is in progress.
    bool isBusy() const;

    /// Tags (or clears) the selected nodes and every node of the selected groups.
    void tagSelection(std::optional<CheckpointPolicy> policy);
    /// Runs the find: selects and centres on the next (or previous) match.
    void findNext(bool backwards);
    /// Opens the teaching view on the selection (nodes and the members of selected groups), or on
    /// the whole graph when nothing is selected.
    TeachingWindow* showTeaching();

Q_SIGNALS:
    void graphOpened();
    void openFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createDocks();
    void createStatusBar();
    void connectDocument();
    void onOpened();
    void onOpenFailed(const QString& path, const QString& message);
    void chooseTracedGraph(const QString& path, const QList<TracedGraphChoice>& choices);
    void updateRecentMenu();
    /// Opens a file from the recent list; one that is gone leaves the list.
    void openRecentFile(const QString& path);
    void updateActions();
    void updateTitle();
    void showContextMenu(const QPoint& globalPos);
    void showOpenDialog();
    void showGraphProperties();
    void showPreferences();
    void showShortcuts();
    void onFindTextChanged(const QString& text);
    void onPictureReady(const CanvasTimings& timings);

    GraphDocument* m_document;
    NodeSelection* m_selection;
    GraphOpener* m_opener;
    GraphCanvas* m_canvas;
    PartitionPanel* m_partitionPanel = nullptr;
    NodeInspector* m_inspector = nullptr;
    ParetoPanel* m_paretoPanel = nullptr;
    TimelinePanel* m_timelinePanel = nullptr;
    ComparePanel* m_comparePanel = nullptr;
    DevicesDock* m_devicesDock = nullptr;
    PlanAnalyst* m_analyst = nullptr;
    TagActions* m_tagActions = nullptr;
    ExportActions* m_exportActions = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_graphLabel = nullptr;
    /// The status bar says the open graph was collapsed into groups (cleared once all are expanded).
    bool m_collapsedNotice = false;
    QLabel* m_zoomLabel = nullptr;
    QLabel* m_timingLabel = nullptr;
    bool m_interactive = true;
    QString m_openingPath;

    std::vector<NodeId> m_matches;
    int m_matchIndex = -1;

    QAction* m_openAction = nullptr;
    QAction* m_sampleAction = nullptr;
    QAction* m_openTraceFolderAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_findAction = nullptr;
    QAction* m_findNextAction = nullptr;
    QAction* m_findPreviousAction = nullptr;
    QAction* m_propertiesAction = nullptr;
    QAction* m_preferencesAction = nullptr;
    QAction* m_zoomInAction = nullptr;
    QAction* m_zoomOutAction = nullptr;
    QAction* m_fitAction = nullptr;
    QAction* m_actualSizeAction = nullptr;
    QAction* m_expandAllAction = nullptr;
    QAction* m_collapseAllAction = nullptr;
    QAction* m_expandSelectedAction = nullptr;
    QAction* m_collapseSelectedAction = nullptr;
    QAction* m_overviewAction = nullptr;
    QAction* m_legendAction = nullptr;
    QAction* m_compareAction = nullptr;
    QAction* m_selectProducersAction = nullptr;
    QAction* m_selectConsumersAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    QAction* m_teachAction = nullptr;
    QAction* m_guideAction = nullptr;
    QAction* m_aboutAction = nullptr;
};

} // namespace remat::ui
