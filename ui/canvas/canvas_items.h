// SPDX-License-Identifier: MIT
#pragma once

#include "canvas/canvas_state.h"
#include "canvas/far_out_painting.h"

#include <QGraphicsItem>
#include <QPainterPath>

#include <memory>

namespace remat::ui {

/// Item types, for qgraphicsitem_cast.
enum CanvasItemType {
    NodeItemType = QGraphicsItem::UserType + 1,
    GroupItemType,
    EdgeItemType,
    ClusterItemType,
    CanvasRootType
};

/// Shared by node and group boxes: which view item they show and where.
class BoxItem : public QGraphicsItem {
public:
    static constexpr double kZ = 2; ///< above edges and frames
    BoxItem(const CanvasState* state, int viewItem, const QRectF& rect);
    QRectF boundingRect() const override;
    int viewItem() const { return m_viewItem; }
    QRectF box() const { return m_rect; }

protected:
    /// The halo around a box: selection, producer or consumer of the selection.
    void paintHalo(QPainter* painter, double lod) const;
    bool dimmed() const;
    /// A what-if changed what this box stands for: it flashes for a moment.
    virtual bool flashingNow() const { return false; }

    const CanvasState* m_state;
    int m_viewItem;
    QRectF m_rect;
};

/// One node: name, op, shape and dtype, size; region colour; decision marks.
class NodeItem final : public BoxItem {
public:
    enum { Type = NodeItemType }; // for qgraphicsitem_cast
    NodeItem(const CanvasState* state, int viewItem, NodeId node, const QRectF& rect);
    int type() const override { return Type; }
    NodeId node() const { return m_node; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// Elided label lines, laid out on first paint: eliding is most of a text's cost.
    struct TextCache {
        QString name, op, value;
        double sizeWidth = -1; ///< < 0: the full-detail lines are not laid out yet
        int scaledPixels = -1;
        double scaledWidth = 0;
        QString scaledName; ///< the name alone, zoomed out, at scaledPixels
    };
    TextCache& textCache() const;
    void paintText(QPainter* painter, const QRectF& inner) const;
    void paintBadges(QPainter* painter, double lod, bool filled) const;
    bool flashingNow() const override { return m_state->isFlashing(m_node); }
    NodeId m_node;
    mutable std::unique_ptr<TextCache> m_text;
};

/// A collapsed group: its name, size and how its members were decided, as a bar.
class GroupItem final : public BoxItem {
public:
    enum { Type = GroupItemType }; // for qgraphicsitem_cast
    GroupItem(const CanvasState* state, int viewItem, int group, const QRectF& rect);
    int type() const override { return Type; }
    int group() const { return m_group; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    bool flashingNow() const override;
    int m_group;
};

/// An expanded group's frame, with its title; double-click the title to collapse it.
class ClusterItem final : public QGraphicsItem {
public:
    enum { Type = ClusterItemType }; // for qgraphicsitem_cast
    static constexpr double kZ = 0;
    ClusterItem(const CanvasState* state, int group, const QRectF& rect);
    int type() const override { return Type; }
    int group() const { return m_group; }
    QRectF boundingRect() const override { return m_rect; }
    QRectF headerRect() const;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    const CanvasState* m_state;
    int m_group;
    QRectF m_rect;
};

/// A Graphviz spline with its arrowhead, coloured by what flows along it.
class EdgeItem final : public QGraphicsItem {
public:
    enum { Type = EdgeItemType }; // for qgraphicsitem_cast
    static constexpr double kZ = 1;
    EdgeItem(const CanvasState* state, int viewEdge, EdgeShape shape);
    int type() const override { return Type; }
    int viewEdge() const { return m_viewEdge; }
    QRectF boundingRect() const override { return m_shape.bounds; }
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    const CanvasState* m_state;
    int m_viewEdge;
    EdgeShape m_shape;
};

/// Parent of a chunk of a picture's items of one kind (frames, edges or boxes) that lie close
/// together: a picture built on a worker thread is added to the scene a few chunks per event-loop
/// turn (GraphScene::setContent), so that the GUI thread never stalls on 100k items at once. Its z
/// value is its items' own, so that chunks stack as their items would.
class CanvasRoot final : public QGraphicsItem {
public:
    enum { Type = CanvasRootType }; // for qgraphicsitem_cast
    explicit CanvasRoot(double z)
    {
        setFlag(ItemHasNoContents);
        setZValue(z);
    }
    int type() const override { return Type; }
    QRectF boundingRect() const override { return {}; }
    void paint(QPainter*, const QStyleOptionGraphicsItem*, QWidget*) override { }

    void setItemCount(std::size_t items) { m_items = items; }
    std::size_t itemCount() const { return m_items; }
    /// A picture replaced by another: its items stay in the scene until deleted, a few chunks
    /// per turn, but are no longer painted, hit or looked up.
    void retire() { m_retired = true; }
    /// Whether `item` belongs to a retired picture.
    static bool isRetired(const QGraphicsItem* item);

private:
    std::size_t m_items = 0;
    bool m_retired = false;
};

} // namespace remat::ui
