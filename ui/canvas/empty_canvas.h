// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QVBoxLayout;

namespace remat::ui {

/// What the canvas shows while no graph is open (none given, or the last one failed to load):
/// a button to open one and the recently opened files, instead of an empty picture and legend.
class EmptyCanvas : public QWidget {
    Q_OBJECT
public:
    explicit EmptyCanvas(QWidget* parent = nullptr);
    /// Most recent first; files that no longer exist are left out.
    void setRecentFiles(const QStringList& files);

Q_SIGNALS:
    void openRequested();
    void recentRequested(const QString& path);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QWidget* m_recent;
    QVBoxLayout* m_recentLayout;
};

} // namespace remat::ui
