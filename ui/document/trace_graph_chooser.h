// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QStringList>

class QListWidget;

namespace remat::ui {

/// One compiled graph of a TORCH_TRACE log, as the chooser lists it.
struct TracedGraphChoice {
    QString id; ///< tlparse's compile id ("0/0", "1/0", "0/0_1")
    QString label; ///< "1/0 — 21 nodes, PyTorch's decision recorded"
};

/// Asks which compiled graph of a TORCH_TRACE log to open, when the log holds several joint graphs.
class TraceGraphChooser : public QDialog {
    Q_OBJECT
public:
    TraceGraphChooser(
        const QString& path, const QList<TracedGraphChoice>& choices, QWidget* parent = nullptr);

    /// The selected graph's id.
    QString chosenId() const;
    QListWidget* list() const { return m_list; }

private:
    QListWidget* m_list;
};

} // namespace remat::ui
