// SPDX-License-Identifier: MIT
#include "cli/partition_options_from_args.h"

namespace remat::cli {

const std::set<std::string>& partitionOptionNames()
{
    static const std::set<std::string> names {"--partitioner", "--rules", "--compiler"};
    return names;
}

PartitionOptions partitionOptionsFrom(const Arguments& args)
{
    PartitionOptions options;
    if (const auto p = args.value("--partitioner")) {
        const auto kind = parsePartitioner(*p);
        if (!kind)
            throw UsageError {"--partitioner must be min-cut or default, not \"" + *p + "\""};
        options.partitioner = *kind;
    }
    if (const auto r = args.value("--rules")) {
        const auto rules = parseRuleSet(*r);
        if (!rules)
            throw UsageError {"--rules must be " + std::string(ruleSetChoices()) + ", not \"" + *r + "\""};
        options.rules = *rules;
    }
    if (const auto c = args.value("--compiler")) {
        const auto compiler = parseCompiler(*c);
        if (!compiler)
            throw UsageError {"--compiler must be nvfuser or inductor, not \"" + *c + "\""};
        options.compiler = *compiler;
    }
    return options;
}

} // namespace remat::cli
