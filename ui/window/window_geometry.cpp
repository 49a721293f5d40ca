// SPDX-License-Identifier: MIT
#include "window/window_geometry.h"

#include <QEvent>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace remat::ui {

QRect fitInside(const QRect& window, const QRect& available)
{
    const QSize size = window.size().boundedTo(available.size());
    const int x = std::clamp(window.x(), available.x(), available.x() + available.width() - size.width());
    const int y = std::clamp(window.y(), available.y(), available.y() + available.height() - size.height());
    return {QPoint(x, y), size};
}

namespace {

void fitOnScreen(QWidget* window)
{
    if (window->isMaximized() || window->isFullScreen())
        return;
    // The screen under the window's centre; one restored off every screen goes to the primary.
    QScreen* screen = QGuiApplication::screenAt(window->geometry().center());
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen)
        return;
    // The frame (title bar, borders) must fit too; it is known once the window has been shown.
    const QRect frame = window->frameGeometry();
    const QRect client = window->geometry();
    const QMargins margins(client.left() - frame.left(), client.top() - frame.top(),
        frame.right() - client.right(), frame.bottom() - client.bottom());
    const QRect fitted = fitInside(client, screen->availableGeometry().marginsRemoved(margins));
    if (fitted != client)
        window->setGeometry(fitted);
}

/// Fits the window again once it is shown, when its frame is known, unless it was given another
/// geometry meanwhile (a headless run's --size is not the screen's business).
class FitWhenShown : public QObject {
public:
    explicit FitWhenShown(QWidget* window)
        : QObject(window)
        , m_fitted(window->geometry())
    { }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show) {
            auto* window = static_cast<QWidget*>(watched);
            if (window->geometry() == m_fitted)
                QTimer::singleShot(0, window, [window] { fitOnScreen(window); });
            deleteLater();
        }
        return false;
    }

private:
    QRect m_fitted;
};

} // namespace

void keepOnScreen(QWidget* window)
{
    fitOnScreen(window);
    if (!window->isVisible())
        window->installEventFilter(new FitWhenShown(window));
}

namespace {

/// Scrolls up and down only: as wide as its content needs, as short as a screen wants. Once the
/// scroll bar has been needed its width is kept, so that showing it never hides the content's edge
/// (and never makes the width flip back and forth as labels rewrap).
class VerticalScrollArea : public QScrollArea {
public:
    explicit VerticalScrollArea(QWidget* parent)
        : QScrollArea(parent)
    {
        connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int maximum) {
            if (maximum > 0 && !m_scrolled && isVisible()) { // not while a hidden window is laid out
                m_scrolled = true;
                updateGeometry();
            }
        });
    }

    QSize minimumSizeHint() const override
    {
        return {
            widget()->minimumSizeHint().width() + scrollBarWidth(), QScrollArea::minimumSizeHint().height()};
    }
    QSize sizeHint() const override { return widget()->sizeHint() + QSize(scrollBarWidth(), 0); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // Content that grows (the budget controls appear) must widen the dock, not be cut at its
        // edge: QScrollArea reads the content's size hints once, so pass the change on.
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::eventFilter(watched, event);
    }

private:
    int scrollBarWidth() const { return m_scrolled ? verticalScrollBar()->sizeHint().width() : 0; }

    bool m_scrolled = false;
};

} // namespace

QWidget* scrollableWhenShort(QWidget* content)
{
    auto* area = new VerticalScrollArea(content->parentWidget());
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidgetResizable(true);
    area->setWidget(content);
    return area;
}

} // namespace remat::ui
