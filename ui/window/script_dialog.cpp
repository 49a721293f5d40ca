// SPDX-License-Identifier: MIT
#include "window/script_dialog.h"

#include "document/plan_export.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace remat::ui {

ScriptDialog::ScriptDialog(const QString& planPath, const QString& scriptPath, QWidget* parent)
    : QDialog(parent)
    , m_command(new QLineEdit(scriptCommand(scriptPath), this))
{
    setWindowTitle(tr("Plan and Python Script"));
    auto* layout = new QVBoxLayout(this);
    auto* files = new QLabel(
        tr("Wrote the plan <b>%1</b><br>and the script <b>%2</b>,<br>which runs one training step of "
           "the model with this plan. Run it with:")
            .arg(QDir::toNativeSeparators(planPath).toHtmlEscaped(),
                QDir::toNativeSeparators(scriptPath).toHtmlEscaped()),
        this);
    files->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(files);
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setMinimumWidth(m_command->fontMetrics().horizontalAdvance(m_command->text()) + 24);
    layout->addWidget(m_command);
    auto* note
        = new QLabel(tr("It needs torch and networkx (Debian: <code style='white-space:nowrap'>apt-get "
                        "install python3-torch python3-networkx</code>) "
                        "and prints “one training step with …” when done."),
            this);
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: #555"));
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("&Copy Command"), QDialogButtonBox::ActionRole);
    connect(
        copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_command->text()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_command->selectAll();
    m_command->setFocus();
}

QString ScriptDialog::command() const
{
    return m_command->text();
}

} // namespace remat::ui
