// What every table of a trace needs beside its rows: the trace store, each
// thread's process and rank, and the texts its columns show for ids (call
// sites, categories, communicators), made once per engine.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"
#include "store/trace_store.h"

namespace plx::query {

class Cell;

struct TraceContext {
  explicit TraceContext(const store::TraceStore& store);

  const model::Trace& trace() const { return store->trace(); }
  /// Writes thread `t`'s rank, or NULL when its process has none.
  void Rank(uint32_t t, Cell cell) const;
  /// Writes call site `c` as file:line, or NULL when unknown.
  void Callsite(uint32_t c, Cell cell) const;
  /// Writes category `c`'s name, or NULL when none.
  void Category(uint32_t c, Cell cell) const;
  /// Writes communicator `c`'s name, or NULL when undefined.
  void Comm(uint32_t c, Cell cell) const;

  /// A model time as the tables show it: ns since the trace's first record.
  int64_t Shown(int64_t t) const { return t - origin; }

  const store::TraceStore* store;
  int64_t origin = 0;                  // the trace's first record (model ns)
  std::vector<uint32_t> process_of;    // per thread
  std::vector<int64_t> rank_of;        // per thread; -1 = not an MPI process
  std::vector<std::string> callsites;  // per call site: file:line
  /// Chunks the scans decoded so far (what a narrowed scan saves shows here).
  mutable std::atomic<uint64_t> chunks_decoded{0};
};

}  // namespace plx::query
