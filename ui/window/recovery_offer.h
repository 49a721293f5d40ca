// SPDX-License-Identifier: MIT
#pragma once

#include "document/graph_document.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace remat::ui {

/// How the autosaved work of an interrupted session differs from the project it began with.
struct RecoveredWork {
    int tags = 0; ///< tags in the autosaved project
    int tagsBefore = 0; ///< tags when that session began (what Discard goes back to)
    int added = 0;
    int changed = 0;
    int removed = 0;
    bool settingsChanged = false; ///< the partitioner settings differ too
    QStringList details; ///< one line per changed tag: "+ name POLICY", "~ ...", "- ..."
};
RecoveredWork recoveredWork(const InterruptedSession& session);

/// The offer in words: whose work, when it was autosaved, what Restore keeps and Discard drops.
QString recoveryHeadline(const InterruptedSession& session);
QString recoveryExplanation(const InterruptedSession& session);

/// The dialog: Restore (the default, and what Escape does: nothing is lost) or Discard; Later when
/// it closes unanswered (the app quits meanwhile).
RecoveryChoice askToRestore(QWidget* parent, const InterruptedSession& session);

/// What the app answers an interrupted session with: `answer` "yes" or "no" answers at once and
/// prints what it did; "ask" shows the dialog over `window` when `interactive`, else prints a
/// note and leaves the choice for later.
GraphDocument::RecoveryHandler recoveryHandler(QWidget* window, const QString& answer, bool interactive);

} // namespace remat::ui
