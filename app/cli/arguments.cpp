// SPDX-License-Identifier: MIT
#include "cli/arguments.h"

#include <charconv>

namespace remat::cli {

Arguments::Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
    const std::set<std::string>& flags)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
            m_positionals.push_back(arg);
            continue;
        }
        std::optional<std::string> inlineValue;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        if (valued.contains(arg)) {
            if (!inlineValue && i + 1 >= args.size())
                throw UsageError {arg + " needs a value"};
            m_values[arg].push_back(inlineValue ? *inlineValue : args[++i]);
        } else if (flags.contains(arg) && !inlineValue) {
            m_flags.insert(arg);
        } else {
            throw UsageError {"unknown option " + arg};
        }
    }
}

std::optional<std::string> Arguments::value(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second.back();
}

const std::vector<std::string>& Arguments::values(const std::string& name) const
{
    static const std::vector<std::string> none;
    const auto it = m_values.find(name);
    return it == m_values.end() ? none : it->second;
}

double Arguments::number(const std::string& name, double fallback) const
{
    const auto text = value(name);
    if (!text)
        return fallback;
    double result = 0;
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), result);
    if (error != std::errc {} || end != text->data() + text->size())
        throw UsageError {name + " expects a number, not \"" + *text + "\""};
    return result;
}

int Arguments::integer(const std::string& name, int fallback) const
{
    const auto text = value(name);
    if (!text)
        return fallback;
    int result = 0;
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), result);
    if (error != std::errc {} || end != text->data() + text->size())
        throw UsageError {name + " expects an integer, not \"" + *text + "\""};
    return result;
}

int Arguments::integer(const std::string& name, int fallback, int minimum) const
{
    const int result = integer(name, fallback);
    if (result < minimum)
        throw UsageError {
            name + " must be at least " + std::to_string(minimum) + ", not " + std::to_string(result)};
    return result;
}

} // namespace remat::cli
