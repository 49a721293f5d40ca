// SPDX-License-Identifier: MIT
#include "canvas/empty_canvas.h"

#include <QFileInfo>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

namespace remat::ui {

namespace {
constexpr int kRecentShown = 6;
}

EmptyCanvas::EmptyCanvas(QWidget* parent)
    : QWidget(parent)
    , m_recent(new QWidget(this))
    , m_recentLayout(new QVBoxLayout(m_recent))
{
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    auto* title = new QLabel(tr("No graph is open"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    title->setFont(big);
    layout->addWidget(title, 0, Qt::AlignHCenter);
    auto* hint = new QLabel(tr("A joint graph (JSON) or a printed FX graph; or drop a file here."), this);
    hint->setStyleSheet(QStringLiteral("color: #555"));
    layout->addWidget(hint, 0, Qt::AlignHCenter);
    auto* open = new QPushButton(tr("Open a graph…"), this);
    open->setObjectName(QStringLiteral("openGraph"));
    open->setDefault(true);
    connect(open, &QPushButton::clicked, this, &EmptyCanvas::openRequested);
    layout->addSpacing(8);
    layout->addWidget(open, 0, Qt::AlignHCenter);
    layout->addSpacing(16);
    m_recentLayout->setContentsMargins(0, 0, 0, 0);
    m_recentLayout->setSpacing(2);
    layout->addWidget(m_recent, 0, Qt::AlignHCenter);
    layout->addStretch(3);
    setAutoFillBackground(false);
}

void EmptyCanvas::setRecentFiles(const QStringList& files)
{
    while (QLayoutItem* item = m_recentLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int shown = 0;
    for (const QString& path : files) {
        if (shown == kRecentShown || !QFileInfo::exists(path))
            continue;
        if (shown++ == 0)
            m_recentLayout->addWidget(new QLabel(tr("Recent files"), m_recent), 0, Qt::AlignHCenter);
        auto* button = new QPushButton(QFileInfo(path).fileName(), m_recent);
        button->setFlat(true);
        button->setCursor(Qt::PointingHandCursor);
        button->setToolTip(path);
        button->setStyleSheet(QStringLiteral("color: #1f6fe5; text-decoration: underline"));
        connect(button, &QPushButton::clicked, this, [this, path] { Q_EMIT recentRequested(path); });
        m_recentLayout->addWidget(button, 0, Qt::AlignHCenter);
    }
    m_recent->setVisible(shown > 0);
}

void EmptyCanvas::paintEvent(QPaintEvent*)
{
    QPainter(this).fillRect(rect(), Qt::white); // covers the (empty) canvas and its overlays
}

} // namespace remat::ui
