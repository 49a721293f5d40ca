// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/plan_analyst.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QTimer;
class QTreeWidget;

namespace remat::ui {

class GraphDocument;
class GraphScene;
class NodeSelection;
class PlanChoiceEditor;
class TimelinePanel;

/// The "Compare Plans" dock: two plans (A and B) side by side. The canvas colours what only A,
/// only B and both save (groups count their differences), a table lists the differing values with
/// their bytes, a summary gives the deltas, and the timeline overlays B's total.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    ComparePanel(GraphDocument* document, GraphScene* scene, NodeSelection* selection,
        TimelinePanel* timeline, PlanAnalyst* analyst, QWidget* parent = nullptr);

    PlanChoiceEditor* sideA() const { return m_a; }
    PlanChoiceEditor* sideB() const { return m_b; }
    QTreeWidget* table() const { return m_table; }
    QCheckBox* showOnCanvas() const { return m_onCanvas; }
    PlanPairPtr pair() const { return m_pair; }
    QString summaryText() const;
    PlanAnalyst* analyst() const { return m_analyst; }
    /// Compares A and B now (the dock also does so whenever a side or the current plan changes).
    void compareNow();
    /// Whether the dock is on screen: the canvas shows the comparison only then. Its dock's
    /// visibilityChanged says so; isVisible() does not, since Qt keeps the widget of a tab that
    /// is not current "visible", only moved off screen (so it coloured the canvas unasked).
    void setShown(bool shown);
    bool isShown() const { return m_shown; }
    /// Whether a comparison is asked for but not yet started (a side or the plan just changed).
    bool isPending() const;

private:
    void onCompared(const PlanPairPtr& pair);
    void applyToCanvas();

    GraphDocument* m_document;
    GraphScene* m_scene;
    NodeSelection* m_selection;
    TimelinePanel* m_timeline;
    PlanAnalyst* m_analyst;
    PlanChoiceEditor* m_a;
    PlanChoiceEditor* m_b;
    QCheckBox* m_onCanvas;
    QLabel* m_summary;
    QTreeWidget* m_table;
    QTimer* m_debounce;
    PlanPairPtr m_pair;
    bool m_shown = false;
};

} // namespace remat::ui
