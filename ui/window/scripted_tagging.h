// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>
#include <QTimer>

namespace remat::ui {

class MainWindow;

/// `--tag NAME=POLICY ...` in a window: once the graph is open, each tag is applied as the user's
/// edit (the node selected, then tagged: undoable, re-partitioned, autosaved), `delayMs` apart.
/// Scripts a tagging session, e.g. to check what survives a crash in the middle of one.
class ScriptedTagging : public QObject {
    Q_OBJECT
public:
    ScriptedTagging(MainWindow* window, QStringList specs, int delayMs);

private:
    void tagNext();

    MainWindow* m_window;
    QStringList m_specs;
    QTimer m_timer;
};

} // namespace remat::ui
