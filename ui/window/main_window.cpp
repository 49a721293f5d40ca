// SPDX-License-Identifier: MIT
#include "window/main_window.h"

#include "analysis/plan_analyst.h"
#include "canvas/busy_overlay.h"
#include "canvas/empty_canvas.h"
#include "canvas/find_bar.h"
#include "canvas/graph_canvas.h"
#include "canvas/graph_scene.h"
#include "canvas/graph_view.h"
#include "devices/devices_dock.h"
#include "document/graph_document.h"
#include "document/graph_opener.h"
#include "document/node_selection.h"
#include "install/data_dir.h"
#include "model/node_finder.h"
#include "model/node_text.h"
#include "panels/compare_panel.h"
#include "panels/node_inspector.h"
#include "panels/pareto_panel.h"
#include "panels/partition_panel.h"
#include "panels/timeline_panel.h"
#include "teaching/teaching_window.h"
#include "window/export_actions.h"
#include "window/graph_properties_dialog.h"
#include "window/guide_window.h"
#include "window/preferences_dialog.h"
#include "window/settings.h"
#include "window/tag_actions.h"
#include "window/window_geometry.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <set>

namespace remat::ui {
namespace {

bool everyGroupExpanded(const GraphCanvas& canvas, const GroupTree& groups)
{
    for (std::size_t g = 0; g < groups.groups.size(); ++g) {
        if (!canvas.isExpanded(static_cast<int>(g)))
            return false;
    }
    return true;
}

QIcon themed(const char* name, QStyle::StandardPixmap fallback)
{
    return QIcon::fromTheme(QLatin1String(name), QApplication::style()->standardIcon(fallback));
}

} // namespace

QString MainWindow::bundledSamplePath()
{
    return QStringLiteral(":/samples/transformer_block.json");
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_document(new GraphDocument(this))
    , m_selection(new NodeSelection(this))
    , m_opener(new GraphOpener(this))
    , m_canvas(new GraphCanvas(m_document, m_selection, this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setCentralWidget(m_canvas);
    m_tagActions = new TagActions(this);
    resize(1500, 950); // first, so that the docks below are sized in the window's own width
    createActions();
    createDocks();
    createMenus();
    createToolBar();
    createStatusBar();
    connectDocument();

    const CanvasPalette palette = Settings::palette();
    m_canvas->scene()->setPalette(palette);
    m_tagActions->setPalette(palette);
    m_canvas->scene()->setCompareWithReference(Settings::compareWithReference());
    m_canvas->setOverviewVisible(Settings::overviewVisible());
    m_canvas->setLegendVisible(Settings::legendVisible());
    m_overviewAction->setChecked(Settings::overviewVisible());
    m_legendAction->setChecked(Settings::legendVisible());
    m_compareAction->setChecked(Settings::compareWithReference());

    if (const QByteArray geometry = Settings::windowGeometry(); !geometry.isEmpty())
        restoreGeometry(geometry);
    keepOnScreen(this); // saved on a larger screen, or the default size on a small one
    if (const QByteArray state = Settings::windowState(); !state.isEmpty())
        restoreState(state, Settings::kWindowStateVersion);
    updateActions();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::setInteractive(bool interactive)
{
    m_interactive = interactive;
    m_document->setAutosave(interactive);
}

bool MainWindow::isBusy() const
{
    return m_opener->isBusy() || m_canvas->hasPendingWork() || m_document->isPartitioning()
        || m_paretoPanel->sweeper()->isRunning() || m_timelinePanel->profiler()->isBusy()
        || m_analyst->isBusy() || (findChild<TeachingWindow*>() && findChild<TeachingWindow*>()->isBusy())
        || m_devicesDock->isBusy() || m_comparePanel->isPending();
}

// ---------------------------------------------------------------- construction

void MainWindow::createActions()
{
    m_openAction = new QAction(themed("document-open", QStyle::SP_DialogOpenButton), tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setToolTip(tr("Open a joint graph (JSON, or a graph PyTorch printed) (Ctrl+O)"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::showOpenDialog);

    m_openTraceFolderAction = new QAction(tr("Open &TORCH_TRACE Folder…"), this);
    m_openTraceFolderAction->setToolTip(tr("Open a folder that TORCH_TRACE=/dir filled with logs"));
    connect(m_openTraceFolderAction, &QAction::triggered, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(
            this, tr("Open a TORCH_TRACE Folder"), Settings::lastOpenFolder());
        if (!folder.isEmpty())
            openFile(folder);
    });

    m_sampleAction = new QAction(tr("Open &Bundled Sample"), this);
    connect(m_sampleAction, &QAction::triggered, this, [this] { openFile(bundledSamplePath()); });

    m_exportActions = new ExportActions(m_document, m_canvas->scene(), this);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_undoAction = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setIcon(themed("edit-undo", QStyle::SP_ArrowBack));
    m_redoAction = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    // QKeySequence::Redo is Ctrl+Shift+Z here; listing it twice made the shortcut ambiguous.
    m_redoAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redoAction->setIcon(themed("edit-redo", QStyle::SP_ArrowForward));

    m_findAction
        = new QAction(themed("edit-find", QStyle::SP_FileDialogContentsView), tr("&Find Node…"), this);
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setToolTip(tr("Find a node by name or op (Ctrl+F)"));
    connect(m_findAction, &QAction::triggered, this, [this] { m_canvas->findBar()->activate(); });
    m_findNextAction = new QAction(tr("Find &Next"), this);
    m_findNextAction->setShortcut(QKeySequence::FindNext);
    connect(m_findNextAction, &QAction::triggered, this, [this] { findNext(false); });
    m_findPreviousAction = new QAction(tr("Find Pre&vious"), this);
    m_findPreviousAction->setShortcut(QKeySequence::FindPrevious);
    connect(m_findPreviousAction, &QAction::triggered, this, [this] { findNext(true); });

    m_propertiesAction = new QAction(tr("Graph &Properties…"), this);
    m_propertiesAction->setObjectName(QStringLiteral("graphPropertiesAction"));
    m_propertiesAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Return));
    connect(m_propertiesAction, &QAction::triggered, this, &MainWindow::showGraphProperties);

    m_preferencesAction = new QAction(tr("&Colours…"), this);
    m_preferencesAction->setMenuRole(QAction::PreferencesRole);
    connect(m_preferencesAction, &QAction::triggered, this, &MainWindow::showPreferences);

    GraphView* view = m_canvas->view();
    m_zoomInAction = new QAction(themed("zoom-in", QStyle::SP_ArrowUp), tr("Zoom &In"), this);
    m_zoomInAction->setShortcuts(
        {QKeySequence::ZoomIn, QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)});
    connect(m_zoomInAction, &QAction::triggered, view, &GraphView::zoomIn);
    m_zoomOutAction = new QAction(themed("zoom-out", QStyle::SP_ArrowDown), tr("Zoom &Out"), this);
    m_zoomOutAction->setShortcuts({QKeySequence::ZoomOut, QKeySequence(Qt::Key_Minus)});
    connect(m_zoomOutAction, &QAction::triggered, view, &GraphView::zoomOut);
    m_fitAction
        = new QAction(themed("zoom-fit-best", QStyle::SP_TitleBarMaxButton), tr("&Fit to Window"), this);
    m_fitAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::Key_0)});
    connect(m_fitAction, &QAction::triggered, view, &GraphView::fitToWindow);
    m_actualSizeAction
        = new QAction(themed("zoom-original", QStyle::SP_TitleBarNormalButton), tr("&Actual Size"), this);
    m_actualSizeAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_1), QKeySequence(Qt::Key_1)});
    connect(m_actualSizeAction, &QAction::triggered, view, &GraphView::resetZoom);

    m_expandAllAction = new QAction(tr("E&xpand All Groups"), this);
    // Ctrl+Shift++ is Ctrl++ (Zoom In) on most keyboards: arrows, like Expand/Collapse Group.
    m_expandAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Right));
    connect(m_expandAllAction, &QAction::triggered, m_canvas, &GraphCanvas::expandAll);
    m_collapseAllAction = new QAction(tr("&Collapse All Groups"), this);
    m_collapseAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Left));
    connect(m_collapseAllAction, &QAction::triggered, m_canvas, &GraphCanvas::collapseAll);
    m_expandSelectedAction = new QAction(tr("Expand Group"), this);
    m_expandSelectedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Right));
    connect(m_expandSelectedAction, &QAction::triggered, this, [this] {
        for (int g : m_selection->groups())
            m_canvas->setExpanded(g, true);
    });
    m_collapseSelectedAction = new QAction(tr("Collapse Group"), this);
    m_collapseSelectedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Left));
    connect(m_collapseSelectedAction, &QAction::triggered, this, [this] {
        // The group of the selected node (or the selected group's parent) folds up.
        const LoadedGraphPtr graph = m_document->graph();
        if (!graph)
            return;
        int g = -1;
        if (m_selection->currentNode() != kNoNode)
            g = graph->groups.leafGroup(m_selection->currentNode());
        else if (m_selection->currentGroup() >= 0)
            g = graph->groups.group(m_selection->currentGroup()).parent;
        if (g >= 0)
            m_canvas->setExpanded(g, false);
    });

    m_overviewAction = new QAction(tr("&Overview Map"), this);
    m_overviewAction->setCheckable(true);
    m_overviewAction->setShortcut(QKeySequence(Qt::Key_M));
    connect(m_overviewAction, &QAction::toggled, this, [this](bool on) {
        m_canvas->setOverviewVisible(on);
        Settings::setOverviewVisible(on);
    });
    m_legendAction = new QAction(tr("&Legend"), this);
    m_legendAction->setCheckable(true);
    m_legendAction->setShortcut(QKeySequence(Qt::Key_L));
    connect(m_legendAction, &QAction::toggled, this, [this](bool on) {
        m_canvas->setLegendVisible(on);
        Settings::setLegendVisible(on);
    });
    m_compareAction = new QAction(tr("Mark &Differences from PyTorch"), this);
    m_compareAction->setCheckable(true);
    m_compareAction->setShortcut(QKeySequence(Qt::Key_D));
    m_compareAction->setToolTip(
        tr("Mark nodes where our saved set differs from the file's recorded PyTorch decision"));
    connect(m_compareAction, &QAction::toggled, this, [this](bool on) {
        m_canvas->scene()->setCompareWithReference(on);
        Settings::setCompareWithReference(on);
    });

    auto selectNeighbours = [this](bool producers) {
        const LoadedGraphPtr graph = m_document->graph();
        if (!graph)
            return;
        std::set<NodeId> result;
        for (NodeId n : m_selection->nodes()) {
            const Node& node = graph->graph.node(n);
            for (NodeId m : producers ? node.inputs : node.users) {
                if (graph->region(m) != Region::Output)
                    result.insert(m);
            }
        }
        m_selection->select(
            std::vector<NodeId>(result.begin(), result.end()), {}, NodeSelection::Origin::Program);
    };
    m_selectProducersAction = new QAction(tr("Select &Producers"), this);
    m_selectProducersAction->setShortcut(QKeySequence(Qt::Key_P));
    connect(
        m_selectProducersAction, &QAction::triggered, this, [selectNeighbours] { selectNeighbours(true); });
    m_selectConsumersAction = new QAction(tr("Select C&onsumers"), this);
    m_selectConsumersAction->setShortcut(QKeySequence(Qt::Key_U));
    connect(
        m_selectConsumersAction, &QAction::triggered, this, [selectNeighbours] { selectNeighbours(false); });

    m_teachAction = new QAction(tr("&Teach the Min-Cut…"), this);
    m_teachAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_teachAction->setToolTip(
        tr("Step through the flow network and its minimum cut, on this graph or on the selected region"));
    connect(m_teachAction, &QAction::triggered, this, [this] { showTeaching(); });

    m_guideAction = new QAction(tr("Remat Explorer &Guide"), this);
    m_guideAction->setShortcut(QKeySequence::HelpContents);
    connect(m_guideAction, &QAction::triggered, this, [this] { showGuideTopic(this, QString()); });

    m_shortcutsAction = new QAction(tr("&Keyboard Shortcuts"), this);
    connect(m_shortcutsAction, &QAction::triggered, this, &MainWindow::showShortcuts);
    m_aboutAction = new QAction(tr("&About Remat Explorer"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Remat Explorer"),
            tr("<h3>Remat Explorer %1</h3><p>Explore PyTorch activation checkpointing: open an AOTAutograd "
               "joint graph, tag nodes, and watch the partitioner's decision change.</p>")
                .arg(QApplication::applicationVersion()));
    });

    connect(m_tagActions, &TagActions::tagRequested, this, &MainWindow::tagSelection);
    // Window-wide shortcuts also work while the canvas has focus (single keys stay with text fields).
    for (QAction* a : {m_zoomInAction, m_zoomOutAction, m_fitAction, m_actualSizeAction,
             m_expandSelectedAction, m_collapseSelectedAction, m_overviewAction, m_legendAction,
             m_compareAction, m_selectProducersAction, m_selectConsumersAction})
        addAction(a);
    for (QAction* a : m_tagActions->actions())
        addAction(a);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    connect(m_canvas->emptyState(), &EmptyCanvas::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_canvas->emptyState(), &EmptyCanvas::recentRequested, this, &MainWindow::openRecentFile);
    m_canvas->emptyState()->setRecentFiles(Settings::recentFiles());
    file->addAction(m_openTraceFolderAction);
    file->addAction(m_sampleAction);
    file->addSeparator();
    file->addAction(m_propertiesAction);
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    m_exportActions->addTo(exportMenu);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    edit->addAction(m_findAction);
    edit->addAction(m_findNextAction);
    edit->addAction(m_findPreviousAction);
    edit->addSeparator();
    edit->addAction(m_selectProducersAction);
    edit->addAction(m_selectConsumersAction);
    edit->addSeparator();
    edit->addAction(m_preferencesAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(m_zoomInAction);
    m_viewMenu->addAction(m_zoomOutAction);
    m_viewMenu->addAction(m_fitAction);
    m_viewMenu->addAction(m_actualSizeAction);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_expandSelectedAction);
    m_viewMenu->addAction(m_collapseSelectedAction);
    m_viewMenu->addAction(m_expandAllAction);
    m_viewMenu->addAction(m_collapseAllAction);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_overviewAction);
    m_viewMenu->addAction(m_legendAction);
    m_viewMenu->addAction(m_compareAction);
    m_viewMenu->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu* tag = menuBar()->addMenu(tr("&Tag"));
    m_tagActions->addTo(tag);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_guideAction);
    help->addAction(m_teachAction);
    help->addSeparator();
    help->addAction(m_shortcutsAction);
    help->addAction(m_aboutAction);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("MainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_openAction);
    bar->addSeparator();
    // Undo and redo name the step in their text ("Undo Tag mm_3 MUST_SAVE"): icons only here.
    for (QAction* a : {m_undoAction, m_redoAction}) {
        auto* button = new QToolButton(bar);
        button->setDefaultAction(a);
        button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        button->setAutoRaise(true);
        bar->addWidget(button);
    }
    bar->addSeparator();
    bar->addAction(m_fitAction);
    bar->addAction(m_findAction);
    bar->addSeparator();
    for (QAction* a : m_tagActions->actions())
        bar->addAction(a);
}

