// SPDX-License-Identifier: MIT
#include "canvas/canvas_palette.h"

namespace remat::ui {

CanvasPalette CanvasPalette::defaults()
{
    CanvasPalette p;
    p.primal = QColor(0xe3, 0xec, 0xd6);
    p.tangent = QColor(0xeb, 0xde, 0xf3);
    p.forward = QColor(0xd8, 0xe7, 0xf6);
    p.backward = QColor(0xfb, 0xe2, 0xcc);
    p.unclaimed = QColor(0xec, 0xe9, 0xe2);
    p.saved = QColor(0x1a, 0x98, 0x50);
    p.recomputed = QColor(0x88, 0x3a, 0xb8);
    p.banned = QColor(0xd7, 0x30, 0x27);
    p.tagSave = QColor(0x00, 0x6d, 0x2c);
    p.tagRecompute = QColor(0xe6, 0x6b, 0x00);
    p.tagOffload = QColor(0x00, 0x97, 0xa7); // cyan: apart from save green and recompute orange
    p.edgeForward = QColor(0x5b, 0x7f, 0xa8);
    p.edgeBackward = QColor(0xc0, 0x84, 0x55);
    p.edgeAcross = QColor(0x9a, 0x9a, 0x9a);
    p.producers = QColor(0x1f, 0x6f, 0xe5);
    p.consumers = QColor(0xe5, 0x4f, 0x1f);
    p.selection = QColor(0x10, 0x10, 0x10);
    p.referenceOnly = QColor(0xf0, 0xb4, 0x00);
    p.planAOnly = QColor(0x2f, 0x6f, 0xd6);
    p.planBOnly = QColor(0xf2, 0x8e, 0x1c);
    p.planBoth = QColor(0x7a, 0x9a, 0x7a);
    p.flash = QColor(0xff, 0x00, 0xc8);
    return p;
}

QColor CanvasPalette::regionFill(Region region) const
{
    switch (region) {
    case Region::Primal:
        return primal;
    case Region::Tangent:
        return tangent;
    case Region::Forward:
        return forward;
    case Region::Backward:
        return backward;
    case Region::Unclaimed:
    case Region::Output:
        return unclaimed;
    }
    return unclaimed;
}

QColor CanvasPalette::tagColour(CheckpointPolicy tag) const
{
    switch (tag) {
    case CheckpointPolicy::MustSave:
    case CheckpointPolicy::PreferSave:
        return tagSave;
    case CheckpointPolicy::MustCpuOffload:
    case CheckpointPolicy::PreferCpuOffload:
        return tagOffload;
    case CheckpointPolicy::MustRecompute:
    case CheckpointPolicy::PreferRecompute:
    case CheckpointPolicy::None:
        break;
    }
    return tagRecompute;
}

const std::vector<CanvasPalette::Entry>& CanvasPalette::entries()
{
    static const std::vector<Entry> list = {
        {"primal", QStringLiteral("Primal inputs"), &CanvasPalette::primal},
        {"tangent", QStringLiteral("Tangents"), &CanvasPalette::tangent},
        {"forward", QStringLiteral("Forward"), &CanvasPalette::forward},
        {"backward", QStringLiteral("Backward"), &CanvasPalette::backward},
        {"unclaimed", QStringLiteral("Unclaimed (backward-only, from primals)"), &CanvasPalette::unclaimed},
        {"saved", QStringLiteral("Saved for the backward"), &CanvasPalette::saved},
        {"recomputed", QStringLiteral("Recomputed in the backward"), &CanvasPalette::recomputed},
        {"banned", QStringLiteral("Banned from recomputation"), &CanvasPalette::banned},
        {"tagSave", QStringLiteral("Tag: save"), &CanvasPalette::tagSave},
        {"tagRecompute", QStringLiteral("Tag: recompute"), &CanvasPalette::tagRecompute},
        {"tagOffload", QStringLiteral("Tag: CPU offload"), &CanvasPalette::tagOffload},
        {"edgeForward", QStringLiteral("Forward edges"), &CanvasPalette::edgeForward},
        {"edgeBackward", QStringLiteral("Backward edges"), &CanvasPalette::edgeBackward},
        {"edgeAcross", QStringLiteral("Forward-to-backward edges"), &CanvasPalette::edgeAcross},
        {"producers", QStringLiteral("Producers of the selection"), &CanvasPalette::producers},
        {"consumers", QStringLiteral("Consumers of the selection"), &CanvasPalette::consumers},
        {"referenceOnly", QStringLiteral("Saved only by PyTorch's reference"), &CanvasPalette::referenceOnly},
        {"planAOnly", QStringLiteral("Compare: saved by plan A only"), &CanvasPalette::planAOnly},
        {"planBOnly", QStringLiteral("Compare: saved by plan B only"), &CanvasPalette::planBOnly},
        {"planBoth", QStringLiteral("Compare: saved by both plans"), &CanvasPalette::planBoth},
        {"flash", QStringLiteral("What-if: nodes that change"), &CanvasPalette::flash},
    };
    return list;
}

} // namespace remat::ui
