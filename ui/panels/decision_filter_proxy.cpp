// SPDX-License-Identifier: MIT
#include "panels/decision_filter_proxy.h"

#include "panels/decision_table_model.h"

namespace remat::ui {

DecisionFilterProxy::DecisionFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{ }

void DecisionFilterProxy::sort(int column, Qt::SortOrder order)
{
    if (QAbstractItemModel* model = sourceModel())
        model->sort(column, order);
}

void DecisionFilterProxy::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

void DecisionFilterProxy::setDifferencesOnly(bool only)
{
    if (only == m_differencesOnly)
        return;
    m_differencesOnly = only;
    invalidateRowsFilter();
}

bool DecisionFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* model = sourceModel();
    if (m_differencesOnly) {
        if (!model->index(sourceRow, 0, sourceParent).data(DecisionTableModel::DiffersRole).toBool())
            return false;
    }
    if (m_text.isEmpty())
        return true;
    for (int column : {DecisionTableModel::NameColumn, DecisionTableModel::OpColumn}) {
        if (model->index(sourceRow, column, sourceParent)
                .data()
                .toString()
                .contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace remat::ui
