// SPDX-License-Identifier: MIT
#include "window/tag_actions.h"

#include <QAction>
#include <QGuiApplication>
#include <QIcon>
#include <QMenu>
#include <QPainter>
#include <QPixmap>

namespace remat::ui {
namespace {

/// A chip like the one on the canvas: filled for MUST_*, outlined for PREFER_*.
QIcon chipIcon(const QColor& colour, const QString& text, bool filled)
{
    QIcon icon;
    for (qreal dpr : {1.0, 2.0}) {
        QPixmap pixmap(QSize(32, 32) * dpr);
        pixmap.setDevicePixelRatio(dpr);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(colour, 2.5));
        p.setBrush(filled ? colour : QColor(Qt::white));
        p.drawRoundedRect(QRectF(2, 7, 28, 18), 4, 4);
        QFont f = QGuiApplication::font();
        f.setPixelSize(12);
        f.setBold(true);
        p.setFont(f);
        p.setPen(filled ? QColor(Qt::white) : colour);
        p.drawText(QRectF(2, 7, 28, 18), Qt::AlignCenter, text);
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

TagActions::TagActions(QObject* parent)
    : QObject(parent)
{
    struct Spec {
        QString text;
        QKeySequence key;
        std::optional<CheckpointPolicy> policy;
        QString tip;
    };
    const Spec specs[] = {
        {tr("Must &Save"), QKeySequence(Qt::Key_S), CheckpointPolicy::MustSave,
            tr("Always keep this value for the backward (MUST_SAVE)")},
        {tr("Prefer S&ave"), QKeySequence(Qt::SHIFT | Qt::Key_S), CheckpointPolicy::PreferSave,
            tr("Keep this value unless told otherwise (PREFER_SAVE)")},
        {tr("Must &Recompute"), QKeySequence(Qt::Key_R), CheckpointPolicy::MustRecompute,
            tr("Always recompute this in the backward (MUST_RECOMPUTE)")},
        {tr("Prefer Re&compute"), QKeySequence(Qt::SHIFT | Qt::Key_R), CheckpointPolicy::PreferRecompute,
            tr("Recompute this unless it must be saved (PREFER_RECOMPUTE)")},
        {tr("Must CPU &Offload"), QKeySequence(Qt::Key_O), CheckpointPolicy::MustCpuOffload,
            tr("Save this value on the host between forward and backward, with activation offloading on "
               "(MUST_CPU_OFFLOAD)")},
        {tr("Prefer CPU O&ffload"), QKeySequence(Qt::SHIFT | Qt::Key_O), CheckpointPolicy::PreferCpuOffload,
            tr("Offload this value unless told otherwise, with activation offloading on "
               "(PREFER_CPU_OFFLOAD)")},
        {tr("C&lear Tag"), QKeySequence(Qt::Key_X), std::nullopt,
            tr("Remove the tag (the file's own tag is overridden with none)")},
    };
    for (const Spec& spec : specs) {
        auto* action = new QAction(spec.text, this);
        action->setShortcut(spec.key);
        action->setToolTip(
            QStringLiteral("%1 (%2)").arg(spec.tip, spec.key.toString(QKeySequence::NativeText)));
        action->setStatusTip(spec.tip);
        const auto policy = spec.policy;
        connect(action, &QAction::triggered, this, [this, policy] { Q_EMIT tagRequested(policy); });
        m_actions.push_back(action);
        m_policies.push_back(spec.policy);
    }
    m_actions.back()->setShortcuts({QKeySequence(Qt::Key_X), QKeySequence(Qt::Key_Backspace)});
    setPalette(CanvasPalette::defaults());
}

void TagActions::addTo(QMenu* menu) const
{
    for (std::size_t i = 0; i < m_actions.size(); ++i) {
        if (i + 1 == m_actions.size())
            menu->addSeparator();
        menu->addAction(m_actions[i]);
    }
}

void TagActions::setPalette(const CanvasPalette& palette)
{
    const QString names[] = {QStringLiteral("MS"), QStringLiteral("PS"), QStringLiteral("MR"),
        QStringLiteral("PR"), QStringLiteral("MO"), QStringLiteral("PO"), QStringLiteral("–")};
    for (std::size_t i = 0; i < m_actions.size(); ++i) {
        const auto policy = m_policies[i];
        const bool must = policy == CheckpointPolicy::MustSave || policy == CheckpointPolicy::MustRecompute
            || policy == CheckpointPolicy::MustCpuOffload;
        const QColor colour = !policy ? QColor(0x77, 0x77, 0x77) : palette.tagColour(*policy);
        m_actions[i]->setIcon(chipIcon(colour, names[i], must));
    }
}

void TagActions::setEnabled(bool enabled)
{
    for (QAction* a : m_actions)
        a->setEnabled(enabled);
}

} // namespace remat::ui
