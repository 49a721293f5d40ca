// SPDX-License-Identifier: MIT
#include "canvas/busy_overlay.h"

#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace remat::ui {

BusyOverlay::BusyOverlay(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_stage(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(22, 18, 22, 18);
    QFont title = m_title->font();
    title.setBold(true);
    title.setPointSizeF(title.pointSizeF() * 1.15);
    m_title->setFont(title);
    m_stage->setWordWrap(true);
    m_bar->setRange(0, 1000); // tenths of a percent, like heaptrack
    m_bar->setTextVisible(false);
    layout->addWidget(m_title);
    layout->addWidget(m_stage);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel, 0, Qt::AlignRight);
    connect(m_cancel, &QPushButton::clicked, this, &BusyOverlay::cancelRequested);
    setFixedWidth(440);
    // Opaque, so that its animated progress bar does not make the canvas below repaint.
    setAttribute(Qt::WA_OpaquePaintEvent);
    hide();
}

void BusyOverlay::start(const QString& title)
{
    m_clock.start();
    m_title->setText(title);
    m_stage->clear();
    m_bar->setRange(0, 0);
    show();
    raise();
}

void BusyOverlay::setStage(const QString& stage, int permille)
{
    const double seconds = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0;
    m_stage->setText(seconds >= 0.5 ? tr("%1 (%2 s)").arg(stage).arg(seconds, 0, 'f', 1) : stage);
    if (permille < 0) {
        m_bar->setRange(0, 0);
    } else {
        m_bar->setRange(0, 1000);
        m_bar->setValue(permille);
    }
}

void BusyOverlay::finish()
{
    hide();
}

void BusyOverlay::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    p.setPen(palette().mid().color());
    p.drawRect(rect().adjusted(0, 0, -1, -1));
}

} // namespace remat::ui
