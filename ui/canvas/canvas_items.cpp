// SPDX-License-Identifier: MIT
#include "canvas/canvas_items.h"

#include "canvas/canvas_metrics.h"
#include "canvas/far_out_painting.h"
#include "model/node_text.h"

#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace remat::ui {
namespace {

// Level-of-detail thresholds (painter scale): below kTiny a box is one colour; from kNameOnly
// the name shows in a font scaled to stay legible; from kFullText all three lines at 100 %.
constexpr double kTiny = 0.12;
constexpr double kNameOnly = 0.2;
constexpr double kFullText = 0.62;
constexpr double kStrongFill = 0.45;

/// A font whose on-screen size stays about `screenPixels` at this zoom, within limits.
QFont scaledFont(const QFont& base, double lod, double screenPixels, double maxPixels)
{
    QFont f = base;
    f.setPixelSize(
        static_cast<int>(std::clamp(screenPixels / lod, static_cast<double>(base.pixelSize()), maxPixels)));
    return f;
}

double levelOfDetail(const QPainter* painter)
{
    return QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
}

const QFont& nameFont()
{
    static const QFont f = CanvasMetrics::nameFont();
    return f;
}
const QFont& detailFont()
{
    static const QFont f = CanvasMetrics::detailFont();
    return f;
}
const QFont& titleFont()
{
    static const QFont f = CanvasMetrics::titleFont();
    return f;
}
const QFontMetricsF& nameMetrics()
{
    static const QFontMetricsF m(nameFont());
    return m;
}
const QFontMetricsF& detailMetrics()
{
    static const QFontMetricsF m(detailFont());
    return m;
}

QString tagAbbreviation(CheckpointPolicy tag)
{
    switch (tag) {
    case CheckpointPolicy::MustSave:
        return QStringLiteral("MS");
    case CheckpointPolicy::PreferSave:
        return QStringLiteral("PS");
    case CheckpointPolicy::MustRecompute:
        return QStringLiteral("MR");
    case CheckpointPolicy::PreferRecompute:
        return QStringLiteral("PR");
    case CheckpointPolicy::MustCpuOffload:
        return QStringLiteral("MO");
    case CheckpointPolicy::PreferCpuOffload:
        return QStringLiteral("PO");
    case CheckpointPolicy::None:
        break;
    }
    return {};
}

bool isMustTag(CheckpointPolicy tag)
{
    return tag == CheckpointPolicy::MustSave || tag == CheckpointPolicy::MustRecompute
        || tag == CheckpointPolicy::MustCpuOffload;
}

/// The bold detail font at a pixel size; badges and tag chips ask for a few sizes thousands of
/// times a frame.
const QFont& boldDetailFont(int pixelSize)
{
    static QHash<int, QFont> fonts;
    auto it = fonts.find(pixelSize);
    if (it == fonts.end()) {
        QFont f = detailFont();
        f.setBold(true);
        f.setPixelSize(pixelSize);
        it = fonts.insert(pixelSize, f);
    }
    return *it;
}

/// A round badge with one character (S, R, ⊘) at `centre`.
void drawBadge(
    QPainter* painter, const QPointF& centre, double radius, const QColor& colour, const QString& text)
{
    painter->setPen(Qt::NoPen);
    painter->setBrush(colour);
    painter->drawEllipse(centre, radius, radius);
    painter->setPen(Qt::white);
    painter->setFont(boldDetailFont(static_cast<int>(std::max(10.0, radius * 1.15))));
    painter->drawText(
        QRectF(centre.x() - radius, centre.y() - radius, radius * 2, radius * 2), Qt::AlignCenter, text);
}

} // namespace

// ---------------------------------------------------------------- BoxItem

BoxItem::BoxItem(const CanvasState* state, int viewItem, const QRectF& rect)
    : m_state(state)
    , m_viewItem(viewItem)
    , m_rect(rect)
{
    setFlag(ItemIsSelectable);
    setZValue(kZ);
}

