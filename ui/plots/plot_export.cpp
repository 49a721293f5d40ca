// SPDX-License-Identifier: MIT
#include "plots/plot_export.h"

#include "model/atomic_write.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace remat::ui {
namespace {

QByteArray renderPlot(QCustomPlot* plot, const QString& suffix, QSize size, QString& error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("png")) {
        // Twice the pixels: crisp on a slide or a high-DPI screen.
        const QPixmap pixmap = plot->toPixmap(size.width(), size.height(), 2.0);
        if (!pixmap.save(&buffer, "PNG"))
            error = QStringLiteral("cannot encode the PNG");
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(QStringLiteral("Remat Explorer plot"));
        QCPPainter painter(&generator);
        plot->toPainter(&painter, size.width(), size.height());
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter writer(&buffer);
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setCreator(QStringLiteral("Remat Explorer"));
        QCPPainter painter(&writer);
        const double scale = writer.width() / static_cast<double>(size.width());
        painter.scale(scale, scale);
        plot->toPainter(&painter, size.width(), size.height());
    } else {
        error = QStringLiteral("unknown picture type '.%1' (use .png, .svg or .pdf)").arg(suffix);
    }
    return bytes;
}

} // namespace

QString savePlot(QCustomPlot* plot, const QString& path, QSize size)
{
    if (!size.isValid() || size.isEmpty())
        size = plot->size().isEmpty() ? QSize(900, 560) : plot->size();
    plot->replot(QCustomPlot::rpImmediateRefresh); // lays out axes and ticks for this data
    QString error;
    const QByteArray bytes = renderPlot(plot, QFileInfo(path).suffix().toLower(), size, error);
    if (!error.isEmpty())
        return QStringLiteral("%1: %2").arg(path, error);
    return writeFileAtomic(path, bytes);
}

} // namespace remat::ui
