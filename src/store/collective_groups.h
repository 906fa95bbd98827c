// CollectiveGroups: the instances of collective operations
// (time::GroupCollectives: per communicator, the k-th record of each process
// belongs to instance k), formed from records that arrive in time order (a
// lockstep pass). An instance is complete once the pass is a horizon past
// its latest record; a record that would join an instance already handed
// on means records came further out of order than the horizon, and the
// pass runs again with a longer one.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/wire.h"
#include "model/trace.h"
#include "store/record_sides.h"
#include "time/communicator_keys.h"

namespace plx::store {

class CollectiveGroups {
 public:
  /// `done(members, key)`: an instance's records, by row, and its place in
  /// GroupCollectives' numbering among instances of equal earliest record
  /// (communicator key class, key, k).
  using Done = std::function<void(const std::vector<CollectiveSide>& members,
                                  const std::array<uint64_t, 3>& key)>;

  explicit CollectiveGroups(const model::Trace& trace);

  /// Starts again (a new attempt of the pass).
  void Reset(int64_t horizon_ns);
  /// A slab's records (every thread's, each in time order); hands on the
  /// instances that are complete. False when a record came too late.
  bool Add(const std::vector<std::vector<CollectiveSide>>& by_thread, int64_t until,
           const Done& done);
  /// Every record was added: hands on the rest, by their earliest record.
  void Finish(const Done& done);

 private:
  using Key = std::pair<std::pair<time::CommKeyClass, uint64_t>, uint64_t>;  // comm key, k
  struct Instance {
    std::vector<CollectiveSide> members;
    int64_t latest = INT64_MIN;
  };
  void HandOn(const Done& done, int64_t before);

  const model::Trace& trace_;
  std::vector<std::pair<time::CommKeyClass, uint64_t>> keys_;  // per communicator
  int64_t horizon_ = 0;
  std::map<std::pair<std::pair<time::CommKeyClass, uint64_t>, uint32_t>, uint64_t> next_;
  std::map<Key, Instance> open_;
  std::map<std::pair<time::CommKeyClass, uint64_t>, uint64_t> created_;  // per comm key: k + 1
};

/// Spread passes send a slab's collective records to the process that
/// groups them: as bytes (base/wire.h), the threads that have some, each
/// with its records.
void PutCollectives(const std::vector<std::vector<CollectiveSide>>& by_thread, std::string* out);
/// Appends what PutCollectives wrote to `by_thread`; false when cut or a
/// thread is out of its range.
bool GetCollectives(WireReader* in, std::vector<std::vector<CollectiveSide>>* by_thread);

}  // namespace plx::store
