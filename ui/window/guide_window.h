// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QTextBrowser;

namespace remat::ui {

/// Help > User Guide: a first tour, the glossary (banned, unclaimed, dist_from_bw, save-edge weight,
/// cut, memory ratio, ...) and the keys, bundled with the app. Panels link to glossary entries.
class GuideWindow : public QDialog {
    Q_OBJECT
public:
    explicit GuideWindow(QWidget* parent = nullptr);
    /// Scrolls to an entry ("banned", "memory-ratio"); empty: the top.
    void showTopic(const QString& anchor);
    QTextBrowser* browser() const { return m_browser; }

private:
    QTextBrowser* m_browser;
};

/// Opens (or raises) the guide of `parent`'s window at `anchor`.
void showGuideTopic(QWidget* parent, const QString& anchor);

} // namespace remat::ui
