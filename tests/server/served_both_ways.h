// A test trace served both ways a server may serve it: loaded whole, and
// from its file with a budget so small that every decoded chunk is evicted
// at once (its index in `index_dir`), in one TraceStore, so that one Api
// answers for both.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "server/api/api.h"
#include "server/api/served_trace.h"

namespace plx::server {

struct ServedBothWays {
  TraceStore served;
  ServedTrace* memory = nullptr;
  ServedTrace* file = nullptr;

  /// False when the trace does not load whole, or has no record (then it
  /// is never over a budget); a failure to serve it from its file fails
  /// the test.
  bool Load(const std::string& path, const std::string& index_dir) {
    memory = &served.Add(path);
    memory->Load({});
    if (!memory->ready()) return false;
    file = FromFile(path, index_dir);
    return file != nullptr;
  }

  /// The trace served from its file once more (null, and a failure, when
  /// it is not).
  ServedTrace* FromFile(const std::string& path, const std::string& index_dir) {
    StoreServing serving;
    serving.index.dir = index_dir;
    serving.memory_bytes = 64 << 10;
    ServedTrace* t = &served.Add(path);
    t->ServeLargeFromFile(serving, 0);
    t->Load({});
    EXPECT_TRUE(t->ready()) << t->progress().error;
    return t->ready() && t->from_store() ? t : nullptr;
  }
};

}  // namespace plx::server
