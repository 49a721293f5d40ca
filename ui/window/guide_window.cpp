// SPDX-License-Identifier: MIT
#include "window/guide_window.h"

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace remat::ui {

GuideWindow::GuideWindow(QWidget* parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("GuideWindow"));
    setWindowTitle(tr("Remat Explorer Guide"));
    resize(760, 720);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_browser->setOpenExternalLinks(true);
    m_browser->setSource(QUrl(QStringLiteral("qrc:/guide/guide.html")));
}

void GuideWindow::showTopic(const QString& anchor)
{
    if (anchor.isEmpty())
        m_browser->scrollToAnchor(QStringLiteral("tour"));
    else
        m_browser->scrollToAnchor(anchor);
}

void showGuideTopic(QWidget* parent, const QString& anchor)
{
    QWidget* top = parent ? parent->window() : nullptr;
    auto* guide = top ? top->findChild<GuideWindow*>() : nullptr;
    if (!guide)
        guide = new GuideWindow(top);
    guide->show();
    guide->raise();
    guide->showTopic(anchor);
}

} // namespace remat::ui