void MainWindow::createDocks()
{
    // The Partition dock runs the window's full height (its tables are the tallest content), and
    // the plots take the width beside it.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    m_partitionPanel = new PartitionPanel(m_document, m_selection, this);
    auto* partitionDock = new QDockWidget(tr("Partition"), this);
    partitionDock->setObjectName(QStringLiteral("PartitionDock"));
    // The tallest dock: it scrolls rather than make the window taller than a 768-pixel screen.
    partitionDock->setWidget(scrollableWhenShort(m_partitionPanel));
    addDockWidget(Qt::LeftDockWidgetArea, partitionDock);

    // One analyst answers the inspector's what-ifs and the Compare dock (one prepared graph).
    m_analyst = new PlanAnalyst(this);
    connect(m_document, &GraphDocument::graphChanged, m_analyst,
        [this] { m_analyst->setGraph(m_document->graph()); });
    m_inspector = new NodeInspector(m_document, m_canvas->scene(), m_selection, m_analyst, this);
    auto* inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName(QStringLiteral("InspectorDock"));
    inspectorDock->setWidget(m_inspector);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
    resizeDocks({partitionDock, inspectorDock}, {390, 270}, Qt::Horizontal);

    // The pictures of a plan sit under the canvas, tabbed: what each budget buys, and where the
    // memory goes step by step.
    m_paretoPanel = new ParetoPanel(m_document, this);
    auto* paretoDock = new QDockWidget(tr("Budget Trade-off"), this);
    paretoDock->setObjectName(QStringLiteral("ParetoDock"));
    paretoDock->setWidget(m_paretoPanel);
    addDockWidget(Qt::BottomDockWidgetArea, paretoDock);
    m_timelinePanel = new TimelinePanel(m_document, m_selection, this);
    auto* timelineDock = new QDockWidget(tr("Memory Timeline"), this);
    timelineDock->setObjectName(QStringLiteral("TimelineDock"));
    timelineDock->setWidget(m_timelinePanel);
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock);
    tabifyDockWidget(paretoDock, timelineDock);
    paretoDock->raise();
    resizeDocks({paretoDock}, {300}, Qt::Vertical);
    m_comparePanel
        = new ComparePanel(m_document, m_canvas->scene(), m_selection, m_timelinePanel, m_analyst, this);
    auto* compareDock = new QDockWidget(tr("Compare Plans"), this);
    compareDock->setObjectName(QStringLiteral("CompareDock"));
    compareDock->setWidget(m_comparePanel);
    addDockWidget(Qt::RightDockWidgetArea, compareDock);
    tabifyDockWidget(inspectorDock, compareDock);
    inspectorDock->raise();
    connect(compareDock, &QDockWidget::visibilityChanged, m_comparePanel, &ComparePanel::setShown);

    // Splitting across devices is a partition of its own kind: tabbed with the Partition dock.
    m_devicesDock = new DevicesDock(m_document, m_canvas->scene(), m_selection, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_devicesDock);
    tabifyDockWidget(partitionDock, m_devicesDock);
    partitionDock->raise();

    auto showMessage = [this](const QString& message) { statusBar()->showMessage(message, 8000); };
    connect(m_devicesDock, &DevicesDock::message, this, showMessage);
    connect(m_paretoPanel, &ParetoPanel::exported, this, showMessage);
    connect(m_timelinePanel, &TimelinePanel::exported, this, showMessage);
}

