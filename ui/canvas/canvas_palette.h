// SPDX-License-Identifier: MIT
#pragma once

#include "graph/node.h"
#include "model/graph_regions.h"

#include <QColor>
#include <QString>

#include <vector>

namespace remat::ui {

/// The canvas colours. Regions get pale fills so that the strong decision colours (saved,
/// recomputed) stand out even when nodes are a few pixels wide.
struct CanvasPalette {
    QColor primal;
    QColor tangent;
    QColor forward;
    QColor backward;
    QColor unclaimed;
    QColor saved;
    QColor recomputed;
    QColor banned;
    QColor tagSave;
    QColor tagRecompute;
    QColor tagOffload;
    QColor edgeForward;
    QColor edgeBackward;
    QColor edgeAcross;
    QColor producers;
    QColor consumers;
    QColor selection;
    QColor referenceOnly;
    QColor planAOnly; ///< plan comparison: saved by A only
    QColor planBOnly; ///< saved by B only
    QColor planBoth; ///< saved by both
    QColor flash; ///< nodes a what-if changes

    static CanvasPalette defaults();
    QColor regionFill(Region region) const;
    /// The colour of a recompute tag: save, recompute or CPU offload.
    QColor tagColour(CheckpointPolicy tag) const;

    /// The editable entries, for the settings and the preferences dialog.
    struct Entry {
        const char* key;
        QString label;
        QColor CanvasPalette::*member;
    };
    static const std::vector<Entry>& entries();
};

} // namespace remat::ui
