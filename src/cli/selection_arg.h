// The part of a trace a command looks at, from the command line: a window
// (--from, --to: times since the trace begin, both ends included) and lists
// of processes (as `info` numbers them) or threads (--rows: as the viewer
// and `stats --by thread` order them), e.g. `--processes 0,2,5-7`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/selection.h"
#include "base/status.h"
#include "model/trace.h"

namespace CLI {
class App;
}  // namespace CLI

namespace plx::cli {

/// "0,2,5-7" into its numbers; false on anything else (an empty list too).
bool ParseNumberList(std::string_view text, std::vector<uint32_t>* out);

/// What the options ask for, as they were typed ("" where not given).
struct SelectionArgs {
  std::string from, to;
  std::string processes, rows;
  bool any() const { return !from.empty() || !to.empty() || !processes.empty() || !rows.empty(); }
};

/// The selection of `args` over `trace` (nullopt when no option was
/// given); InvalidArgument naming the option that does not fit it
/// (`command` starts the message).
StatusOr<std::optional<analysis::Selection>> ParseSelection(const model::Trace& trace,
                                                            const SelectionArgs& args,
                                                            std::string_view command);

/// "selection: 1.000 ms to 2.000 ms after the trace begin; 3 of 8 threads".
std::string SelectionText(const model::Trace& trace, const analysis::Selection& selection);
/// {"from_ns", "to_ns" (since the trace begin), "threads" (how many it keeps)}.
nlohmann::ordered_json SelectionJson(const model::Trace& trace,
                                     const analysis::Selection& selection);

/// Adds --from, --to, --processes and --rows to `app`, filling `args`.
void AddSelectionOptions(CLI::App* app, SelectionArgs* args);

}  // namespace plx::cli
