// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace remat {

/// The one exception type core throws: its message is complete and meant for the user
/// ("gpt.json: node 'mm_3': val.shape[1]: negative size -4").
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message)
        : std::runtime_error(message)
    { }
};

} // namespace remat
