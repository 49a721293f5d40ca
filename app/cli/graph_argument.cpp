// SPDX-License-Identifier: MIT
#include "cli/graph_argument.h"

#include "io/graph_loader.h"

namespace remat::cli {

JointGraph loadGraphArgument(const Arguments& args)
{
    return loadGraphFile(args.positionals().at(0), args.value(kGraphOption).value_or(std::string()));
}

} // namespace remat::cli
