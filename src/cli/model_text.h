// How text output names things of the model (call sites, processes), so every
// command's tables say them the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace plx::cli {

/// "file:line (function)", or `unknown` for a call site the trace lacks.
std::string CallsiteText(const model::Trace& t, uint32_t callsite,
                         std::string_view unknown = "(unknown)");

/// "rank N" for an MPI process, else "process N" (its number in the file).
std::string ProcessText(const model::Process& p);

/// The ranks joined by `separator`: "0, 1".
std::string RankList(const std::vector<int64_t>& ranks, std::string_view separator = ", ");

/// "thread S (name)" (S its stream), after ProcessText when the trace has
/// more than one process: "rank 2 thread 0".
std::string ThreadText(const model::Trace& t, uint32_t thread);

}  // namespace plx::cli
