// SPDX-License-Identifier: MIT
#include "document/trace_graph_chooser.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace remat::ui {

TraceGraphChooser::TraceGraphChooser(
    const QString& path, const QList<TracedGraphChoice>& choices, QWidget* parent)
    : QDialog(parent)
    , m_list(new QListWidget(this))
{
    setWindowTitle(tr("Choose a Compiled Graph"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("%1 holds %2 joint graphs (one per torch.compile compilation, "
                                "named by compile id as tlparse names them). Open which one?")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(choices.size()),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    for (const TracedGraphChoice& choice : choices) {
        auto* item = new QListWidgetItem(choice.label, m_list);
        item->setData(Qt::UserRole, choice.id);
    }
    m_list->setCurrentRow(0);
    // Wide enough for every label in full ("1/0 — 21 nodes, PyTorch's decision recorded"), short
    // enough for a handful of rows without a sea of white.
    const int widest = m_list->sizeHintForColumn(0) + 2 * m_list->frameWidth() + 24;
    m_list->setMinimumWidth(std::max(420, widest));
    m_list->setMaximumHeight(
        m_list->sizeHintForRow(0) * std::min<int>(12, int(choices.size()) + 1) + 2 * m_list->frameWidth());
    layout->addWidget(m_list);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    layout->addWidget(buttons);
}

QString TraceGraphChooser::chosenId() const
{
    const QListWidgetItem* item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

} // namespace remat::ui
