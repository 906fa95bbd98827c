// The test traces: a catalogue of small traces that between them hold every
// kind of record and every kind of damage the loader copes with — slices
// nested across chunk boundaries and never closed, leaves that match no
// enter, ids no process defines, a TSC clock with sync pairs, MPI runs with
// skewed clocks (causal repair), a deadlock, work-queue messages, damaged
// and truncated files. Tests that compare two ways of computing the same
// answer (the in-memory model and the out-of-core engine) run over all.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/test_support.h"

namespace plx::testing {

struct TestTrace {
  std::string name;
  std::string path;
};

/// Writes the catalogue into `dir` (a failed expectation for any that could
/// not be written) and returns the traces, in a fixed order.
std::vector<TestTrace> WriteTestTraces(const std::string& dir);

/// A fixture whose suite has the catalogue written once, in a temporary
/// directory: `*traces_` (test suites run one after the other).
class TestTracesSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  static TempDir* dir_;
  static std::vector<TestTrace>* traces_;
};

}  // namespace plx::testing
