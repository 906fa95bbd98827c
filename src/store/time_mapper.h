// TimeMapper: moves one thread's decoded chunks onto the repaired times, as
// time::ApplyTimeMaps moves the whole model — every time column through the
// thread's map, kept in order with the row before it (across chunks too),
// slice ends never before their begins, and self times changed by the
// change of the slice's own duration less its direct children's. A slice
// still open when a chunk ends (a long slice) has children in later chunks:
// its self time is final only once the thread is done (LongSlices()).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/trace.h"
#include "store/chunk_decoder.h"
#include "store/skeleton.h"
#include "time/time_map.h"

namespace plx::store {

class TimeMapper {
 public:
  /// `map` may be the identity (empty); it must outlive the mapper.
  explicit TimeMapper(const time::ThreadTimeMap* map) : map_(map) {}

  /// Maps the chunk's own rows in place (`tables` is the decoder's, whose
  /// rows `rows` describes) and adds what moved to `stats`.
  void Map(const ChunkRows& rows, model::Trace* tables, time::TimeMapStats* stats);
  /// Whether own slice row `r` of the chunk mapped last is a long slice.
  bool IsLong(size_t r) const;
  /// After the thread's last chunk: its long slices, rows [0, n) of a table
  /// of this thread, with their repaired times and final self times, and
  /// their global rows.
  const model::SliceTable& LongSlices(std::vector<uint64_t>* rows);

 private:
  int64_t Move(int64_t t, size_t* hint, time::TimeMapStats* stats) const;
  void KeepLong(const ChunkRows& rows, const model::SliceTable& s, size_t n);

  const time::ThreadTimeMap* map_;
  // Carried from chunk to chunk: each column's last time, the latest slice
  // at each depth (global row), the long slices' pending self changes.
  int64_t last_[model::kTableCount] = {};
  bool has_last_[model::kTableCount] = {};
  std::vector<uint64_t> open_;                       // global slice rows, by depth
  std::unordered_map<uint64_t, size_t> long_index_;  // global row -> long_ row
  model::SliceTable long_;
  std::vector<uint64_t> long_rows_;
  std::vector<uint8_t> own_long_;  // of the chunk mapped last, per own slice
  size_t carried_ = 0;
};

}  // namespace plx::store
