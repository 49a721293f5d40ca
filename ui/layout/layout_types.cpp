// SPDX-License-Identifier: MIT
#include "layout/layout_types.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QIODevice>

namespace remat::ui {
namespace {

// Bump when the layout engine changes in a way that makes cached layouts wrong.
constexpr quint32 kLayoutFormat = 4;

/// Reads what our serialize() functions write: checks the format number, and believes a count
/// only if the bytes left can hold that many items (a damaged file must not make us allocate
/// gigabytes; any edge length that fits the data is fine).
class BoundedReader {
public:
    BoundedReader(const QByteArray& data, QString* error)
        : in(data)
        , m_size(data.size())
        , m_error(error)
    {
        in.setVersion(QDataStream::Qt_6_0);
    }

    bool fail(const QString& why)
    {
        if (m_error)
            *m_error = why;
        return false;
    }

    bool formatIsCurrent(const char* what)
    {
        quint32 format = 0;
        in >> format;
        return format == kLayoutFormat
            || fail(QStringLiteral("%1 format %2, this version reads %3")
                        .arg(QLatin1String(what))
                        .arg(format)
                        .arg(kLayoutFormat));
    }

    bool count(quint32& n, qint64 bytesPerItem)
    {
        in >> n;
        return in.status() == QDataStream::Ok
            && static_cast<qint64>(n) * bytesPerItem <= m_size - in.device()->pos();
    }

    qint64 left() const { return m_size - in.device()->pos(); }

    QDataStream in;

private:
    qint64 m_size;
    QString* m_error;
};

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

QByteArray LayoutRequest::serialize() const
{
    QByteArray data;
    QDataStream out(&data, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    out << kLayoutFormat << static_cast<quint32>(boxes.size());
    for (const LayoutBox& b : boxes)
        out << b.width << b.height << qint32(b.cluster);
    out << static_cast<quint32>(links.size());
    for (const LayoutLink& l : links)
        out << qint32(l.from) << qint32(l.to) << static_cast<quint8>(l.role);
    out << static_cast<quint32>(clusters.size());
    for (const LayoutCluster& c : clusters)
        out << qint32(c.parent) << c.headerHeight << c.visible;
    return data;
}

bool LayoutRequest::deserialize(const QByteArray& data, LayoutRequest& request, QString* error)
{
    BoundedReader reader(data, error);
    QDataStream& in = reader.in;
    if (!reader.formatIsCurrent("request"))
        return false;
    quint32 count = 0;
    if (!reader.count(count, 2 * sizeof(double) + sizeof(qint32)))
        return reader.fail(QStringLiteral("truncated in the boxes"));
    request.boxes.resize(count);
    std::vector<qint32> boxCluster(count);
    for (std::size_t i = 0; i < count; ++i)
        in >> request.boxes[i].width >> request.boxes[i].height >> boxCluster[i];
    if (!reader.count(count, 2 * sizeof(qint32) + 1))
        return reader.fail(QStringLiteral("truncated in the links"));
    request.links.resize(count);
    for (LayoutLink& l : request.links) {
        qint32 from = 0, to = 0;
        quint8 role = 0;
        in >> from >> to >> role;
        const auto boxCount = static_cast<qint32>(request.boxes.size());
        if (from < 0 || from >= boxCount || to < 0 || to >= boxCount
            || role > static_cast<quint8>(EdgeRole::Across))
            return reader.fail(
                QStringLiteral("a link refers to box %1 -> %2 of %3").arg(from).arg(to).arg(boxCount));
        l = {from, to, static_cast<EdgeRole>(role)};
    }
    if (!reader.count(count, sizeof(qint32) + sizeof(double) + 1))
        return reader.fail(QStringLiteral("truncated in the frames"));
    request.clusters.resize(count);
    const auto clusterCount = static_cast<qint32>(count);
    for (LayoutCluster& c : request.clusters) {
        qint32 parent = 0;
        in >> parent >> c.headerHeight >> c.visible;
        if (parent < -1 || parent >= clusterCount)
            return reader.fail(QStringLiteral("a frame's parent %1 is not one of the %2 frames")
                                   .arg(parent)
                                   .arg(clusterCount));
        c.parent = parent;
    }
    for (std::size_t i = 0; i < request.boxes.size(); ++i) {
        if (boxCluster[i] < -1 || boxCluster[i] >= clusterCount)
            return reader.fail(
                QStringLiteral("box %1 is in frame %2 of %3").arg(i).arg(boxCluster[i]).arg(clusterCount));
        request.boxes[i].cluster = boxCluster[i];
    }
    // Each chain of parents must end within as many steps as there are frames.
    for (const LayoutCluster& c : request.clusters) {
        int steps = 0;
        for (int p = c.parent; p >= 0; p = request.clusters[static_cast<std::size_t>(p)].parent) {
            if (++steps > clusterCount)
                return reader.fail(QStringLiteral("frames are nested in a cycle"));
        }
    }
    if (in.status() != QDataStream::Ok)
        return reader.fail(QStringLiteral("truncated"));
    return true;
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

bool LayoutResult::deserialize(const QByteArray& data, LayoutResult& result, QString* error)
{
    BoundedReader reader(data, error);
    QDataStream& in = reader.in;
    if (!reader.formatIsCurrent("layout"))
        return false;
    in >> result.engine >> result.bounds;
    constexpr qint64 kRectBytes = 4 * sizeof(double);
    constexpr qint64 kPointBytes = 2 * sizeof(double);
    quint32 count = 0;
    if (!reader.count(count, kRectBytes))
        return reader.fail(QStringLiteral("truncated in the boxes"));
    result.boxes.resize(count);
    for (QRectF& r : result.boxes)
        in >> r;
    if (!reader.count(count, kRectBytes))
        return reader.fail(QStringLiteral("truncated in the frames"));
    result.clusters.resize(count);
    for (QRectF& r : result.clusters)
        in >> r;
    if (!reader.count(count, kPointBytes + sizeof(quint32)))
        return reader.fail(QStringLiteral("truncated in the edges"));
    result.edges.resize(count);
    for (std::size_t e = 0; e < result.edges.size(); ++e) {
        EdgeGeometry& edge = result.edges[e];
        in >> edge.arrowTip;
        quint32 points = 0;
        if (!reader.count(points, kPointBytes))
            return reader.fail(QStringLiteral("truncated in edge %1").arg(e));
        edge.curve.resize(points);
        for (QPointF& p : edge.curve)
            in >> p;
    }
    if (in.status() != QDataStream::Ok)
        return reader.fail(QStringLiteral("truncated"));
    if (!in.atEnd())
        return reader.fail(QStringLiteral("%1 bytes of unknown data after the layout")
                               .arg(data.size() - in.device()->pos()));
    return true;
}

} // namespace remat::ui
