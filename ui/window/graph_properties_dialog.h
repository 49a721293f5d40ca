// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

namespace remat {
class JointGraph;
}

namespace remat::ui {

/// File > Graph Properties: where the open graph comes from and what that settles (producer,
/// description, the rules it opens under and why, static inputs, PyTorch's recorded decisions),
/// as selectable text. What `remat-explorer info` prints about the source, in the app.
class GraphPropertiesDialog : public QDialog {
    Q_OBJECT
public:
    explicit GraphPropertiesDialog(const JointGraph& graph, QWidget* parent = nullptr);
};

} // namespace remat::ui
