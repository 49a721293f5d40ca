// SPDX-License-Identifier: MIT
#pragma once

#include "model/loaded_graph.h"
#include "partition/partition_result.h"
#include "teaching/min_cut_lesson.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace remat::ui {

/// One step of the min-cut lesson: a title, a few sentences a student can follow, and the picture
/// as Graphviz DOT.
struct LessonStep {
    QString title;
    QString text;
    QString dot;
};

/// The whole lesson for one graph (or a region of it): joint graph → bans → network → cut →
/// forward and backward graphs, all from the core's own data.
struct Lesson {
    QString error; ///< the lesson could not be built
    QString scope; ///< "all 49 nodes", "the 120 selected nodes of 17 048"
    QString rules; ///< "torch-1.13", "torch-2.14": the document's, as the canvas's plan
    std::vector<LessonStep> steps;
};
using LessonPtr = std::shared_ptr<const Lesson>;

/// Most nodes a lesson draws: a bigger network is unreadable (and slow for dot).
constexpr std::size_t kLessonMaxNodes = 300;

/// Prepares the graph with `options` (their rules, and the min-cut partitioner whatever they name:
/// it is what the lesson teaches), cuts it and writes the five steps. `region` empty: the whole graph (which
/// must be small enough). Never throws: failures come back in `error`.
LessonPtr buildLesson(
    const LoadedGraphPtr& graph, PartitionOptions options, const std::vector<NodeId>& region);

} // namespace remat::ui