void MainWindow::createStatusBar()
{
    m_graphLabel = new QLabel(this);
    m_timingLabel = new QLabel(this);
    m_zoomLabel = new QLabel(this);
    m_zoomLabel->setMinimumWidth(70);
    statusBar()->addPermanentWidget(m_timingLabel);
    statusBar()->addPermanentWidget(m_graphLabel);
    statusBar()->addPermanentWidget(m_zoomLabel);
    connect(m_canvas->view(), &GraphView::zoomChanged, this,
        [this](double z) { m_zoomLabel->setText(tr("%1 %").arg(qRound(z * 100))); });
    // A long message (a collapsed graph's, on a narrow window) is cut at the permanent labels:
    // hovering the bar shows it whole.
    connect(statusBar(), &QStatusBar::messageChanged, statusBar(), &QWidget::setToolTip);
}

void MainWindow::connectDocument()
{
    connect(m_opener, &GraphOpener::progress, this,
        [this](const QString& stage, int permille) { m_canvas->busyOverlay()->setStage(stage, permille); });
    connect(m_opener, &GraphOpener::opened, this, [this](LoadedGraphPtr graph) {
        m_document->setGraph(std::move(graph));
        onOpened();
    });
    connect(m_opener, &GraphOpener::failed, this, &MainWindow::onOpenFailed);
    connect(m_opener, &GraphOpener::choiceNeeded, this, &MainWindow::chooseTracedGraph);
    connect(m_opener, &GraphOpener::cancelled, this, [this] {
        m_canvas->busyOverlay()->finish();
        statusBar()->showMessage(tr("Opening cancelled"), 4000);
    });
    connect(m_canvas->busyOverlay(), &BusyOverlay::cancelRequested, m_opener, &GraphOpener::cancel);

    connect(m_canvas, &GraphCanvas::pictureReady, this, &MainWindow::onPictureReady);
    connect(m_canvas, &GraphCanvas::layoutFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Layout failed: %1").arg(message));
        if (m_interactive)
            QMessageBox::warning(this, tr("Layout failed"), message);
    });
    connect(m_canvas, &GraphCanvas::contextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_canvas->findBar(), &FindBar::searchChanged, this, &MainWindow::onFindTextChanged);
    connect(m_canvas->findBar(), &FindBar::nextRequested, this, [this] { findNext(false); });
    connect(m_canvas->findBar(), &FindBar::previousRequested, this, [this] { findNext(true); });
    connect(m_canvas->findBar(), &FindBar::closed, this, [this] { m_canvas->view()->setFocus(); });

    connect(m_selection, &NodeSelection::changed, this, &MainWindow::updateActions);
    connect(m_document, &GraphDocument::projectSaved, this, [this](const QString& path, bool tagsChanged) {
        statusBar()->showMessage(
            (tagsChanged ? tr("Tags saved to %1") : tr("Settings saved to %1")).arg(path), 3000);
    });
    connect(m_document, &GraphDocument::projectProblem, this,
        [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(m_document, &GraphDocument::partitionChanged, this, [this](PartitionOutcomePtr outcome) {
        if (outcome && !outcome->ok())
            // The reason (a file path and a sentence or two) is longer than the bar: the panel has it whole.
            statusBar()->showMessage(tr("The partitioner failed; the Partition panel says why."), 10000);
        m_exportActions->updateEnabled();
    });
    connect(m_exportActions, &ExportActions::exported, this,
        [this](const QString& message) { statusBar()->showMessage(message, 8000); });
}

// ---------------------------------------------------------------- opening

void MainWindow::openFile(const QString& path, const QString& traceGraph)
{
    m_openingPath = path;
    m_canvas->busyOverlay()->start(tr("Opening %1").arg(QFileInfo(path).fileName()));
    m_opener->open(path, traceGraph);
}

void MainWindow::onOpened()
{
    const LoadedGraphPtr graph = m_document->graph();
    m_selection->clear(NodeSelection::Origin::Program);
    m_matches.clear();
    m_matchIndex = -1;
    Settings::addRecentFile(graph->path);
    m_canvas->emptyState()->setRecentFiles(Settings::recentFiles());
    QStringList names;
    names.reserve(static_cast<qsizetype>(graph->size()));
    for (const NodeLabel& label : graph->labels)
        names << label.name;
    m_canvas->findBar()->setCompletions(names);
    m_canvas->showGraph();
    m_graphLabel->setText(tr("%1 nodes").arg(graph->size()));
    updateTitle();
    updateActions();
    const QString opened = tr("Opened %1 in %2 ms")
                               .arg(graph->displayName)
                               .arg((graph->loadSeconds + graph->analysisSeconds) * 1000, 0, 'f', 0);
    m_collapsedNotice = !graph->groups.empty() && graph->size() > GraphCanvas::kExpandedUpTo;
    if (m_collapsedNotice) {
        // Too many nodes to show one by one: say what was collapsed and how to open it.
        // Short enough for the bar of a 1280-pixel window beside its permanent fields; the rest
        // (why, how it grouped, how to open them all) is in the tooltip.
        const QString message
            = tr("%1: %2 nodes in %3 groups. Double-click a group to open it.")
                  .arg(opened, QString::number(graph->size()), QString::number(graph->groups.roots.size()));
        statusBar()->showMessage(message, 30000);
        statusBar()->setToolTip(tr("%1\nToo many nodes to show one by one: View > Expand All Groups opens "
                                   "them all.\nGrouped by %2")
                                    .arg(message, graph->groups.method));
    } else {
        statusBar()->showMessage(
            tr("%1 (%2)").arg(opened,
                graph->groups.empty() ? tr("shown whole") : tr("groups: %1").arg(graph->groups.method)),
            8000);
    }
    Q_EMIT graphOpened();
}

void MainWindow::onOpenFailed(const QString& path, const QString& message)
{
    m_canvas->busyOverlay()->finish();
    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
    Q_EMIT openFailed(message);
    if (m_interactive)
        QMessageBox::critical(this, tr("Cannot open the graph"), message);
}

void MainWindow::chooseTracedGraph(const QString& path, const QList<TracedGraphChoice>& choices)
{
    QStringList ids;
    for (const auto& c : choices)
        ids << c.id;
    if (!m_interactive) { // no one to ask: say what there is
        onOpenFailed(path,
            tr("%1: the log holds %2 joint graphs (%3): choose one with a compile id (--graph on the command "
               "line)")
                .arg(path)
                .arg(choices.size())
                .arg(ids.join(QLatin1String(", "))));
        return;
    }
    TraceGraphChooser chooser(path, choices, this);
    if (chooser.exec() != QDialog::Accepted) {
        m_canvas->busyOverlay()->finish();
        statusBar()->showMessage(tr("Opening cancelled"), 4000);
        return;
    }
    m_opener->open(path, chooser.chosenId());
}

void MainWindow::showOpenDialog()
{
    QString folder = Settings::lastOpenFolder();
    if (folder.isEmpty())
        folder = QString::fromStdString((dataDir() / "samples").string());
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a Joint Graph"), folder,
        tr("Joint graphs and TORCH_TRACE logs (*.json *.txt *.py *.log);;All files (*)"));
    if (path.isEmpty())
        return;
    Settings::setLastOpenFolder(QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openRecentFile(const QString& path)
{
    if (!QFileInfo::exists(path)) {
        Settings::removeRecentFile(path);
        m_canvas->emptyState()->setRecentFiles(Settings::recentFiles());
        onOpenFailed(path, tr("%1: the file no longer exists").arg(path));
        return;
    }
    openFile(path);
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = Settings::recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* a
            = m_recentMenu->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openRecentFile(path); });
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() && !event->mimeData()->urls().isEmpty()
        && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        openFile(urls.first().toLocalFile());
        event->acceptProposedAction();
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_document->endSession(); // saves, and the next open offers no recovery
    if (m_interactive) {
        Settings::setWindowGeometry(saveGeometry());
        Settings::setWindowState(saveState(Settings::kWindowStateVersion));
    }
    QMainWindow::closeEvent(event);
}

