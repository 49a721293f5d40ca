// SPDX-License-Identifier: MIT
#include "cli/graph_argument.h"

#include "io/graph_loader.h"

#include <memory>

namespace remat::cli {

const JointGraph& loadGraphArgument(const Arguments& args)
{
    static std::unique_ptr<JointGraph> loaded;
    loaded = std::make_unique<JointGraph>(
        loadGraphFile(args.positionals().at(0), args.value(kGraphOption).value_or(std::string())));
    return *loaded;
}

} // namespace remat::cli
