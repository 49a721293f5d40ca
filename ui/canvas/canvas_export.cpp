// SPDX-License-Identifier: MIT
#include "canvas/canvas_export.h"

#include "graph/error.h"
#include "io/file_text.h"

#include <QBuffer>
#include <QGraphicsScene>
#include <QImage>
#include <QObject>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace remat::ui {
namespace {

QString write(const QString& path, const QByteArray& bytes)
{
    try {
        writeFileAtomically(path.toStdString(), bytes.toStdString());
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString exportSvg(QGraphicsScene& scene, const QRectF& source, const QString& path)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    svg.setTitle(QObject::tr("Remat Explorer canvas"));
    QPainter painter;
    if (!painter.begin(&svg))
        return QObject::tr("%1: cannot start the SVG picture").arg(path);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    painter.end();
    return write(path, buffer.data());
}

QString exportPdf(QGraphicsScene& scene, const QRectF& source, const QString& path)
{
    // Vector, one page the size of the canvas: any zoom stays sharp, as with SVG.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setCreator(QObject::tr("Remat Explorer"));
    pdf.setTitle(QObject::tr("Remat Explorer canvas"));
    pdf.setResolution(72);
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setPageSize(QPageSize(source.size(), QPageSize::Point));
    QPainter painter;
    if (!painter.begin(&pdf))
        return QObject::tr("%1: cannot start the PDF document").arg(path);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(pdf.width(), pdf.height())), source);
    painter.end();
    return write(path, buffer.data());
}

QString exportPng(QGraphicsScene& scene, const QRectF& source, const QString& path)
{
    const RasterPlan plan = RasterPlan::forSource(source);
    if (!plan.refusal.isEmpty())
        return plan.refusal;
    QImage image(plan.size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return QObject::tr("Not enough memory for a %1 × %2 pixel picture; export SVG instead")
            .arg(plan.size.width())
            .arg(plan.size.height());
    image.fill(scene.backgroundBrush().color());
    QPainter painter(&image);
    painter.setRenderHints(
        QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(plan.size)), source);
    painter.end();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return QObject::tr("%1: cannot encode the PNG picture").arg(path);
    return write(path, bytes);
}

} // namespace

RasterPlan RasterPlan::forSource(const QRectF& source)
{
    RasterPlan plan;
    if (source.isEmpty()) {
        plan.refusal = QObject::tr("There is no picture to export yet");
        return plan;
    }
    const double w = source.width();
    const double h = source.height();
    const double bySide = kMaxImageSide / std::max(w, h);
    const double byArea = std::sqrt(kMaxImagePixels / (w * h));
    plan.scale = std::min({kPreferredScale, bySide, byArea});
    if (plan.scale < kMinScale) {
        plan.refusal = QObject::tr(
            "The canvas is %1 × %2 units: as a PNG of at most %3 pixels a side its labels would be "
            "unreadable. Collapse some groups, or export SVG, which has no size limit.")
                           .arg(qRound(w))
                           .arg(qRound(h))
                           .arg(kMaxImageSide);
        return plan;
    }
    plan.size = QSize(std::max(1, qRound(w * plan.scale)), std::max(1, qRound(h * plan.scale)));
    return plan;
}

QString exportSceneImage(QGraphicsScene& scene, const QRectF& source, const QString& path)
{
    if (source.isEmpty())
        return QObject::tr("There is no picture to export yet");
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive))
        return exportSvg(scene, source, path);
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return exportPdf(scene, source, path);
    return exportPng(scene, source, path);
}

} // namespace remat::ui
