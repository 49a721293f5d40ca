// SPDX-License-Identifier: MIT
#include "layout/view_layout.h"

#include "layout/composed_layout.h"
#include "layout/graphviz_layout.h"

#include <QElapsedTimer>

namespace remat::ui {
namespace {

double secondsOf(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) * 1e-9;
}

/// Lays out `requests` in worker children, or one after another in this process when there is
/// no worker program (then `stale` is only checked between requests).
std::optional<std::vector<LayoutResult>> layoutAll(const std::vector<LayoutRequest>& requests,
    const ViewLayoutOptions& options, const CancelCheck& stale, const ProgressTick& tick)
{
    if (!options.workerProgram.isEmpty())
        return layoutInChildren(options.workerProgram, requests, options.parallel, stale, tick);
    std::vector<LayoutResult> results;
    for (const LayoutRequest& r : requests) {
        if (stale())
            return std::nullopt;
        results.push_back(layoutWithGraphviz(r));
    }
    return results;
}

} // namespace

std::optional<LayoutResult> layoutView(const LoadedGraph& graph, const ViewGraph& view,
    const LayoutRequest& request, LayoutCache& cache, const ViewLayoutOptions& options,
    const CancelCheck& stale, const std::function<void(const QString&)>& progress, ViewLayoutReport& report)
{
    if (auto cached = cache.find(request, &report.note)) {
        report.cached = true;
        return cached;
    }
    QElapsedTimer clock;
    clock.start();
    const bool compose = options.composeBlocks && shouldCompose(view);
    ComposedPlan plan;
    std::vector<LayoutRequest> toLayOut;
    std::vector<std::optional<LayoutResult>> shapes;
    if (compose) {
        plan = planComposedLayout(graph, view, request);
        for (const LayoutRequest& shape : plan.shapes) {
            QString note;
            shapes.push_back(cache.find(shape, &note));
            if (!shapes.back())
                toLayOut.push_back(shape);
            if (!note.isEmpty())
                report.note = note;
        }
    } else if (request.boxes.size() > kFramedUpTo && !request.clusters.empty()) {
        // Frames make dot crawl on big pictures: lay out without them, frame afterwards.
        LayoutRequest unframed = request;
        unframed.clusters.clear();
        for (LayoutBox& box : unframed.boxes)
            box.cluster = -1;
        toLayOut.push_back(std::move(unframed));
    } else {
        toLayOut.push_back(request);
    }

    const QString what = compose
        ? QStringLiteral("Laying out %1 groups (%2 distinct shapes, %3 not cached) with Graphviz")
              .arg(plan.units.size())
              .arg(plan.shapes.size())
              .arg(toLayOut.size())
        : QStringLiteral("Laying out %1 boxes and %2 edges with Graphviz")
              .arg(request.boxes.size())
              .arg(request.links.size());
    progress(what + QStringLiteral("…"));
    auto fresh = layoutAll(toLayOut, options, stale, [&](double seconds, std::size_t done) {
        QString text = QStringLiteral("%1… %2 s").arg(what).arg(seconds, 0, 'f', 1);
        if (toLayOut.size() > 1)
            text += QStringLiteral(" (%1 of %2 done)").arg(done).arg(toLayOut.size());
        progress(text);
    });
    if (!fresh)
        return std::nullopt;

    LayoutResult layout;
    if (compose) {
        std::vector<LayoutResult> shapeLayouts;
        std::size_t next = 0;
        for (std::size_t s = 0; s < shapes.size(); ++s) {
            if (!shapes[s]) {
                cache.store(plan.shapes[s], (*fresh)[next]);
                shapes[s] = std::move((*fresh)[next++]);
            }
            shapeLayouts.push_back(std::move(*shapes[s]));
        }
        layout = composeLayout(plan, request, shapeLayouts);
        layout.engine = QStringLiteral("dot per group, %1 shapes for %2 groups")
                            .arg(plan.shapes.size())
                            .arg(plan.units.size());
    } else {
        layout = std::move(fresh->front());
        if (layout.clusters.size() != request.clusters.size())
            fitFrames(request, layout);
    }
    layout.seconds = secondsOf(clock); // the whole wait: worker start, Graphviz, composing
    layout.fromCache = false;
    cache.store(request, layout);
    return layout;
}

} // namespace remat::ui
