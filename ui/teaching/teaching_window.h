// SPDX-License-Identifier: MIT
#pragma once

#include "teaching/lesson.h"

#include <QDialog>
#include <QFutureWatcher>

#include <map>

class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QListWidget;
class QPushButton;

namespace remat::ui {

class DotRenderer;

/// Teaches the min-cut on the open graph (or on the selected region of a big one), step by step:
/// the joint graph and its classes, the bans and why, the flow network, the max-flow / min-cut,
/// and the forward and backward graphs it yields. Pictures are laid out by Graphviz's dot.
class TeachingWindow : public QDialog {
    Q_OBJECT
public:
    explicit TeachingWindow(QWidget* parent = nullptr);

    /// Builds the lesson off the GUI thread; `region` empty means the whole graph.
    void teach(LoadedGraphPtr graph, const PartitionOptions& options, const std::vector<NodeId>& region);
    void showStep(int step);
    int currentStep() const { return m_step; }
    LessonPtr lesson() const { return m_lesson; }
    /// True once the current step's picture is on screen.
    bool pictureShown() const { return m_shownStep == m_step && m_step >= 0; }
    QString stepText() const;
    /// The lesson is being built or a picture rendered.
    bool isBusy() const;

private:
    void onLessonReady();
    void onRendered(int step, const QByteArray& svg);
    void showPicture(const QByteArray& svg);

    QListWidget* m_steps;
    QLabel* m_scope;
    QLabel* m_text;
    QGraphicsScene* m_scene;
    QGraphicsView* m_view;
    QPushButton* m_previous;
    QPushButton* m_next;
    DotRenderer* m_renderer;
    QFutureWatcher<LessonPtr> m_watcher;
    // From teach() until onLessonReady() has run: the watcher stops running before its finished
    // signal arrives, and a caller waiting on isBusy() would find no lesson in between.
    bool m_lessonPending = false;
    LessonPtr m_lesson;
    std::map<int, QByteArray> m_pictures; ///< per step, once rendered
    int m_step = -1;
    int m_shownStep = -1;
};

} // namespace remat::ui
