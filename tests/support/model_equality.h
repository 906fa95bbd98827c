// Comparing two models in tests: every difference that matters for
// equality (every column of every table, texts, problems, counters, the
// threads and the definitions), one line each.
#pragma once

#include <string>
#include <vector>

#include "model/trace.h"

namespace plx::testing {

/// What differs between a and b; empty when they are the same.
std::vector<std::string> ModelDifferences(const model::Trace& a, const model::Trace& b);

}  // namespace plx::testing
