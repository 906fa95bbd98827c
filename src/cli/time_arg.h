// Time arguments on the command line: a number with an optional unit suffix
// (ns, us, ms, s; none = ns), e.g. `--from 1.5ms`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace plx::cli {

/// Parses "250", "250ns", "1.5us", "10ms", "2s" into ns (rounded). False for
/// anything else, negative values included.
bool ParseDuration(std::string_view text, int64_t* ns);

/// For a CLI11 option check: "" when `text` is a time, else what is wrong
/// ("'soon' is not a time (a number with ns, us, ms or s)").
std::string DurationProblem(const std::string& text);

}  // namespace plx::cli
