// The model of a trace script (support/trace_script.h), written to a
// temporary file and loaded as a real trace would be: for the analysis tests
// that need what the loader derives (nesting, messages, posted receives).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::testing {

/// The loaded model of `script`; an empty model (and a test failure) when
/// the script or the load fails.
inline model::Trace LoadScript(const std::string& script) {
  TempDir dir;
  const std::string path = dir.File("t.plx");
  const Status written = WriteTraceScript(script, path);
  EXPECT_TRUE(written.ok()) << written.message();
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok());
  if (!file.ok()) return {};
  auto trace = model::LoadTrace(**file);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return trace.ok() ? std::move(trace).value() : model::Trace();
}

}  // namespace plx::testing
