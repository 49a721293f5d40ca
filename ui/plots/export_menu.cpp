// SPDX-License-Identifier: MIT
#include "plots/export_menu.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace remat::ui {

void fillExportMenu(QMenu* menu, QWidget* dialogParent, const QString& suggestedBase, bool enabled,
    const std::function<QString(const QString&)>& exportTo, const std::function<void(const QString&)>& done)
{
    menu->clear();
    struct Kind {
        QString text, filter, suffix;
    };
    const Kind kinds[] = {
        {QMenu::tr("Plot as PNG…"), QMenu::tr("PNG image (*.png)"), QStringLiteral("png")},
        {QMenu::tr("Plot as SVG…"), QMenu::tr("SVG drawing (*.svg)"), QStringLiteral("svg")},
        {QMenu::tr("Plot as PDF…"), QMenu::tr("PDF document (*.pdf)"), QStringLiteral("pdf")},
        {QMenu::tr("Data as CSV…"), QMenu::tr("CSV (*.csv)"), QStringLiteral("csv")},
    };
    for (const Kind& kind : kinds) {
        QAction* action = menu->addAction(kind.text, dialogParent, [=] {
            const QString path = QFileDialog::getSaveFileName(dialogParent, QMenu::tr("Export"),
                suggestedBase + QLatin1Char('.') + kind.suffix, kind.filter);
            if (path.isEmpty())
                return;
            if (const QString error = exportTo(path); !error.isEmpty())
                QMessageBox::warning(dialogParent, QMenu::tr("Export failed"), error);
            else
                done(QMenu::tr("Saved %1").arg(path));
        });
        action->setEnabled(enabled);
    }
}

} // namespace remat::ui
