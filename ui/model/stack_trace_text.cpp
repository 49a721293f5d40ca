// SPDX-License-Identifier: MIT
#include "model/stack_trace_text.h"

#include <QRegularExpression>
#include <QStringList>

namespace remat::ui {
namespace {

/// "…/transformers/models/bert/modeling_bert.py" → "bert/modeling_bert.py": the folder tells
/// models apart, the rest is where Python keeps them.
QString shortPath(const QString& path)
{
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() <= 2)
        return path;
    return parts[parts.size() - 2] + QLatin1Char('/') + parts.back();
}

} // namespace

QString stackTraceHtml(std::string_view trace)
{
    static const QRegularExpression frame(
        QString::fromLatin1(R"re(^\s*File "(.*)", line (\d+), in (.*)$)re"));
    QStringList out;
    const QString text = QString::fromUtf8(trace.data(), static_cast<qsizetype>(trace.size()));
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = frame.match(line);
        if (m.hasMatch()) {
            out << QStringLiteral("%1:%2 in %3")
                       .arg(shortPath(m.captured(1)).toHtmlEscaped(), m.captured(2),
                           m.captured(3).trimmed().toHtmlEscaped());
        } else if (!line.trimmed().isEmpty()) {
            out << QStringLiteral("<code>%1</code>").arg(line.trimmed().toHtmlEscaped());
        }
    }
    return out.join(QStringLiteral("<br>"));
}

} // namespace remat::ui
