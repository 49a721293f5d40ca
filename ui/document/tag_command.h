// SPDX-License-Identifier: MIT
#pragma once

#include "document/graph_document.h"

#include <QUndoCommand>

namespace remat::ui {

/// Tags or clears a set of nodes; undo restores each node's previous override.
class TagCommand final : public QUndoCommand {
public:
    TagCommand(GraphDocument* document, std::vector<GraphDocument::TagChange> before,
        std::vector<GraphDocument::TagChange> after, const QString& text);
    void undo() override;
    void redo() override;

private:
    GraphDocument* m_document;
    std::vector<GraphDocument::TagChange> m_before;
    std::vector<GraphDocument::TagChange> m_after;
};

} // namespace remat::ui
