// SPDX-License-Identifier: MIT
#include "layout/layout_types.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QIODevice>

namespace remat::ui {
namespace {

// Bump when the layout engine changes in a way that makes cached layouts wrong.
constexpr quint32 kLayoutFormat = 4;

} // namespace

QByteArray LayoutRequest::fingerprint() const
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    auto add = [&hash](const auto& value) {
        hash.addData(QByteArrayView(reinterpret_cast<const char*>(&value), sizeof(value)));
    };
    add(kLayoutFormat);
    add(boxes.size());
    for (const LayoutBox& b : boxes) {
        add(b.width);
        add(b.height);
        add(b.cluster);
    }
    add(links.size());
    for (const LayoutLink& l : links) {
        add(l.from);
        add(l.to);
        add(l.role);
    }
    add(clusters.size());
    for (const LayoutCluster& c : clusters) {
        add(c.parent);
        add(c.headerHeight);
        add(c.visible);
    }
    return hash.result().toHex();
}

QByteArray LayoutResult::serialize() const
{
    QByteArray data;
    QDataStream out(&data, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    out << kLayoutFormat << engine << bounds << static_cast<quint32>(boxes.size());
    for (const QRectF& r : boxes)
        out << r;
    out << static_cast<quint32>(clusters.size());
    for (const QRectF& r : clusters)
        out << r;
    out << static_cast<quint32>(edges.size());
    for (const EdgeGeometry& e : edges) {
        out << e.arrowTip << static_cast<quint32>(e.curve.size());
        for (const QPointF& p : e.curve)
            out << p;
    }
    return data;
}

bool LayoutResult::deserialize(const QByteArray& data, LayoutResult& result)
{
    QDataStream in(data);
    in.setVersion(QDataStream::Qt_6_0);
    quint32 format = 0;
    in >> format;
    if (format != kLayoutFormat)
        return false;
    quint32 count = 0;
    // A damaged cache file must not make us allocate gigabytes.
    constexpr quint32 kSane = 10'000'000;
    in >> result.engine >> result.bounds >> count;
    if (count > kSane)
        return false;
    result.boxes.resize(count);
    for (QRectF& r : result.boxes)
        in >> r;
    in >> count;
    if (count > kSane)
        return false;
    result.clusters.resize(count);
    for (QRectF& r : result.clusters)
        in >> r;
    in >> count;
    if (count > kSane)
        return false;
    result.edges.resize(count);
    for (EdgeGeometry& e : result.edges) {
        quint32 points = 0;
        in >> e.arrowTip >> points;
        if (points > 10'000)
            return false;
        e.curve.resize(points);
        for (QPointF& p : e.curve)
            in >> p;
    }
    return in.status() == QDataStream::Ok;
}

} // namespace remat::ui