QRectF BoxItem::boundingRect() const
{
    // Above the box: the tag chip, which grows when zoomed out; right and below: the card shadow.
    return m_rect.adjusted(-kHaloMargin - 2, -24, kHaloMargin + 6, kHaloMargin + 6);
}

bool BoxItem::dimmed() const
{
    return isDimmed(*m_state, m_viewItem, isSelected());
}

void BoxItem::paintHalo(QPainter* painter, double lod) const
{
    remat::ui::paintHalo(painter, m_rect, haloColour(*m_state, m_viewItem, isSelected(), flashingNow()), lod);
}

// ---------------------------------------------------------------- NodeItem

NodeItem::NodeItem(const CanvasState* state, int viewItem, NodeId node, const QRectF& rect)
    : BoxItem(state, viewItem, rect)
    , m_node(node)
{ }

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (CanvasRoot::isRetired(this))
        return; // its view item indices are of another picture
    const double lod = levelOfDetail(painter);
    if (dimmed())
        painter->setOpacity(kDimmedOpacity);
    if (lod < kTiny) {
        // A few pixels per node: one colour says it all, decision first.
        paintNodeFarOut(painter, *m_state, m_node, m_rect, lod);
        paintHalo(painter, lod);
        return;
    }

    const CanvasPalette& pal = m_state->palette;
    const auto flags = m_state->flags(m_node);
    const bool removed = flags & (DceRemoved | CseMerged);
    QColor fill = removed ? QColor(0xf4, 0xf4, 0xf4) : pal.regionFill(m_state->graph->region(m_node));

    // Comparing plans or showing a device split: the fill says which plan saves the node, or which
    // partition holds it, at every zoom.
    const bool comparing = m_state->comparingPlans() || m_state->showingDevices();
    const int partition = m_state->devicePartitionOf(m_node);
    const bool inSomething
        = m_state->comparingPlans() ? m_state->planSide(m_node) != CanvasState::InNeither : partition >= 0;
    const QColor overrideFill = !m_state->comparingPlans()
        ? (partition >= 0 ? devicePartitionColour(partition) : QColor(0xf2, 0xf2, 0xf2))
        : planColour(pal, m_state->planSide(m_node));

    // Zoomed out, a decided node is filled with its decision's colour so that it shows at a
    // glance; closer in, the fill is the region and the decision is a frame and a badge.
    // Comparing plans: the fill says which plan saves the node, at every zoom.
    const bool decided = comparing ? inSomething : bool(flags & (Saved | Recomputed));
    const bool strong = decided && (comparing || lod < kStrongFill);
    if (comparing)
        fill = overrideFill;
    else if (strong)
        fill = (flags & Saved) ? pal.saved : pal.recomputed;
    QPen border(fill.darker(160), 1);
    if (strong)
        border = QPen(fill.darker(140), 1.5);
    else if (comparing)
        border = QPen(QColor(0xcc, 0xcc, 0xcc), 1);
    else if (flags & Saved)
        border = QPen(pal.saved, 3.5);
    else if (flags & Recomputed)
        border = QPen(pal.recomputed, 3, Qt::DashLine);
    else if (m_state->showsReference() && (flags & ReferenceSaved))
        border = QPen(pal.referenceOnly, 3, Qt::DotLine);
    painter->setPen(border);
    painter->setBrush(fill);
    painter->drawRoundedRect(m_rect, 4, 4);

    // The left stripe repeats the region in a stronger tone (readable on a selection halo).
    if (!strong) {
        const QRectF stripe(
            m_rect.left() + 1.5, m_rect.top() + 1.5, CanvasMetrics::kStripe, m_rect.height() - 3);
        painter->fillRect(stripe, removed ? QColor(0xbb, 0xbb, 0xbb) : fill.darker(135));
    }

    if (lod >= kNameOnly) {
        const QRectF inner = m_rect.adjusted(CanvasMetrics::kPadding + CanvasMetrics::kStripe,
            CanvasMetrics::kPadding, -CanvasMetrics::kPadding, -CanvasMetrics::kPadding);
        if (lod >= kFullText) {
            paintText(painter, inner);
        } else {
            // Zoomed out: only the name, drawn larger so that it stays readable.
            const QFont font = scaledFont(nameFont(), lod, 9.5, m_rect.height() * 0.62);
            painter->setFont(font);
            painter->setPen(strong ? Qt::white : removed ? Qt::gray : Qt::black);
            const QRectF nameArea = inner.adjusted(0, 0, strong ? 0 : -CanvasMetrics::kBadgeWidth, 0);
            // Eliding lays the whole name out: done once per font size and box width.
            TextCache& cache = textCache();
            if (cache.scaledPixels != font.pixelSize() || cache.scaledWidth != nameArea.width()) {
                cache.scaledPixels = font.pixelSize();
                cache.scaledWidth = nameArea.width();
                cache.scaledName = QFontMetricsF(font).elidedText(
                    m_state->graph->label(m_node).name, Qt::ElideMiddle, nameArea.width());
            }
            painter->drawText(nameArea, Qt::AlignLeft | Qt::AlignVCenter, cache.scaledName);
        }
    }
    paintBadges(painter, lod, strong);
    paintHalo(painter, lod);
}

