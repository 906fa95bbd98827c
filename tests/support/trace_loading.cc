// LoadTraceFile: TraceFile::Open, then model::LoadTrace.
#include "support/trace_loading.h"

#include <gtest/gtest.h>

#include "format/trace_file.h"
#include "model/load_trace.h"

namespace plx::testing {

model::Trace LoadTraceFile(const std::string& path) {
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return {};
  auto trace = model::LoadTrace(**file);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return trace.ok() ? std::move(*trace) : model::Trace{};
}

}  // namespace plx::testing