// ---------------------------------------------------------------- tagging, finding

void MainWindow::tagSelection(std::optional<CheckpointPolicy> policy)
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return;
    std::vector<NodeId> nodes = m_selection->nodes();
    for (int g : m_selection->groups()) {
        const auto& members = graph->groups.group(g).members;
        nodes.insert(nodes.end(), members.begin(), members.end());
    }
    if (nodes.empty()) {
        statusBar()->showMessage(tr("Select a node (or a group) to tag first"), 4000);
        return;
    }
    const int changed = m_document->tagNodes(nodes, policy);
    if (changed == 0)
        statusBar()->showMessage(tr("Nothing to change (graph inputs cannot be tagged)"), 4000);
}

void MainWindow::onFindTextChanged(const QString& text)
{
    const LoadedGraphPtr graph = m_document->graph();
    m_matches = graph ? findNodes(*graph, text) : std::vector<NodeId> {};
    m_matchIndex = -1;
    m_canvas->findBar()->setResult(-1, static_cast<int>(m_matches.size()));
    if (m_matches.empty())
        return;
    // Typing jumps to the best match only when it is already on the canvas (no re-layout per key).
    BoxItem* box = m_canvas->scene()->boxForNode(m_matches.front());
    if (box && box->type() == NodeItemType) {
        m_matchIndex = 0;
        m_selection->selectNode(m_matches.front(), NodeSelection::Origin::Search);
        m_canvas->revealNode(m_matches.front());
        m_canvas->findBar()->setResult(0, static_cast<int>(m_matches.size()));
    }
}

