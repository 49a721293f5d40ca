// SPDX-License-Identifier: MIT
#include "window/export_actions.h"

#include "budget/region_budget.h"
#include "canvas/canvas_export.h"
#include "canvas/graph_scene.h"
#include "document/graph_document.h"
#include "document/plan_export.h"
#include "graph/error.h"
#include "model/budget_outcome.h"
#include "window/script_dialog.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QTimer>

namespace remat::ui {
namespace {

/// How long an export waits for a re-partition under way before it gives up.
constexpr qint64 kLongestPartitionWaitMs = 60'000;

} // namespace

ExportActions::ExportActions(GraphDocument* document, GraphScene* scene, QWidget* window)
    : QObject(window)
    , m_document(document)
    , m_scene(scene)
    , m_window(window)
    , m_plan(new QAction(tr("&Plan (JSON)…"), this))
    , m_script(new QAction(tr("Plan and Python &Script…"), this))
    , m_image(new QAction(tr("Canvas &Image…"), this))
{
    m_plan->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_plan->setToolTip(tr("Write the current plan as JSON, for samples/apply_plan.py (Ctrl+E)"));
    m_script->setToolTip(
        tr("Write the plan and a Python script that runs one training step of the model with it"));
    m_image->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_image->setToolTip(tr("Write the canvas as a PNG, SVG or PDF picture (Ctrl+Shift+E)"));
    connect(m_plan, &QAction::triggered, this, &ExportActions::choosePlanFile);
    connect(m_script, &QAction::triggered, this, &ExportActions::chooseScriptFile);
    connect(m_image, &QAction::triggered, this, &ExportActions::chooseImageFile);
}

void ExportActions::addTo(QMenu* menu) const
{
    menu->addAction(m_plan);
    menu->addAction(m_script);
    menu->addSeparator();
    menu->addAction(m_image);
}

void ExportActions::updateEnabled()
{
    const PartitionOutcomePtr outcome = m_document->outcome();
    const bool plan = m_document->graph() && outcome && outcome->ok();
    m_plan->setEnabled(plan);
    m_script->setEnabled(plan);
    m_image->setEnabled(m_document->graph() && m_scene->hasContent());
}

// ---------------------------------------------------------------- writing

bool ExportActions::waitForPartition()
{
    QElapsedTimer waited;
    waited.start();
    while (m_document->isPartitioning() && waited.elapsed() < kLongestPartitionWaitMs) {
        QEventLoop loop;
        connect(m_document, &GraphDocument::partitionChanged, &loop, &QEventLoop::quit);
        connect(m_document, &GraphDocument::graphChanged, &loop, &QEventLoop::quit);
        QTimer::singleShot(kLongestPartitionWaitMs - waited.elapsed(), &loop, &QEventLoop::quit);
        loop.exec();
    }
    return !m_document->isPartitioning();
}

QString ExportActions::exportPlan(const QString& path)
{
    if (!waitForPartition())
        return tr("The re-partition is still running: export again once it ends.");
    const LoadedGraphPtr graph = m_document->graph();
    const PartitionOutcomePtr outcome = m_document->outcome();
    if (!graph || !outcome)
        return tr("There is no partition to export yet.");
    try {
        writePlanFile(path, *graph, *outcome);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    Q_EMIT exported(tr("Plan written to %1").arg(QDir::toNativeSeparators(path)));
    return {};
}

QString ExportActions::exportPlanAndScript(
    const QString& planPath, const QString& scriptPath, const QString& toolsDir)
{
    if (!waitForPartition())
        return tr("The re-partition is still running: export again once it ends.");
    const LoadedGraphPtr graph = m_document->graph();
    const PartitionOutcomePtr outcome = m_document->outcome();
    if (!graph || !outcome)
        return tr("There is no partition to export yet.");
    try {
        writePlanAndScript(planPath, scriptPath, toolsDir, *graph, *outcome);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    Q_EMIT exported(tr("Plan and script written: %1").arg(scriptCommand(scriptPath)));
    return {};
}

QString ExportActions::exportImage(const QString& path)
{
    if (!m_document->graph() || !m_scene->hasContent())
        return tr("There is no picture to export yet.");
    const QString error = exportSceneImage(*m_scene, m_scene->sceneRect(), path);
    if (error.isEmpty())
        Q_EMIT exported(tr("Picture written to %1").arg(QDir::toNativeSeparators(path)));
    return error;
}

// ---------------------------------------------------------------- dialogs

QString ExportActions::suggestedBaseName() const
{
    const LoadedGraphPtr graph = m_document->graph();
    QString base = graph ? exportBaseName(*graph) : QStringLiteral("graph");
    const PartitionOutcomePtr outcome = m_document->outcome();
    if (outcome && outcome->budget)
        base += QStringLiteral("_budget_")
            + QString::fromStdString(pythonFloat(outcome->budget->plan->budget));
    return base;
}

QString ExportActions::suggestedFolder() const
{
    // Beside the graph, unless it is the bundled sample or its folder is read-only.
    const LoadedGraphPtr graph = m_document->graph();
    if (graph && !graph->path.startsWith(QLatin1String(":/"))) {
        const QString folder = QFileInfo(graph->path).absolutePath();
        if (QFileInfo(folder).isWritable())
            return folder;
    }
    return QDir::homePath();
}

void ExportActions::showFailure(const QString& title, const QString& message)
{
    QMessageBox::critical(m_window, title, message);
}

void ExportActions::choosePlanFile()
{
    const QString title = tr("Export Plan");
    const QString path = QFileDialog::getSaveFileName(m_window, title,
        QDir(suggestedFolder()).filePath(suggestedBaseName() + QStringLiteral(".plan.json")),
        tr("Plan JSON (*.json)"));
    if (path.isEmpty())
        return;
    if (const QString error = exportPlan(path); !error.isEmpty())
        showFailure(title, error);
}

void ExportActions::chooseScriptFile()
{
    const QString title = tr("Export Plan and Python Script");
    QString tools = defaultToolsDir();
    if (tools.isEmpty()) {
        // The app was moved away from its source tree: the tools are wherever the user keeps them.
        tools = QFileDialog::getExistingDirectory(
            m_window, tr("Folder with apply_plan.py and export_joint_graph.py"));
        if (tools.isEmpty())
            return;
    }
    const QString script = QFileDialog::getSaveFileName(m_window, title,
        QDir(suggestedFolder())
            .filePath(QStringLiteral("run_") + suggestedBaseName() + QStringLiteral(".py")),
        tr("Python script (*.py)"));
    if (script.isEmpty())
        return;
    const QString plan = planPathForScript(script);
    // The save dialog asked about the script; the plan beside it is a second file to ask about.
    if (QFileInfo::exists(plan)
        && QMessageBox::question(m_window, title,
               tr("%1 already exists beside the script. Replace it with this plan?")
                   .arg(QDir::toNativeSeparators(plan)))
            != QMessageBox::Yes)
        return;
    if (const QString error = exportPlanAndScript(plan, script, tools); !error.isEmpty()) {
        showFailure(title, error);
        return;
    }
    ScriptDialog dialog(plan, script, m_window);
    dialog.exec();
}

void ExportActions::chooseImageFile()
{
    const QString title = tr("Export Canvas Image");
    QString filter = tr("PNG image (*.png)");
    const QString svgFilter = tr("SVG drawing (*.svg)");
    const QString pdfFilter = tr("PDF document (*.pdf)");
    QString path = QFileDialog::getSaveFileName(m_window, title,
        QDir(suggestedFolder()).filePath(suggestedBaseName() + QStringLiteral(".png")),
        filter + QStringLiteral(";;") + svgFilter + QStringLiteral(";;") + pdfFilter, &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == svgFilter ? QStringLiteral(".svg")
            : filter == pdfFilter   ? QStringLiteral(".pdf")
                                    : QStringLiteral(".png");
    if (const QString error = exportImage(path); !error.isEmpty())
        showFailure(title, error);
}

} // namespace remat::ui
