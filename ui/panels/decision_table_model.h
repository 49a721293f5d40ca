// SPDX-License-Identifier: MIT
#pragma once

#include "model/partition_outcome.h"

#include "panels/reorderable_table_model.h"

#include <functional>

namespace remat::ui {

/// One row per node of a partition list: the saved values (ours, plus those only PyTorch's
/// reference saves), the recomputed nodes, or the nodes banned from recomputation.
class DecisionTableModel : public ReorderableTableModel {
    Q_OBJECT
public:
    enum class List { Saved, Recomputed, Banned };
    enum Column {
        NameColumn,
        SizeColumn,
        OpColumn,
        ValueColumn,
        DistanceColumn,
        TagColumn,
        DetailColumn,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole, NodeRole, DiffersRole };

    explicit DecisionTableModel(List list, QObject* parent = nullptr);

    /// `tagOf` gives the tag in force for a node. A new partition of the same graph keeps the rows
    /// that stay, in one layout change (views keep their selection and scroll position), and
    /// places the new ones by the sort order; a new graph resets the model.
    void setData(
        LoadedGraphPtr graph, PartitionOutcomePtr outcome, std::function<CheckpointPolicy(NodeId)> tagOf);
    /// Tags changed without a new partition yet: refresh the tag column (and the order, if the
    /// rows are sorted by it).
    void refreshTags();
    int rowOf(NodeId n) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// Sorts the rows themselves, on keys read straight from the graph and the plan: a sorting
    /// proxy over 20k rows re-sorted them through QVariants on every re-partition (up to 28 ms a
    /// table on a 90k-node graph). Column -1 is the partitioner's order. Stable: equal rows keep
    /// the order they were shown in.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QString detail(NodeId n) const;
    QString tagText(NodeId n) const;
    /// The node's dist_from_bw under the plan; -1 where the plan has none.
    int distanceOf(NodeId n) const;
    /// `nodes` in the sort order; ties keep the order of `nodes`.
    std::vector<NodeId> sorted(std::vector<NodeId> nodes) const;
    /// Shows `rows` in one layout change; persistent indexes follow their nodes, or go where the
    /// node is no longer shown.
    void showRows(std::vector<NodeId> rows);

    List m_list;
    LoadedGraphPtr m_graph;
    PartitionOutcomePtr m_outcome;
    std::function<CheckpointPolicy(NodeId)> m_tagOf;
    std::vector<NodeId> m_rows;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace remat::ui
