// SPDX-License-Identifier: MIT
#include "panels/decision_table_model.h"

#include "model/policy_names.h"

#include <QBrush>
#include <QColor>

namespace remat::ui {

DecisionTableModel::DecisionTableModel(List list, QObject* parent)
    : QAbstractTableModel(parent)
    , m_list(list)
{ }

void DecisionTableModel::setData(
    LoadedGraphPtr graph, PartitionOutcomePtr outcome, std::function<CheckpointPolicy(NodeId)> tagOf)
{
    beginResetModel();
    m_graph = std::move(graph);
    m_outcome = std::move(outcome);
    m_tagOf = std::move(tagOf);
    m_rows.clear();
    if (m_graph && m_outcome && m_outcome->ok()) {
        const PartitionResult& r = *m_outcome->result;
        switch (m_list) {
        case List::Saved:
            m_rows = r.savedValues;
            m_rows.insert(m_rows.end(), r.savedSymNodes.begin(), r.savedSymNodes.end());
            m_rows.insert(m_rows.end(), m_outcome->onlyReference.begin(), m_outcome->onlyReference.end());
            break;
        case List::Recomputed:
            m_rows = r.recomputed;
            break;
        case List::Banned:
            for (const BannedNode& b : r.banned)
                m_rows.push_back(b.node);
            break;
        }
    }
    endResetModel();
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
