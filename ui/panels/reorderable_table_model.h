// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

#include <vector>

namespace remat::ui {

/// A table model whose rows its subclass reorders in place: the persistent indexes (a view's
/// selection and current row) follow their rows to where they went.
class ReorderableTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    /// Between layoutAboutToBeChanged() and layoutChanged(): row r is now row newRowOf[r].
    void movePersistentRows(const std::vector<int>& newRowOf)
    {
        const QModelIndexList from = persistentIndexList();
        QModelIndexList to;
        to.reserve(from.size());
        for (const QModelIndex& index : from)
            to.append(this->index(newRowOf[static_cast<std::size_t>(index.row())], index.column()));
        changePersistentIndexList(from, to);
    }
};

} // namespace remat::ui
