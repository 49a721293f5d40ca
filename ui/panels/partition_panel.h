// SPDX-License-Identifier: MIT
#pragma once

#include "panels/decision_table_model.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTimer;
class QTreeView;

namespace remat::ui {

class BudgetControls;
class DecisionFilterProxy;
class GraphDocument;
class NodeSelection;

/// Partitioner settings (for the memory-budget partitioner: the budget, solver and estimator),
/// the summary of the latest partition (and how it compares with
/// PyTorch's recorded one), and sortable, filterable tables of saved, recomputed and banned
/// nodes; clicking a row selects the node on the canvas.
class PartitionPanel : public QWidget {
    Q_OBJECT
public:
    PartitionPanel(GraphDocument* document, NodeSelection* selection, QWidget* parent = nullptr);

    DecisionTableModel* savedModel() const { return m_models[0]; }
    QTreeView* savedTable() const { return m_views[0]; }
    QTreeView* recomputedTable() const { return m_views[1]; }
    QString summaryText() const;
    QComboBox* partitionerBox() const { return m_partitioner; }
    QComboBox* rulesBox() const { return m_rules; }
    BudgetControls* budgetControls() const { return m_budget; }
    QCheckBox* inductorPassesBox() const { return m_inductorPasses; }
    /// How the plan compares with PyTorch's recorded decision, or why there is none.
    QLabel* referenceLabel() const { return m_reference; }

private:
    void onGraphChanged();
    void onSettingsChanged();
    void onPartitionRequested();
    void onPartitionChanged();
    void onSelectionChanged(int origin);
    /// Selects the current node's row in each list (with `onlyWhereUnselected`, only in lists
    /// where nothing is selected).
    void showCurrentNodeInLists(bool onlyWhereUnselected);
    void applySettingsFromControls();
    void updateCompilerEnabled();
    void updateBudgetMode();
    /// The reference note's link: the setting that compares like with like (ProvenanceRemedy).
    void applyRemedy(const QString& link);
    bool budgetChosen() const;

    GraphDocument* m_document;
    NodeSelection* m_selection;
    QComboBox* m_partitioner;
    QComboBox* m_rules;
    QComboBox* m_compiler;
    BudgetControls* m_budget;
    QLabel* m_budgetNote;
    QLabel* m_summary;
    QLabel* m_reference;
    QLabel* m_status;
    QLineEdit* m_filter;
    QCheckBox* m_differencesOnly;
    QCheckBox* m_offload;
    QCheckBox* m_inductorPasses;
    QTabWidget* m_tabs;
    DecisionTableModel* m_models[3];
    DecisionFilterProxy* m_proxies[3];
    QTreeView* m_views[3];
    bool m_updatingControls = false;
    QTimer* m_refreshTimer;
};

} // namespace remat::ui
