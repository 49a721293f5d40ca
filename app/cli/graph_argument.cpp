// SPDX-License-Identifier: MIT
#include "cli/graph_argument.h"

#include "io/graph_loader.h"

#include <memory>

namespace remat::cli {

const JointGraph& loadGraphArgument(const Arguments& args)
{
    static std::unique_ptr<JointGraph> loaded;
    // No command prints PyTorch's forward and backward node lists: only its saved sets are read.
    loaded = std::make_unique<JointGraph>(loadGraphFile(args.positionals().at(0),
        args.value(kGraphOption).value_or(std::string()), RecordedDetail::SavedSetsOnly));
    return *loaded;
}

} // namespace remat::cli