NodeItem::TextCache& NodeItem::textCache() const
{
    if (!m_text)
        m_text = std::make_unique<TextCache>();
    return *m_text;
}

void NodeItem::paintText(QPainter* painter, const QRectF& inner) const
{
    const NodeLabel& label = m_state->graph->label(m_node);
    const auto flags = m_state->flags(m_node);
    const bool removed = flags & (DceRemoved | CseMerged);
    const double badges = CanvasMetrics::kBadgeWidth * 2;
    const QRectF nameLine(inner.left(), inner.top(), inner.width() - badges, CanvasMetrics::kNameLine);
    const QRectF opLine(inner.left(), nameLine.bottom(), inner.width(), CanvasMetrics::kDetailLine);
    const QRectF valueLine(inner.left(), opLine.bottom(), inner.width(), CanvasMetrics::kDetailLine);

    // The fonts are fixed at this level of detail: the elided lines are laid out once per box.
    TextCache& cache = textCache();
    if (cache.sizeWidth < 0) {
        cache.sizeWidth = detailMetrics().horizontalAdvance(label.size);
        cache.name = nameMetrics().elidedText(label.name, Qt::ElideMiddle, nameLine.width());
        cache.op = detailMetrics().elidedText(label.op, Qt::ElideRight, opLine.width());
        cache.value = detailMetrics().elidedText(
            label.value, Qt::ElideRight, valueLine.width() - cache.sizeWidth - 8);
    }

    if (removed) {
        QFont name = nameFont();
        name.setStrikeOut(true);
        painter->setFont(name);
    } else {
        painter->setFont(nameFont());
    }
    painter->setPen(removed ? Qt::gray : Qt::black);
    painter->drawText(nameLine, Qt::AlignLeft | Qt::AlignVCenter, cache.name);

    painter->setFont(detailFont());
    painter->setPen(QColor(0x44, 0x44, 0x44));
    painter->drawText(opLine, Qt::AlignLeft | Qt::AlignVCenter, cache.op);

    painter->setPen(QColor(0x22, 0x22, 0x22));
    painter->drawText(valueLine, Qt::AlignRight | Qt::AlignVCenter, label.size);
    painter->setPen(QColor(0x55, 0x55, 0x55));
    painter->drawText(
        valueLine.adjusted(0, 0, -cache.sizeWidth - 8, 0), Qt::AlignLeft | Qt::AlignVCenter, cache.value);
}

