// SPDX-License-Identifier: MIT
#pragma once

#include "io/torch_trace_log.h"

#include <map>
#include <string>
#include <string_view>

namespace remat::trace {

/// A Dynamo source as the model names it: "L['self']._modules['h']._modules['0']._parameters['weight']"
/// -> "h.0.weight", "L['ids']" -> "ids", "L['kwargs']['input_ids']" -> "kwargs.input_ids". Empty for
/// a source that is not a chain of names and keys (a size, a call).
std::string modelNameOfSource(std::string_view source);

/// The model's names of a compilation's joint-graph inputs, by primal ("primals_2" ->
/// "transformer.wte.weight"). The joint graph's record says which of Dynamo's inputs each primal
/// is ("# PlainAOTInput(idx=1)"), the dynamo_output_graph record names those inputs in order, and
/// the describe_source records say where Dynamo found each one. A primal that any of them leaves
/// unnamed (a SymInt, a log without those records) is left out.
std::map<std::string, std::string> tracedInputNames(const TracedCompile& compile);

} // namespace remat::trace
