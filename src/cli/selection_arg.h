// The part of a trace a command looks at, from the command line: a window
// (--from, --to: times since the trace begin, both ends included) and lists
// of processes (as `info` numbers them) or threads (--rows: as the viewer
// and `stats --by thread` order them), e.g. `--processes 0,2,5-7`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/state_stats.h"
#include "base/status.h"
#include "model/trace.h"

namespace plx::cli {

/// "0,2,5-7" into its numbers; false on anything else (an empty list too).
bool ParseNumberList(std::string_view text, std::vector<uint32_t>* out);

/// What the options ask for, as they were typed ("" where not given).
struct SelectionArgs {
  std::string from, to;
  std::string processes, rows;
  bool any() const { return !from.empty() || !to.empty() || !processes.empty() || !rows.empty(); }
};

/// The statistics selection of `args` over `trace`; InvalidArgument naming
/// the option that does not fit it (`command` starts the message).
StatusOr<analysis::StatsSelection> ParseSelection(const model::Trace& trace,
                                                  const SelectionArgs& args,
                                                  std::string_view command);

}  // namespace plx::cli
