// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QLineEdit;

namespace remat::ui {

/// After "Plan and Python script…": where the two files went, and the command that runs the
/// script, ready to copy.
class ScriptDialog : public QDialog {
    Q_OBJECT
public:
    ScriptDialog(const QString& planPath, const QString& scriptPath, QWidget* parent = nullptr);
    QString command() const;

private:
    QLineEdit* m_command;
};

} // namespace remat::ui
