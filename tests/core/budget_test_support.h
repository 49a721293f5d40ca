// SPDX-License-Identifier: MIT
// Helpers shared by the memory-budget tests (not a test itself: no tst_ prefix).
#pragma once

#include "io/graph_loader.h"

#include <QString>

#include <string>

namespace remat::testing {

/// `dir` + `file`, appended rather than with `+`: GCC 12 misreads the latter (-Warray-bounds).
inline std::string fileIn(const char* dir, const char* file)
{
    std::string path = dir;
    path += file;
    return path;
}

inline std::string testAcPath(const char* file)
{
    return fileIn(REMAT_TEST_DATA_DIR "/test_ac/", file);
}

inline std::string oraclePath(const char* file)
{
    return fileIn(REMAT_SHARED_DIR "/oracle/", file);
}

/// A joint graph written inline: `nodes` is the JSON list of nodes.
inline JointGraph graphFromNodes(
    const std::string& nodes, int numFwdOutputs, const char* name = "inline.json")
{
    const std::string text = R"({"format":"joint-graph","version":1,"num_fwd_outputs":)"
        + std::to_string(numFwdOutputs) + R"(,"nodes":)" + nodes + "}";
    return loadGraphText(text, name);
}

/// A float32 TensorMeta of the given shape (contiguous strides), as JSON.
inline std::string f32(std::initializer_list<long long> shape, const char* dtype = "float32")
{
    std::string s = R"({"shape":[)";
    std::string stride;
    long long running = 1;
    std::vector<long long> dims(shape);
    std::vector<long long> strides(dims.size());
    for (std::size_t i = dims.size(); i-- > 0;) {
        strides[i] = running;
        running *= dims[i];
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        s += (i ? "," : "") + std::to_string(dims[i]);
        stride += (i ? "," : "") + std::to_string(strides[i]);
    }
    return s + R"(],"dtype":")" + dtype + R"(","stride":[)" + stride + R"(],"device":"cpu"})";
}

} // namespace remat::testing
