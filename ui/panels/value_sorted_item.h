// SPDX-License-Identifier: MIT
#pragma once

#include <QTreeWidget>

namespace remat::ui {

/// A tree row whose column `valueColumn` sorts by the number in its Qt::UserRole (bytes), not by
/// its text ("1.5 MiB" < "512 B" as text).
class ValueSortedItem : public QTreeWidgetItem {
public:
    ValueSortedItem(QTreeWidget* tree, int valueColumn)
        : QTreeWidgetItem(tree)
        , m_valueColumn(valueColumn)
    { }

    bool operator<(const QTreeWidgetItem& other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        if (column == m_valueColumn)
            return data(column, Qt::UserRole).toLongLong() < other.data(column, Qt::UserRole).toLongLong();
        return QTreeWidgetItem::operator<(other);
    }

private:
    int m_valueColumn;
};

} // namespace remat::ui
