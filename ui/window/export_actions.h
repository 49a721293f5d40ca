// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace remat::ui {

class GraphDocument;
class GraphScene;

/// File > Export: the plan as JSON, the plan with a Python script that runs it, and the canvas
/// as a PNG or SVG picture. The actions ask for file names and show failures (the core's
/// message) in a message box; the export* functions behind them do the writing without dialogs,
/// for the headless session and the tests.
class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(GraphDocument* document, GraphScene* scene, QWidget* window);

    QAction* planAction() const { return m_plan; }
    QAction* scriptAction() const { return m_script; }
    QAction* imageAction() const { return m_image; }
    void addTo(QMenu* menu) const;
    /// Plans need a partition, pictures a graph on the canvas.
    void updateEnabled();

    /// Each returns an empty string on success, else what went wrong.
    QString exportPlan(const QString& path);
    QString exportPlanAndScript(const QString& planPath, const QString& scriptPath, const QString& toolsDir);
    QString exportImage(const QString& path);

    /// "mlp" or "mlp_budget_0.3": the base of suggested file names.
    QString suggestedBaseName() const;

Q_SIGNALS:
    /// For the status bar.
    void exported(const QString& message);

private:
    void choosePlanFile();
    void chooseScriptFile();
    void chooseImageFile();
    QString suggestedFolder() const;
    void showFailure(const QString& title, const QString& message);
    /// Lets a re-partition under way deliver first (events keep flowing): a plan exported before
    /// it would miss the tag or setting that started it. False if it did not end in time.
    bool waitForPartition();

    GraphDocument* m_document;
    GraphScene* m_scene;
    QWidget* m_window;
    QAction* m_plan;
    QAction* m_script;
    QAction* m_image;
};

} // namespace remat::ui
