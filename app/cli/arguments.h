// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace remat::cli {

/// Command-line arguments of one subcommand: positionals, "--name value" options and "--flag"s.
/// Unknown options are errors, so a typo never silently changes a result.
class Arguments {
public:
    /// `valued`: options that take a value ("--rules" "torch-1.13"); `flags`: options that do not.
    /// Throws UsageError.
    Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
        const std::set<std::string>& flags);

    const std::vector<std::string>& positionals() const { return m_positionals; }
    /// The last value given for `name`.
    std::optional<std::string> value(const std::string& name) const;
    /// Every value given for a repeatable option ("--tag a=MUST_SAVE --tag b=MUST_SAVE"), in order.
    const std::vector<std::string>& values(const std::string& name) const;
    bool flag(const std::string& name) const { return m_flags.contains(name); }
    double number(const std::string& name, double fallback) const;
    int integer(const std::string& name, int fallback) const;
    /// integer(), and a UsageError ("--top must be at least 0") below `minimum`.
    int integer(const std::string& name, int fallback, int minimum) const;

private:
    std::vector<std::string> m_positionals;
    std::map<std::string, std::vector<std::string>> m_values;
    std::set<std::string> m_flags;
};

/// A mistake in how the command was called: exit code 2 and the usage text.
struct UsageError {
    std::string message;
};

} // namespace remat::cli
