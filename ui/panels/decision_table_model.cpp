// SPDX-License-Identifier: MIT
#include "panels/decision_table_model.h"

#include "model/policy_names.h"

#include <QBrush>
#include <QColor>

#include <utility>

namespace remat::ui {

DecisionTableModel::DecisionTableModel(List list, QObject* parent)
    : ReorderableTableModel(parent)
    , m_list(list)
{ }

namespace {

/// The nodes a list shows for `outcome`, in the order the partitioner reported them.
std::vector<NodeId> rowsOf(DecisionTableModel::List list, const PartitionOutcome* outcome)
{
    if (!outcome || !outcome->ok())
        return {};
    const PartitionResult& r = *outcome->result;
    std::vector<NodeId> rows;
    switch (list) {
    case DecisionTableModel::List::Saved:
        rows = r.savedValues;
        rows.insert(rows.end(), r.savedSymNodes.begin(), r.savedSymNodes.end());
        rows.insert(rows.end(), outcome->onlyReference.begin(), outcome->onlyReference.end());
        break;
    case DecisionTableModel::List::Recomputed:
        rows = r.recomputed;
        break;
    case DecisionTableModel::List::Banned:
        for (const BannedNode& b : r.banned)
            rows.push_back(b.node);
        break;
    }
    return rows;
}

} // namespace

void DecisionTableModel::setData(
    LoadedGraphPtr graph, PartitionOutcomePtr outcome, std::function<CheckpointPolicy(NodeId)> tagOf)
{
    std::vector<NodeId> rows = graph ? rowsOf(m_list, outcome.get()) : std::vector<NodeId> {};
    if (graph != m_graph || m_rows.empty() || rows.empty()) {
        beginResetModel();
        m_graph = std::move(graph);
        m_outcome = std::move(outcome);
        m_tagOf = std::move(tagOf);
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    // The same graph partitioned again: move only the rows that changed, so that the views keep
    // their selection and scroll position across a live re-partition.
    updateRows(rows);
    m_outcome = std::move(outcome);
    m_tagOf = std::move(tagOf);
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    appendRows(rows);
}

void DecisionTableModel::updateRows(const std::vector<NodeId>& wanted)
{
    std::vector<char> isWanted(m_graph->graph.size(), 0);
    for (const NodeId n : wanted)
        isWanted[static_cast<std::size_t>(n)] = 1;
    int runs = 0;
    bool previousLeaves = false;
    for (const NodeId n : m_rows) {
        const bool leaves = !isWanted[static_cast<std::size_t>(n)];
        runs += leaves && !previousLeaves;
        previousLeaves = leaves;
    }
    if (runs > kRunsRemovedOneByOne)
        removeRowsAtOnce(isWanted);
    else if (runs > 0)
        removeRunsOneByOne(isWanted);
}

void DecisionTableModel::removeRunsOneByOne(const std::vector<char>& isWanted)
{
    // Back to front, one run of rows at a time, so that the rows before a run keep their numbers.
    int last = rowCount() - 1;
    while (last >= 0) {
        if (isWanted[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(last)])]) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !isWanted[static_cast<std::size_t>(m_rows[static_cast<std::size_t>(first - 1)])])
            --first;
        beginRemoveRows({}, first, last);
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        endRemoveRows();
        last = first - 1;
    }
}

void DecisionTableModel::removeRowsAtOnce(const std::vector<char>& isWanted)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<int> newRowOf(m_rows.size());
    std::vector<NodeId> reordered;
    reordered.reserve(m_rows.size());
    int kept = 0;
    for (const bool staying : {true, false}) {
        for (std::size_t row = 0; row < m_rows.size(); ++row) {
            if (static_cast<bool>(isWanted[static_cast<std::size_t>(m_rows[row])]) == staying) {
                newRowOf[row] = static_cast<int>(reordered.size());
                reordered.push_back(m_rows[row]);
            }
        }
        if (staying)
            kept = static_cast<int>(reordered.size());
    }
    m_rows = std::move(reordered);
    movePersistentRows(newRowOf);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    beginRemoveRows({}, kept, rowCount() - 1);
    m_rows.resize(static_cast<std::size_t>(kept));
    endRemoveRows();
}

