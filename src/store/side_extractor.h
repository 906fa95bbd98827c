// SideExtractor: one thread's message, collective and posted-receive records
// in time order, each with the call around it, taken from its decoded
// chunks one after the other. It keeps the slices that may still contain a
// later record (the sweep of time::EnclosingSlices: a record belongs to the
// innermost slice open at its time), and holds back the records of the last
// time stamp seen until the next chunk shows no slice begins at that same
// nanosecond. Records get their call as their chunk arrives, and the sweep
// reads the chunk's slices where they were decoded: a chunk's slices are
// not copied, nor kept while its records wait to be taken.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "store/chunk_decoder.h"
#include "store/record_sides.h"

namespace plx::store {

class SideExtractor {
 public:
  /// Takes the records of a decoded chunk of this thread (chunks in order).
  void Add(const ChunkRows& rows);
  /// No more chunks: every record may go.
  void Finish();

  /// Moves the records with time < `until` whose call is known (all of them
  /// once finished) to the ends of the vectors, in time order per kind.
  void Take(int64_t until, std::vector<MessageSide>* messages,
            std::vector<CollectiveSide>* collectives, std::vector<PostSide>* posts);

  /// Records not taken yet.
  size_t held() const { return messages_.size() + collectives_.size() + posts_.size(); }
  /// The time of the last record of the chunks added so far.
  int64_t last_time() const { return last_time_; }

 private:
  struct Slice {
    uint32_t row;
    uint32_t state;
    uint32_t callsite;
    uint16_t depth;
    int64_t begin, end;
  };
  // With the chunk being added (chunk_), opens its slices that began by t.
  CallRef CallAt(int64_t t);
  // Gives the records before `limit` not given one yet their call, in time
  // order over the three kinds, so that the slices they needed can go.
  void Resolve(int64_t limit);

  const ChunkRows* chunk_ = nullptr;  // while Add runs
  size_t next_slice_ = 0;             // its first slice not opened yet
  std::vector<Slice> open_;           // the sweep's stack, outermost first
  std::deque<MessageSide> messages_;
  std::deque<CollectiveSide> collectives_;
  std::deque<PostSide> posts_;
  // The first resolved_m_ messages and resolved_c_ collectives have their
  // call (posts need none).
  size_t resolved_m_ = 0, resolved_c_ = 0;
  int64_t last_time_ = INT64_MIN;  // of the last record decoded
  bool finished_ = false;
};

}  // namespace plx::store
