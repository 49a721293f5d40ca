// SPDX-License-Identifier: MIT
#include "panels/decision_table_model.h"

#include "model/policy_names.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <numeric>
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
        m_rows = sorted(std::move(rows));
        endResetModel();
        return;
    }
    // The same graph partitioned again: the rows that stay come first in the order they were
    // shown, then the new ones in the partitioner's, so that a stable sort on the new plan's keys
    // moves only what changed.
    m_outcome = std::move(outcome);
    m_tagOf = std::move(tagOf);
    enum : char { NotWanted, Wanted, Placed };
    std::vector<char> state(m_graph->graph.size(), NotWanted);
    for (const NodeId n : rows)
        state[static_cast<std::size_t>(n)] = Wanted;
    std::vector<NodeId> order;
    order.reserve(rows.size());
    for (const std::vector<NodeId>* from : {&m_rows, &rows}) {
        for (const NodeId n : *from) {
            char& s = state[static_cast<std::size_t>(n)];
            if (s == Wanted) {
                order.push_back(n);
                s = Placed;
            }
        }
    }
    showRows(sorted(std::move(order)));
}

void DecisionTableModel::showRows(std::vector<NodeId> rows)
{
    Q_EMIT layoutAboutToBeChanged();
    std::vector<int> rowOfNode(m_graph->graph.size(), -1);
    for (std::size_t row = 0; row < rows.size(); ++row)
        rowOfNode[static_cast<std::size_t>(rows[row])] = static_cast<int>(row);
    std::vector<int> newRowOf(m_rows.size());
    for (std::size_t row = 0; row < m_rows.size(); ++row)
        newRowOf[row] = rowOfNode[static_cast<std::size_t>(m_rows[row])];
    m_rows = std::move(rows);
    movePersistentRows(newRowOf);
    Q_EMIT layoutChanged();
}

std::vector<NodeId> DecisionTableModel::sorted(std::vector<NodeId> nodes) const
{
    if (m_sortColumn < 0 || m_sortColumn >= ColumnCount || !m_graph || !m_outcome || !m_outcome->ok())
        return nodes;
    // One key a row, read once: a number, or a text for the columns that show one.
    std::vector<qint64> numbers;
    std::vector<QString> texts;
    const bool byText = m_sortColumn == OpColumn || m_sortColumn == ValueColumn || m_sortColumn == TagColumn
        || m_sortColumn == DetailColumn;
    if (byText)
        texts.reserve(nodes.size());
    else
        numbers.reserve(nodes.size());
    for (const NodeId n : nodes) {
        switch (m_sortColumn) {
        case OpColumn:
            texts.push_back(m_graph->label(n).op);
            break;
        case ValueColumn:
            texts.push_back(m_graph->label(n).value);
            break;
        case DetailColumn:
            texts.push_back(detail(n));
            break;
        case SizeColumn:
            numbers.push_back(static_cast<qint64>(m_graph->bytesOf(n)));
            break;
        case DistanceColumn:
            numbers.push_back(distanceOf(n));
            break;
        case TagColumn:
            texts.push_back(tagText(n));
            break;
        default: // the node's name sorts in graph order
            numbers.push_back(n);
            break;
        }
    }
    std::vector<int> place(nodes.size());
    std::iota(place.begin(), place.end(), 0);
    const bool descending = m_sortOrder == Qt::DescendingOrder;
    const auto before = [&](const auto& keys) {
        return [&keys, descending](int a, int b) {
            const auto& x = keys[static_cast<std::size_t>(a)];
            const auto& y = keys[static_cast<std::size_t>(b)];
            return descending ? y < x : x < y;
        };
    };
    if (byText)
        std::stable_sort(place.begin(), place.end(), before(texts));
    else
        std::stable_sort(place.begin(), place.end(), before(numbers));
    std::vector<NodeId> out;
    out.reserve(nodes.size());
    for (const int i : place)
        out.push_back(nodes[static_cast<std::size_t>(i)]);
    return out;
}

void DecisionTableModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    if (!m_rows.empty())
        showRows(sorted(m_rows));
}

void DecisionTableModel::refreshTags()
{
    if (m_rows.empty())
        return;
    if (m_sortColumn == TagColumn)
        showRows(sorted(m_rows));
    Q_EMIT dataChanged(index(0, TagColumn), index(rowCount() - 1, TagColumn));
}

int DecisionTableModel::distanceOf(NodeId n) const
{
    const auto& classes = m_outcome->result->classes;
    return static_cast<std::size_t>(n) < classes.distFromBw.size() ? classes.dist(n) : -1;
}

QString DecisionTableModel::tagText(NodeId n) const
{
    const CheckpointPolicy tag = m_tagOf ? m_tagOf(n) : CheckpointPolicy::None;
    return tag == CheckpointPolicy::None ? QString() : QString::fromLatin1(policyName(tag));
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
    const int distance = distanceOf(n);
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
        case TagColumn:
            return tagText(n);
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
