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

    /// Up to this many separate runs of rows leave one run at a time; more are first moved after
    /// the rows that stay and leave at once. A sorting proxy walks all of its rows for each run
    /// removed: 3147 rows in runs out of 6330 took 53-68 ms on gpt_n96, one layout change 7.4 ms.
    static constexpr int kRunsRemovedOneByOne = 8;

    explicit DecisionTableModel(List list, QObject* parent = nullptr);

    /// `tagOf` gives the tag in force for a node. A new partition of the same graph moves only the
    /// rows that changed (views keep their selection); a new graph resets the model.
    void setData(
        LoadedGraphPtr graph, PartitionOutcomePtr outcome, std::function<CheckpointPolicy(NodeId)> tagOf);
    /// Tags changed without a new partition yet: refresh the tag column.
    void refreshTags();
    int rowOf(NodeId n) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString detail(NodeId n) const;
    /// Removes the rows whose node is not in `wanted`.
    void updateRows(const std::vector<NodeId>& wanted);
    void removeRunsOneByOne(const std::vector<char>& isWanted);
    /// One layout change moves the leaving rows after the others (persistent indexes follow their
    /// rows), then one removal drops them.
    void removeRowsAtOnce(const std::vector<char>& isWanted);
    /// Appends the nodes of `wanted` that have no row yet.
    void appendRows(const std::vector<NodeId>& wanted);

    List m_list;
    LoadedGraphPtr m_graph;
    PartitionOutcomePtr m_outcome;
    std::function<CheckpointPolicy(NodeId)> m_tagOf;
    std::vector<NodeId> m_rows;
};

} // namespace remat::ui