void MainWindow::findNext(bool backwards)
{
    if (m_matches.empty()) {
        if (m_canvas->findBar()->isHidden())
            m_canvas->findBar()->activate();
        return;
    }
    const int count = static_cast<int>(m_matches.size());
    m_matchIndex
        = backwards ? (m_matchIndex <= 0 ? count - 1 : m_matchIndex - 1) : (m_matchIndex + 1) % count;
    const NodeId n = m_matches[static_cast<std::size_t>(m_matchIndex)];
    m_selection->selectNode(n, NodeSelection::Origin::Search);
    m_canvas->revealNode(n);
    m_canvas->findBar()->setResult(m_matchIndex, count);
}

// ---------------------------------------------------------------- misc

void MainWindow::showContextMenu(const QPoint& globalPos)
{
    QMenu menu(this);
    m_tagActions->addTo(&menu);
    menu.addSeparator();
    menu.addAction(m_selectProducersAction);
    menu.addAction(m_selectConsumersAction);
    if (!m_selection->groups().empty())
        menu.addAction(m_expandSelectedAction);
    const LoadedGraphPtr graph = m_document->graph();
    if (graph && m_selection->currentNode() != kNoNode
        && graph->groups.leafGroup(m_selection->currentNode()) >= 0)
        menu.addAction(m_collapseSelectedAction);
    if (m_selection->currentNode() != kNoNode) {
        const QString name = graph->label(m_selection->currentNode()).name;
        menu.addAction(
            tr("Copy Name “%1”").arg(name), this, [name] { QApplication::clipboard()->setText(name); });
    }
    menu.addSeparator();
    menu.addAction(m_fitAction);
    menu.exec(globalPos);
}

