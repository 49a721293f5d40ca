// SPDX-License-Identifier: MIT
#include "window/plan_choice_argument.h"

#include <QFileInfo>

namespace remat::ui {

std::optional<PlanChoice> planChoiceFromArgument(const QString& text, QString& error)
{
    PlanChoice choice;
    if (text == QLatin1String("pytorch")) {
        choice.kind = PlanChoice::Kind::PyTorch;
    } else if (text.startsWith(QLatin1String("budget="))) {
        bool ok = false;
        choice.kind = PlanChoice::Kind::Budget;
        choice.budget = text.mid(7).toDouble(&ok);
        if (!ok || choice.budget < 0 || choice.budget > 1) {
            error = QStringLiteral("--compare %1: the budget must be a number in [0, 1]").arg(text);
            return std::nullopt;
        }
    } else if (text == QLatin1String("other-rules")) {
        choice.kind = PlanChoice::Kind::OtherRules;
    } else if (text == QLatin1String("without-tags")) {
        choice.kind = PlanChoice::Kind::WithoutUserTags;
    } else if (QFileInfo::exists(text)) {
        choice.kind = PlanChoice::Kind::PlanFile;
        choice.path = text;
    } else {
        error = QStringLiteral(
            "--compare %1: expected pytorch, budget=B, other-rules, without-tags or a plan file")
                    .arg(text);
        return std::nullopt;
    }
    return choice;
}

} // namespace remat::ui
