// SPDX-License-Identifier: MIT
#include "document/tag_command.h"

namespace remat::ui {

TagCommand::TagCommand(GraphDocument* document, std::vector<GraphDocument::TagChange> before,
    std::vector<GraphDocument::TagChange> after, const QString& text)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
{ }

void TagCommand::undo()
{
    m_document->applyOverrides(m_before);
}

void TagCommand::redo()
{
    m_document->applyOverrides(m_after);
}

} // namespace remat::ui