void MainWindow::updateActions()
{
    const bool hasGraph = m_document->graph() != nullptr;
    m_propertiesAction->setEnabled(hasGraph);
    const bool hasSelection = !m_selection->isEmpty();
    m_tagActions->setEnabled(hasGraph && hasSelection);
    m_selectProducersAction->setEnabled(!m_selection->nodes().empty());
    m_selectConsumersAction->setEnabled(!m_selection->nodes().empty());
    m_expandSelectedAction->setEnabled(!m_selection->groups().empty());
    const bool grouped = hasGraph && !m_document->graph()->groups.empty();
    m_expandAllAction->setEnabled(grouped);
    m_collapseAllAction->setEnabled(grouped);
    m_exportActions->updateEnabled();
}

void MainWindow::updateTitle()
{
    const LoadedGraphPtr graph = m_document->graph();
    setWindowTitle(graph ? tr("%1 — Remat Explorer").arg(graph->displayName) : tr("Remat Explorer"));
}

void MainWindow::onPictureReady(const CanvasTimings& timings)
{
    m_exportActions->updateEnabled();
    m_timingLabel->setText(timings.cached
            ? tr("layout: cached")
            : tr("layout: %1 ms (%2)").arg(timings.layoutSeconds * 1000, 0, 'f', 0).arg(timings.engine));
    const std::size_t boxes = m_canvas->scene()->boxCount();
    const LoadedGraphPtr graph = m_document->graph();
    if (graph)
        m_graphLabel->setText(tr("%1 nodes · %2 boxes shown").arg(graph->size()).arg(boxes));
    if (m_collapsedNotice && graph && everyGroupExpanded(*m_canvas, graph->groups)) {
        // "collapsed into N groups" is no longer true.
        m_collapsedNotice = false;
        statusBar()->showMessage(tr("Every group expanded: %1 nodes shown").arg(graph->size()), 8000);
    }
}

