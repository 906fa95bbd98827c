// Who talks to whom: the point-to-point communication matrix (sender process
// x receiver process, from matched message pairs) and the one-sided (RMA)
// matrix (origin x target), for `parallax matrix` and the viewer's heat map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/selection.h"
#include "base/status.h"
#include "model/trace.h"
#include "time/message_pairs.h"

namespace plx::analysis {

struct CommCell {
  uint64_t count = 0;          // matched messages
  uint64_t bytes = 0;          // bytes of their send records
  double mean_latency_ns = 0;  // mean of receive time - send time (negative under clock skew)
  int64_t max_latency_ns = 0;  // largest receive time - send time (0 when count is 0)
};

/// Matched point-to-point messages between processes (indices into
/// Trace::processes): a processes x processes matrix that keeps only the
/// cells with a message, so 16,384 processes that each talk to a few
/// neighbours take kilobytes, not the gigabytes of a dense matrix.
struct CommMatrix {
  size_t processes = 0;
  std::vector<uint64_t> keys;             // sender * processes + receiver, ascending
  std::vector<CommCell> cells;            // the cell of each key
  std::vector<uint64_t> unmatched_sends;  // per process: send records without a receive
  std::vector<uint64_t> unmatched_recvs;  // per process: receive records without a send
  uint64_t messages = 0;                  // matched messages in all
  uint64_t bytes = 0;

  /// The cell of (sender, receiver); an empty one when they exchanged nothing.
  const CommCell& at(size_t sender, size_t receiver) const;
};

/// The matrix of the pairs time::MatchMessages(trace) finds.
CommMatrix ComputeCommMatrix(const model::Trace& trace);
/// The same from pairs already matched on `trace`; with `selection`, only
/// the pairs both of whose records it contains, and the records without a
/// partner it contains.
CommMatrix ComputeCommMatrix(const model::Trace& trace, const time::MessagePairs& pairs,
                             const Selection* selection = nullptr);

enum RmaOp : uint8_t { kRmaPut = 0, kRmaGet = 1, kRmaAccumulate = 2, kRmaOther = 3 };

struct RmaCell {
  uint64_t count = 0;
  uint64_t bytes = 0;
  uint64_t op_count[4] = {0, 0, 0, 0};  // by RmaOp (op values above 3 count as other)
  uint64_t op_bytes[4] = {0, 0, 0, 0};
};

/// One-sided operations: origin process x target process; like CommMatrix,
/// only the cells with an operation.
struct RmaMatrix {
  size_t processes = 0;
  std::vector<uint64_t> keys;  // origin * processes + target, ascending
  std::vector<RmaCell> cells;  // the cell of each key
  uint64_t operations = 0;     // in the matrix
  uint64_t bytes = 0;
  uint64_t unmapped = 0;  // records whose origin or target is no process

  /// The cell of (origin, target); an empty one when there was nothing.
  const RmaCell& at(size_t origin, size_t target) const;
};

/// Where a matrix builder keeps the cells it has seen, by key row *
/// processes + column: a flat table up to kFlatCells cells (fast, and small
/// then), a hash map beyond.
class CellSlots {
 public:
  static constexpr uint64_t kFlatCells = uint64_t{1} << 20;
  explicit CellSlots(size_t processes);
  /// The slot of `key`; a new one, numbered size() before the call, when it
  /// had none.
  uint32_t Find(uint64_t key);
  size_t size() const { return keys_.size(); }
  /// The key of each slot.
  const std::vector<uint64_t>& keys() const { return keys_; }
  /// The slots in ascending key order.
  std::vector<uint32_t> Sorted() const;

 private:
  std::vector<uint32_t> flat_;  // key -> slot + 1 (0: none)
  std::unordered_map<uint64_t, uint32_t> map_;
  std::vector<uint64_t> keys_;
};

/// The message matrix built one pair at a time (in any order; the pass
/// that streams a trace from its file feeds it): ComputeCommMatrix is one
/// over all pairs.
class CommMatrixBuilder {
 public:
  explicit CommMatrixBuilder(size_t processes);
  /// A matched message from process `from` to `to` (indices into
  /// Trace::processes; others are ignored), with its send's bytes and the
  /// receive time minus the send time.
  void AddPair(uint32_t from, uint32_t to, uint64_t bytes, int64_t latency_ns);
  void AddUnmatched(uint32_t process, bool send);
  void Merge(const CommMatrixBuilder& other);
  CommMatrix Finish() const;
  /// The builder as bytes another process of an MPI-parallel analysis
  /// merges with MergeSaved (comm_matrix_wire.cc); exact, like Merge.
  std::string Save() const;
  /// InvalidArgument (nothing merged) when `saved` is cut or is of another
  /// process count.
  Status MergeSaved(std::string_view saved);

 private:
  uint32_t Slot(uint64_t key);
  void AddCell(uint64_t key, const CommCell& cell, __int128 latency_sum);

  CommMatrix m_;  // all but its cells
  CellSlots slots_;
  std::vector<CommCell> cells_;        // per slot
  std::vector<__int128> latency_sum_;  // per slot; exact, so any order of pairs gives the same mean
};

/// The RMA matrix built from parts of the RMA table (rows of any threads).
class RmaMatrixBuilder {
 public:
  explicit RmaMatrixBuilder(const model::Trace& trace);
  void AddRows(const model::RmaTable& rma, size_t begin, size_t end);
  void Merge(const RmaMatrixBuilder& other);
  RmaMatrix matrix() const;
  /// As CommMatrixBuilder's.
  std::string Save() const;
  Status MergeSaved(std::string_view saved);

 private:
  uint32_t Slot(uint64_t key);
  void AddCell(uint64_t key, const RmaCell& cell);

  RmaMatrix m_;  // all but its cells
  CellSlots slots_;
  std::vector<RmaCell> cells_;  // per slot
  bool by_rank_ = false;
  std::vector<uint32_t> process_of_rank_;
  uint32_t Process(int64_t id) const;
};

/// The matrix of Trace::rma. Origins and targets are world ranks, mapped to
/// processes through Process::rank; in a trace with no MPI ranks (all -1)
/// they are taken as indices into Trace::processes.
RmaMatrix ComputeRmaMatrix(const model::Trace& trace);

}  // namespace plx::analysis
