// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_palette.h"
#include "graph/node.h"

#include <QObject>

#include <optional>
#include <vector>

class QAction;
class QMenu;

namespace remat::ui {

/// The tagging actions (Must save S, Prefer save Shift+S, Must recompute R, Prefer recompute
/// Shift+R, Clear X), with drawn icons in the canvas's tag colours.
class TagActions : public QObject {
    Q_OBJECT
public:
    explicit TagActions(QObject* parent);

    const std::vector<QAction*>& actions() const { return m_actions; }
    void addTo(QMenu* menu) const;
    void setPalette(const CanvasPalette& palette);
    void setEnabled(bool enabled);

Q_SIGNALS:
    /// nullopt: clear the tag.
    void tagRequested(std::optional<CheckpointPolicy> policy);

private:
    std::vector<QAction*> m_actions;
    std::vector<std::optional<CheckpointPolicy>> m_policies;
};

} // namespace remat::ui