void MainWindow::showGraphProperties()
{
    if (const LoadedGraphPtr graph = m_document->graph()) {
        GraphPropertiesDialog dialog(graph->graph, this);
        dialog.exec();
    }
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(m_canvas->scene()->state().palette, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    Settings::setPalette(dialog.palette());
    m_canvas->scene()->setPalette(dialog.palette());
    m_tagActions->setPalette(dialog.palette());
}

TeachingWindow* MainWindow::showTeaching()
{
    const LoadedGraphPtr graph = m_document->graph();
    if (!graph)
        return nullptr;
    // The selection (nodes, and the members of selected groups) is the region to draw.
    std::vector<NodeId> region = m_selection->nodes();
    for (int g : m_selection->groups()) {
        const auto& members = graph->groups.group(g).members;
        region.insert(region.end(), members.begin(), members.end());
    }
    auto* window = findChild<TeachingWindow*>();
    if (!window)
        window = new TeachingWindow(this);
    window->teach(graph, m_document->partitionOptions(), region);
    window->show();
    window->raise();
    return window;
}

void MainWindow::showShortcuts()
{
    QString rows;
    auto add = [&rows](const QString& keys, const QString& what) {
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    add(tr("S / Shift+S"), tr("Tag the selection MUST_SAVE / PREFER_SAVE"));
    add(tr("R / Shift+R"), tr("Tag the selection MUST_RECOMPUTE / PREFER_RECOMPUTE"));
    add(tr("X or Backspace"), tr("Clear the tag"));
    add(tr("Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y"), tr("Undo / redo"));
    add(tr("Ctrl+F, F3, Shift+F3"), tr("Find a node by name or op, next, previous"));
    add(tr("P / U"), tr("Select the producers / consumers of the selection"));
    add(tr("Wheel, + / -"), tr("Zoom at the cursor / zoom"));
    add(tr("0, 1"), tr("Fit to window, actual size"));
    add(tr("Drag, Shift+drag"), tr("Pan, select with a rubber band"));
    add(tr("Double-click, Ctrl+→ / Ctrl+←"), tr("Expand a group / collapse the group around the selection"));
    add(tr("Ctrl+Shift+→ / Ctrl+Shift+←"), tr("Expand / collapse all groups"));
    add(tr("Ctrl+T, F1"), tr("Teach the min-cut, the guide"));
    add(tr("M, L, D"), tr("Overview map, legend, differences from PyTorch"));
    add(tr("Alt+Return"), tr("Graph properties: where the graph comes from, its rules and static inputs"));
    QMessageBox::information(
        this, tr("Keyboard Shortcuts"), QStringLiteral("<table cellspacing='6'>%1</table>").arg(rows));
}

} // namespace remat::ui
