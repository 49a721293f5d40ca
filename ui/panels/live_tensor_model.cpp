// SPDX-License-Identifier: MIT
#include "panels/live_tensor_model.h"

#include "model/node_text.h"

#include <algorithm>
#include <numeric>

namespace remat::ui {
namespace {

QString categoryText(MemoryCategory category)
{
    const std::string_view name = categoryName(category);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

} // namespace

LiveTensorModel::LiveTensorModel(QObject* parent)
    : ReorderableTableModel(parent)
    , m_title(tr("live tensor"))
{ }

void LiveTensorModel::setTensors(LoadedGraphPtr graph, std::vector<LiveTensor> tensors, const QString& title)
{
    beginResetModel();
    m_graph = std::move(graph);
    m_rows = std::move(tensors);
    m_title = title;
    orderRows();
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, NameColumn, NameColumn);
}

void LiveTensorModel::clear()
{
    setTensors(nullptr, {}, tr("live tensor"));
}

int LiveTensorModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LiveTensorModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveTensorModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_graph || index.row() >= rowCount())
        return {};
    const LiveTensor& t = m_rows[static_cast<std::size_t>(index.row())];
    if (role == NodeRole)
        return t.owner;
    switch (index.column()) {
    case NameColumn:
        if (role == Qt::DisplayRole)
            return m_graph->label(t.owner).name;
        if (role == Qt::ToolTipRole)
            return m_graph->label(t.owner).op; // an input's name in the model, else its op
        break;
    case BytesColumn:
        if (role == Qt::DisplayRole)
            return formatBytes(t.bytes);
        if (role == SortRole)
            return static_cast<qlonglong>(t.bytes);
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case CategoryColumn:
        if (role == Qt::DisplayRole)
            return categoryText(t.category);
        break;
    default:
        break;
    }
    return {};
}

QVariant LiveTensorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return m_title;
    case BytesColumn:
        return tr("bytes");
    case CategoryColumn:
        return tr("category");
    default:
        return {};
    }
}

void LiveTensorModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    movePersistentRows(orderRows());
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

std::vector<int> LiveTensorModel::orderRows()
{
    std::vector<int> order(m_rows.size());
    std::iota(order.begin(), order.end(), 0);
    const auto less = [&](int a, int b) {
        const LiveTensor& x = m_rows[static_cast<std::size_t>(a)];
        const LiveTensor& y = m_rows[static_cast<std::size_t>(b)];
        switch (m_sortColumn) {
        case NameColumn:
            return m_graph && m_graph->label(x.owner).name < m_graph->label(y.owner).name;
        case CategoryColumn:
            return x.category < y.category;
        default:
            return x.bytes < y.bytes;
        }
    };
    // Stable, so that equal rows keep the simulator's order (largest first, then by step).
    if (m_sortOrder == Qt::AscendingOrder)
        std::stable_sort(order.begin(), order.end(), less);
    else
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return less(b, a); });
    std::vector<LiveTensor> sorted;
    sorted.reserve(m_rows.size());
    std::vector<int> newRowOf(m_rows.size());
    for (std::size_t place = 0; place < order.size(); ++place) {
        newRowOf[static_cast<std::size_t>(order[place])] = static_cast<int>(place);
        sorted.push_back(m_rows[static_cast<std::size_t>(order[place])]);
    }
    m_rows = std::move(sorted);
    return newRowOf;
}

} // namespace remat::ui
