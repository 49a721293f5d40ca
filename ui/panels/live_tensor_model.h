// SPDX-License-Identifier: MIT
#pragma once

#include "budget/memory_simulation.h"
#include "model/loaded_graph.h"

#include "panels/reorderable_table_model.h"

#include <vector>

namespace remat::ui {

/// The tensors alive at one step of a memory timeline, a row each: a model rather than a
/// QTreeWidget, so that the 45k tensors alive at the peak of a 90k-node graph list without a
/// widget item each (filling them took 170 ms of the GUI thread).
class LiveTensorModel : public ReorderableTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, BytesColumn, CategoryColumn, ColumnCount };
    enum Roles { SortRole = Qt::UserRole, NodeRole };

    explicit LiveTensorModel(QObject* parent = nullptr);

    /// Shows `tensors` under `title` ("12 live at step 40"), in the current sort order.
    void setTensors(LoadedGraphPtr graph, std::vector<LiveTensor> tensors, const QString& title);
    void clear();
    NodeId nodeAt(int row) const { return m_rows[static_cast<std::size_t>(row)].owner; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    /// Orders m_rows by the sort column and order; returns each old row's new place.
    std::vector<int> orderRows();

    LoadedGraphPtr m_graph;
    std::vector<LiveTensor> m_rows;
    QString m_title;
    int m_sortColumn = BytesColumn;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
};

} // namespace remat::ui