void NodeItem::paintBadges(QPainter* painter, double lod, bool filled) const
{
    const CanvasPalette& pal = m_state->palette;
    const auto flags = m_state->flags(m_node);
    const CheckpointPolicy tag = m_state->tag(m_node);
    // Badges grow when zoomed out so that the decision stays readable without text.
    const double radius = lod >= kFullText ? 8 : std::clamp(5.5 / lod, 8.0, m_rect.height() * 0.32);
    QPointF centre(m_rect.right() - radius - 3, m_rect.top() + radius + 3);
    auto next = [&] { centre.rx() -= radius * 2 + 2; };
    if (!filled && (flags & Saved)) {
        drawBadge(painter, centre, radius, pal.saved, QStringLiteral("S"));
        next();
    } else if (!filled && (flags & Recomputed)) {
        drawBadge(painter, centre, radius, pal.recomputed, QStringLiteral("R"));
        next();
    }
    if ((flags & Banned) && !(flags & Saved) && lod >= kFullText) {
        // Secondary information, so a quiet mark: most forward ops are banned under 1.13 rules.
        drawBadge(painter, centre, radius * 0.8, pal.banned.lighter(115), QStringLiteral("⊘"));
        next();
    }

    if (tag != CheckpointPolicy::None) {
        // The tag is a flag on the top edge: filled for MUST_*, outlined for PREFER_*.
        // It grows when zoomed out, like the badges, so that tags stay visible.
        const double k = lod >= kFullText ? 1.0 : std::clamp(0.75 / lod, 1.0, 2.2);
        const QColor colour = pal.tagColour(tag);
        const QRectF chip(m_rect.left() + CanvasMetrics::kStripe + 4, m_rect.top() - 9 * k, 26 * k, 15 * k);
        painter->setPen(QPen(colour, 1.5 * k));
        painter->setBrush(isMustTag(tag) ? colour : QColor(Qt::white));
        painter->drawRoundedRect(chip, 3 * k, 3 * k);
        painter->setFont(boldDetailFont(static_cast<int>(11 * k)));
        painter->setPen(isMustTag(tag) ? QColor(Qt::white) : colour);
        painter->drawText(chip, Qt::AlignCenter, tagAbbreviation(tag));
    }

    if (m_state->showsReference() && bool(flags & Saved) != bool(flags & ReferenceSaved)) {
        // Where we differ from PyTorch's recorded decision: a yellow corner.
        QPolygonF corner;
        corner << m_rect.bottomRight() << m_rect.bottomRight() - QPointF(14, 0)
               << m_rect.bottomRight() - QPointF(0, 14);
        painter->setPen(Qt::NoPen);
        painter->setBrush(pal.referenceOnly);
        painter->drawPolygon(corner);
    }
}

// ---------------------------------------------------------------- GroupItem

GroupItem::GroupItem(const CanvasState* state, int viewItem, int group, const QRectF& rect)
    : BoxItem(state, viewItem, rect)
    , m_group(group)
{ }

void GroupItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (CanvasRoot::isRetired(this))
        return; // its view item indices are of another picture
    const CanvasPalette& pal = m_state->palette;
    const double lod = levelOfDetail(painter);
    const Group& group = m_state->graph->groups.group(m_group);
    const GroupStats stats = groupStatsOf(*m_state, m_group);
    if (dimmed())
        painter->setOpacity(kDimmedOpacity);

    const QRectF inner = m_rect.adjusted(10, 8, -10, -8);
    if (lod < 0.5) {
        // Zoomed out: a taller bar, and a title that stays readable.
        paintGroupFarOut(painter, *m_state, m_group, m_rect);
        if (lod >= kTiny) {
            const QFont font = scaledFont(titleFont(), lod, 10, inner.height() * 0.45);
            const QRectF title(inner.left(), inner.top(), inner.width(), inner.height() * 0.5);
            painter->setFont(font);
            painter->setPen(Qt::black);
            painter->drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetricsF(font).elidedText(group.label, Qt::ElideMiddle, title.width()));
        }
        paintHalo(painter, lod);
        return;
    }
    paintGroupCards(painter, *m_state, m_group, m_rect);
    painter->setPen(Qt::black);
    painter->setFont(titleFont());
    const QString count = QStringLiteral("%1 nodes").arg(group.members.size());
    const double countWidth = detailMetrics().horizontalAdvance(count);
    const QRectF title(inner.left(), inner.top(), inner.width() - countWidth - 8, 20);
    painter->drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(titleFont()).elidedText(group.label, Qt::ElideMiddle, title.width()));
    painter->setFont(detailFont());
    painter->setPen(QColor(0x44, 0x44, 0x44));
    painter->drawText(QRectF(inner.right() - countWidth, inner.top(), countWidth, 20),
        Qt::AlignRight | Qt::AlignVCenter, count);

    QStringList facts;
    if (m_state->comparingPlans() && stats.onlyA + stats.onlyB == 0)
        facts << QStringLiteral("same in A and B");
    else if (m_state->comparingPlans())
        facts << QStringLiteral("A only %1 · B only %2").arg(stats.onlyA).arg(stats.onlyB);
    facts << QStringLiteral("%1 saved · %2").arg(stats.saved).arg(formatBytes(stats.savedBytes));
    if (stats.recomputed > 0)
        facts << QStringLiteral("%1 recomputed").arg(stats.recomputed);
    if (stats.tagged > 0)
        facts << QStringLiteral("%1 tagged").arg(stats.tagged);
    painter->setPen(QColor(0x22, 0x22, 0x22));
    painter->drawText(QRectF(inner.left(), inner.top() + 22, inner.width(), 16),
        Qt::AlignLeft | Qt::AlignVCenter,
        detailMetrics().elidedText(facts.join(QStringLiteral(" · ")), Qt::ElideRight, inner.width()));
    paintGroupBar(painter, *m_state, QRectF(inner.left(), inner.bottom() - 22, inner.width(), 16), stats);
    if (stats.tagged > 0) {
        const QRectF chip(m_rect.left() + 10, m_rect.top() - 9, 58, 15);
        painter->setPen(QPen(pal.tagRecompute, 1.5));
        painter->setBrush(Qt::white);
        painter->drawRoundedRect(chip, 3, 3);
        painter->setPen(pal.tagRecompute);
        painter->drawText(chip, Qt::AlignCenter, QStringLiteral("%1 tagged").arg(stats.tagged));
    }
    paintHalo(painter, lod);
}

bool GroupItem::flashingNow() const
{
    const auto g = static_cast<std::size_t>(m_group);
    return g < m_state->groupStats.size() && m_state->groupStats[g].flashing > 0;
}

// ---------------------------------------------------------------- ClusterItem

ClusterItem::ClusterItem(const CanvasState* state, int group, const QRectF& rect)
    : m_state(state)
    , m_group(group)
    , m_rect(rect)
{
    setZValue(kZ);
}

QRectF ClusterItem::headerRect() const
{
    return QRectF(m_rect.left(), m_rect.top(), m_rect.width(), CanvasMetrics::kClusterHeader);
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (CanvasRoot::isRetired(this))
        return; // its view item indices are of another picture
    const Group& group = m_state->graph->groups.group(m_group);
    paintClusterFrame(painter, *m_state, m_group, m_rect);
    const double lod = levelOfDetail(painter);
    if (lod < kTiny)
        return;
    painter->setFont(scaledFont(titleFont(), lod, 10, CanvasMetrics::kClusterHeader * 0.85));
    painter->setPen(QColor(0x33, 0x33, 0x33));
    painter->drawText(headerRect().adjusted(10, 2, -10, 0), Qt::AlignLeft | Qt::AlignVCenter,
        QStringLiteral("▾ ") + group.label);
}

// ---------------------------------------------------------------- EdgeItem

EdgeItem::EdgeItem(const CanvasState* state, int viewEdge, EdgeShape shape)
    : m_state(state)
    , m_viewEdge(viewEdge)
    , m_shape(std::move(shape))
{
    setZValue(kZ);
}

QPainterPath EdgeItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    return stroker.createStroke(m_shape.path);
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (CanvasRoot::isRetired(this))
        return; // its view item indices are of another picture
    paintEdge(painter, *m_state, m_viewEdge, m_shape, levelOfDetail(painter));
}

// ---------------------------------------------------------------- CanvasRoot

bool CanvasRoot::isRetired(const QGraphicsItem* item)
{
    const QGraphicsItem* parent = item ? item->parentItem() : nullptr;
    return parent && parent->type() == Type && static_cast<const CanvasRoot*>(parent)->m_retired;
}

} // namespace remat::ui
