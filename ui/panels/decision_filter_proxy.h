// SPDX-License-Identifier: MIT
#pragma once

#include <QSortFilterProxyModel>

namespace remat::ui {

/// Filters a decision table by text (node name or op) and, optionally, to the rows where our
/// decision differs from PyTorch's reference. Sorting is the source model's: the proxy keeps its
/// order.
class DecisionFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DecisionFilterProxy(QObject* parent = nullptr);

    void setText(const QString& text);
    void setDifferencesOnly(bool only);
    /// Sorts the source model (a view's header clicks land here).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    bool m_differencesOnly = false;
};

} // namespace remat::ui
