// SPDX-License-Identifier: MIT
#include "cli/budget_args.h"

#include "analysis/recording_rules.h"
#include "budget/device_profile.h"
#include "budget/region_budget.h"
#include "cli/partition_options_from_args.h"
#include "install/data_dir.h"

#include <cstdlib>

namespace remat::cli {

const std::set<std::string>& budgetOptionNames()
{
    static const std::set<std::string> names {
        "--solver", "--estimator", "--device", "--devices", "--rules", "--inductor-passes"};
    return names;
}

PartitionOptions budgetPartitionOptionsFrom(const Arguments& args, const JointGraph& graph)
{
    PartitionOptions options;
    options.rules = RuleSet::Newest;
    options.config.activationOffloading = activationOffloadingFrom(args);
    if (const auto r = args.value("--rules")) {
        const auto rules = parseRuleSet(*r);
        if (!rules)
            throw UsageError {"--rules must be " + std::string(ruleSetChoices()) + ", not \"" + *r + "\""};
        if (*rules == RuleSet::Torch113)
            throw UsageError {
                "--rules torch-1.13 has no memory budget (PyTorch 1.13 had none): use torch-2.14"};
        options.rules = *rules;
    }
    options.config.inductorJointPasses = inductorJointPassesFrom(args, options.rules, graph);
    return options;
}

std::filesystem::path deviceProfilesPath(const Arguments& args)
{
    if (const auto path = args.value("--devices"))
        return *path;
    if (const char* env = std::getenv("REMAT_DEVICE_PROFILES"); env && *env)
        return env;
    return dataFile("device_profiles.json");
}

BudgetOptions budgetOptionsFrom(const Arguments& args)
{
    BudgetOptions options;
    if (const auto s = args.value("--solver")) {
        const auto solver = parseSolver(*s);
        if (!solver)
            throw UsageError {"--solver must be " + solverChoices() + ", not \"" + *s + "\""};
        options.solver = *solver;
    }
    const auto device = args.value("--device");
    if (const auto e = args.value("--estimator")) {
        const auto estimator = parseEstimator(*e);
        if (const auto reason = unreproducibleEstimatorReason(*e))
            throw UsageError {"--estimator " + *e + ": " + *reason};
        if (!estimator)
            throw UsageError {"--estimator must be flops, testing or roofline, not \"" + *e + "\""};
        options.estimator = *estimator;
        if (device && *estimator != RuntimeEstimatorKind::Roofline)
            throw UsageError {"--device only applies to the roofline estimator"};
    } else if (device) {
        options.estimator = RuntimeEstimatorKind::Roofline;
    }
    if (options.estimator == RuntimeEstimatorKind::Roofline) {
        const auto profiles = readDeviceProfiles(deviceProfilesPath(args).string());
        options.device = device ? findDeviceProfile(profiles, *device) : profiles.front();
    }
    return options;
}

double budgetFrom(const Arguments& args, double fallback)
{
    const double budget = args.number("--budget", fallback);
    checkMemoryBudget(budget); // PyTorch's own message
    return budget;
}

} // namespace remat::cli
