// SPDX-License-Identifier: MIT
// Helpers shared by the explain tests (not a test itself: no tst_ prefix).
#pragma once

#include "graph/error.h"
#include "io/graph_loader.h"

#include <QFileInfo>
#include <QString>
#include <QTest>

#include <map>
#include <memory>
#include <string>

namespace remat::testing {

inline std::string sharedOraclePath(const std::string& file)
{
    return std::string(REMAT_SHARED_DIR "/oracle/") + file;
}

/// Each graph is read once per test binary; a missing file fails the test that asked for it.
inline const JointGraph& oracleGraph(const std::string& file)
{
    static std::map<std::string, std::unique_ptr<JointGraph>> cache;
    auto& slot = cache[file];
    if (!slot) {
        const std::string path = sharedOraclePath(file);
        if (!QFileInfo::exists(QString::fromStdString(path)))
            throw Error(path + ": missing (the shared folder must be beside the checkout)");
        slot = std::make_unique<JointGraph>(loadGraphFile(path));
    }
    return *slot;
}

} // namespace remat::testing
