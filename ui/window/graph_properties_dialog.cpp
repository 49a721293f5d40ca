// SPDX-License-Identifier: MIT
#include "window/graph_properties_dialog.h"

#include "explain/graph_provenance.h"
#include "graph/joint_graph.h"
#include "model/qt_strings.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace remat::ui {

GraphPropertiesDialog::GraphPropertiesDialog(const JointGraph& graph, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("GraphPropertiesDialog"));
    setWindowTitle(tr("Graph Properties — %1").arg(QFileInfo(toQString(graph.filePath())).fileName()));
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    for (const ProvenanceRow& row : describeProvenance(graph)) {
        auto* text = new QLabel(toQString(row.text));
        text->setObjectName(toQString(row.label));
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        text->setFixedWidth(560);
        form->addRow(toQString(row.label) + QLatin1Char(':'), text);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    // Wrapped labels get the height their width needs (a free-sizing form clipped the last line).
    layout->setSizeConstraint(QLayout::SetFixedSize);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

} // namespace remat::ui
