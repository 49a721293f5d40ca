// SPDX-License-Identifier: MIT
#include "model/budget_settings.h"

#include "graph/error.h"
#include "model/device_profiles.h"
#include "model/qt_strings.h"

#include <QObject>

namespace remat::ui {

bool BudgetSettings::sameSession(const BudgetSettings& other) const
{
    return solver == other.solver && estimator == other.estimator
        && (estimator != RuntimeEstimatorKind::Roofline || device == other.device);
}

BudgetOptions budgetOptionsFor(const BudgetSettings& settings)
{
    BudgetOptions options;
    options.solver = settings.solver;
    options.estimator = settings.estimator;
    if (settings.estimator == RuntimeEstimatorKind::Roofline) {
        const DeviceProfileFile& file = deviceProfiles();
        if (file.profiles.empty())
            throw Error(file.error.toStdString());
        options.device = settings.device.isEmpty()
            ? file.profiles.front()
            : findDeviceProfile(file.profiles, settings.device.toStdString());
    }
    return options;
}

QString budgetMethodText(const BudgetSettings& settings)
{
    QString text = toQString(solverName(settings.solver)) + QStringLiteral(" · ")
        + toQString(estimatorName(settings.estimator));
    if (settings.estimator == RuntimeEstimatorKind::Roofline) {
        const DeviceProfileFile& file = deviceProfiles();
        const QString device = !settings.device.isEmpty() ? settings.device
            : file.profiles.empty()                       ? QString()
                                    : QString::fromStdString(file.profiles.front().name);
        if (!device.isEmpty())
            text += QObject::tr(" on %1").arg(device);
    }
    return text;
}

} // namespace remat::ui
