// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QStringListModel;

namespace remat::ui {

/// Find-as-you-type over node names and ops (Ctrl+F): Enter goes to the next match,
/// Shift+Enter to the previous, Escape closes.
class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QWidget* parent = nullptr);

    void setCompletions(const QStringList& names);
    QString text() const;
    void setText(const QString& text);
    /// "3 of 27", or a "not found" hint.
    void setResult(int index, int count);
    void activate();

Q_SIGNALS:
    void searchChanged(const QString& text);
    void nextRequested();
    void previousRequested();
    void closed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QLineEdit* m_edit;
    QLabel* m_count;
    QStringListModel* m_completions;
};

} // namespace remat::ui