void DecisionTableModel::appendRows(const std::vector<NodeId>& wanted)
{
    std::vector<char> isShown(m_graph->graph.size(), 0);
    for (const NodeId n : m_rows)
        isShown[static_cast<std::size_t>(n)] = 1;
    std::vector<NodeId> added;
    for (const NodeId n : wanted)
        if (!std::exchange(isShown[static_cast<std::size_t>(n)], 1))
            added.push_back(n);
    if (added.empty())
        return;
    beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(added.size()) - 1);
    m_rows.insert(m_rows.end(), added.begin(), added.end());
    endInsertRows();
}

void DecisionTableModel::refreshTags()
{
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, TagColumn), index(rowCount() - 1, TagColumn));
}

int DecisionTableModel::rowOf(NodeId n) const
{
    const auto it = std::find(m_rows.begin(), m_rows.end(), n);
    return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

int DecisionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DecisionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString DecisionTableModel::detail(NodeId n) const
{
    switch (m_list) {
    case List::Saved: {
        if (m_outcome->referenceKey.isEmpty())
            return {};
        const bool ours = m_outcome->has(n, Saved);
        const bool theirs = m_outcome->has(n, ReferenceSaved);
        if (ours && theirs)
            return tr("both");
        return ours ? tr("only ours") : tr("only PyTorch");
    }
    case List::Recomputed:
        return {};
    case List::Banned: {
        const int i = m_outcome->banIndex[static_cast<std::size_t>(n)];
        return i >= 0 ? QString::fromStdString(m_outcome->result->banned[static_cast<std::size_t>(i)].reason)
                      : QString();
    }
    }
    return {};
}

QVariant DecisionTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const NodeId n = m_rows[static_cast<std::size_t>(index.row())];
    const NodeLabel& label = m_graph->label(n);
    const auto& classes = m_outcome->result->classes;
    const int distance = static_cast<std::size_t>(n) < classes.distFromBw.size() ? classes.dist(n) : -1;
    if (role == NodeRole)
        return n;
    if (role == DiffersRole)
        return m_list == List::Saved && !m_outcome->referenceKey.isEmpty()
            && m_outcome->has(n, Saved) != m_outcome->has(n, ReferenceSaved);
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (index.column()) {
        case NameColumn:
            return sort ? QVariant(n) : QVariant(label.name);
        case OpColumn:
            return label.op;
        case ValueColumn:
            return label.value;
        case SizeColumn:
            return sort ? QVariant(static_cast<qlonglong>(m_graph->bytesOf(n))) : QVariant(label.size);
        case DistanceColumn:
            if (sort)
                return distance;
            return distance >= NodeClasses::kFar ? QStringLiteral("∞")
                : distance < 0                   ? QString()
                                                 : QString::number(distance);
        case TagColumn: {
            const CheckpointPolicy tag = m_tagOf ? m_tagOf(n) : CheckpointPolicy::None;
            return tag == CheckpointPolicy::None ? QString() : QString::fromLatin1(policyName(tag));
        }
        case DetailColumn:
            return detail(n);
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == SizeColumn || index.column() == DistanceColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && m_list == List::Saved && !m_outcome->has(n, Saved))
        return QBrush(QColor(0x9a, 0x6b, 0x00)); // only PyTorch saves it: not part of our plan
    if (role == Qt::ToolTipRole && index.column() == DetailColumn)
        return detail(n);
    return {};
}

QVariant DecisionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Node");
    case OpColumn:
        return tr("Op");
    case ValueColumn:
        return tr("Shape · dtype");
    case SizeColumn:
        return tr("Size");
    case DistanceColumn:
        return tr("dist_from_bw");
    case TagColumn:
        return tr("Tag");
    case DetailColumn:
        switch (m_list) {
        case List::Saved:
            return tr("PyTorch");
        case List::Recomputed:
            return QString();
        case List::Banned:
            return tr("Reason");
        }
    }
    return {};
}

} // namespace remat::ui
