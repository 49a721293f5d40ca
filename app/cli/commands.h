// SPDX-License-Identifier: MIT
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace remat::cli {

/// The headless subcommands. Each returns the process exit code: 0 on success, 1 when the input
/// is bad (a one-line error on stderr), 2 when the command line itself is wrong.
bool isCommand(std::string_view name);
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

int partitionCommand(const std::vector<std::string>& args, std::ostream& out);
int infoCommand(const std::vector<std::string>& args, std::ostream& out);
int benchCommand(const std::vector<std::string>& args, std::ostream& out);
int budgetCommand(const std::vector<std::string>& args, std::ostream& out);
int paretoCommand(const std::vector<std::string>& args, std::ostream& out);
int memoryCommand(const std::vector<std::string>& args, std::ostream& out);
int devicesCommand(const std::vector<std::string>& args, std::ostream& out);
int explainCommand(const std::vector<std::string>& args, std::ostream& out);
int compareCommand(const std::vector<std::string>& args, std::ostream& out);

} // namespace remat::cli
