// SPDX-License-Identifier: MIT
#include "teaching/dot_text.h"

namespace remat::ui {

QString dotQuoted(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

QString dotHeader(const QString& rankdir)
{
    return QStringLiteral("digraph lesson {\n  rankdir=%1; bgcolor=\"white\"; nodesep=0.25; ranksep=0.35;\n"
                          "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, "
                          "fillcolor=\"white\", color=\"#555555\"];\n"
                          "  edge [color=\"#777777\", arrowsize=0.6, fontname=\"Helvetica\", fontsize=9];\n")
        .arg(rankdir);
}

} // namespace remat::ui
