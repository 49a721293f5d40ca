// SPDX-License-Identifier: MIT
#include "teaching/teaching_window.h"

#include "model/thread_handoff.h"
#include "teaching/dot_renderer.h"

#include <QGraphicsScene>
#include <QGraphicsSvgItem>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSvgRenderer>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>

namespace remat::ui {
namespace {

/// The smallest scale at which the pictures' 10-point text can still be read, and the largest a
/// small picture is blown up to.
constexpr double kLegibleScale = 0.65;
constexpr double kLargestScale = 1.5;

/// Wheel zooms at the cursor, drag pans: big networks need both.
class ZoomingView : public QGraphicsView {
public:
    using QGraphicsView::QGraphicsView;

protected:
    void wheelEvent(QWheelEvent* event) override
    {
        const double factor = event->angleDelta().y() > 0 ? 1.2 : 1 / 1.2;
        setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
        scale(factor, factor);
    }
};

} // namespace

TeachingWindow::TeachingWindow(QWidget* parent)
    : QDialog(parent)
    , m_steps(new QListWidget(this))
    , m_scope(new QLabel(this))
    , m_text(new QLabel(this))
    , m_scene(new QGraphicsScene(this))
    , m_view(new ZoomingView(m_scene, this))
    , m_previous(new QPushButton(tr("◂ Previous"), this))
    , m_next(new QPushButton(tr("Next ▸"), this))
    , m_renderer(new DotRenderer(this))
{
    setObjectName(QStringLiteral("TeachingWindow"));
    setWindowTitle(tr("How the Min-Cut Decides — Remat Explorer"));
    setWindowFlag(Qt::WindowMaximizeButtonHint);
    resize(1250, 820);
    m_steps->setMaximumWidth(260);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setMinimumHeight(80);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_view->setDragMode(QGraphicsView::ScrollHandDrag);
    m_view->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    m_view->setBackgroundBrush(Qt::white);

    auto* left = new QVBoxLayout;
    left->addWidget(m_steps, 1);
    left->addWidget(m_scope);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    auto* right = new QVBoxLayout;
    right->addWidget(m_text);
    right->addWidget(m_view, 1);
    right->addLayout(buttons);
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(left);
    layout->addLayout(right, 1);

    connect(m_steps, &QListWidget::currentRowChanged, this, &TeachingWindow::showStep);
    connect(
        m_previous, &QPushButton::clicked, this, [this] { m_steps->setCurrentRow(std::max(m_step - 1, 0)); });
    connect(m_next, &QPushButton::clicked, this, [this] {
        if (m_lesson)
            m_steps->setCurrentRow(std::min(m_step + 1, static_cast<int>(m_lesson->steps.size()) - 1));
    });
    connect(&m_watcher, &QFutureWatcher<LessonPtr>::finished, this, &TeachingWindow::onLessonReady);
    connect(m_renderer, &DotRenderer::rendered, this, &TeachingWindow::onRendered);
    connect(m_renderer, &DotRenderer::failed, this, [this](int step, const QString& message) {
        if (step == m_step)
            m_text->setText(
                stepText() + QStringLiteral("<p style='color:#b00000'>%1</p>").arg(message.toHtmlEscaped()));
    });
}

void TeachingWindow::teach(
    LoadedGraphPtr graph, const PartitionOptions& options, const std::vector<NodeId>& region)
{
    m_lesson.reset();
    m_pictures.clear();
    m_step = -1;
    m_shownStep = -1;
    m_steps->clear();
    m_scene->clear();
    m_text->setText(tr("Building the flow network and cutting it…"));
    m_lessonPending = true;
    m_watcher.setFuture(
        runConcurrently([graph, options, region] { return buildLesson(graph, options, region); }));
}

void TeachingWindow::onLessonReady()
{
    m_lessonPending = false;
    m_lesson = m_watcher.result();
    if (!m_lesson->error.isEmpty()) {
        m_text->setText(tr("<b>No lesson for this graph:</b> %1").arg(m_lesson->error.toHtmlEscaped()));
        return;
    }
    m_scope->setText(tr("Drawing %1 (%2 rules).").arg(m_lesson->scope, m_lesson->rules));
    for (const LessonStep& step : m_lesson->steps)
        m_steps->addItem(step.title);
    m_steps->setCurrentRow(0);
}

bool TeachingWindow::isBusy() const
{
    return m_lessonPending || m_renderer->isBusy();
}

QString TeachingWindow::stepText() const
{
    if (!m_lesson || m_step < 0)
        return {};
    const LessonStep& step = m_lesson->steps[static_cast<std::size_t>(m_step)];
    return QStringLiteral("<h3>%1</h3><p>%2</p>").arg(step.title.toHtmlEscaped(), step.text);
}

void TeachingWindow::showStep(int step)
{
    if (!m_lesson || step < 0 || step >= static_cast<int>(m_lesson->steps.size()))
        return;
    m_step = step;
    {
        const QSignalBlocker quiet(m_steps); // the list follows Next, Previous and --teach too
        m_steps->setCurrentRow(step);
    }
    m_previous->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < static_cast<int>(m_lesson->steps.size()));
    m_text->setText(stepText());
    if (auto it = m_pictures.find(step); it != m_pictures.end()) {
        showPicture(it->second);
        m_shownStep = step;
        return;
    }
    m_scene->clear();
    m_renderer->render(step, m_lesson->steps[static_cast<std::size_t>(step)].dot);
}

void TeachingWindow::onRendered(int step, const QByteArray& svg)
{
    m_pictures[step] = svg;
    if (step == m_step) {
        showPicture(svg);
        m_shownStep = step;
    }
}

void TeachingWindow::showPicture(const QByteArray& svg)
{
    m_scene->clear();
    auto* renderer = new QSvgRenderer(svg, m_scene);
    auto* item = new QGraphicsSvgItem;
    item->setSharedRenderer(renderer);
    m_scene->addItem(item);
    m_scene->setSceneRect(item->boundingRect());
    m_view->resetTransform();
    // The whole picture if its text stays legible, else its whole width, else legible text and
    // scrolling: at a third of its size (the old floor) a network of a hundred nodes was a grey strip.
    const QRectF picture = item->boundingRect();
    const QSize viewport = m_view->viewport()->size();
    const double wholeWidth = viewport.width() / picture.width();
    const double whole = std::min(wholeWidth, viewport.height() / picture.height());
    const double scale = whole >= kLegibleScale ? std::min(whole, kLargestScale)
                                                : std::clamp(wholeWidth, kLegibleScale, 1.0);
    m_view->setTransform(QTransform::fromScale(scale, scale));
    // A picture larger than the view starts at its top, where the story starts (the inputs, the
    // source), not in its middle; a tall one (a network drawn left to right) at its left too.
    const double visibleWidth = viewport.width() / scale;
    const double visibleHeight = viewport.height() / scale;
    const double x
        = picture.height() > picture.width() ? picture.left() + visibleWidth / 2 : picture.center().x();
    m_view->centerOn(x, picture.top() + visibleHeight / 2);
}

} // namespace remat::ui
