// ChunkCursor: a scan of one record table (slices, instants, counter
// samples, collectives) straight from the trace file. The constraints on
// the thread, process and rank columns pick the threads; bounds on the time
// columns pick each thread's chunks (a thread's records are in time order,
// and the skeleton knows the time before each chunk), so a window of a huge
// trace decodes only the chunks over it, one at a time.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "model/undefined_log.h"
#include "query/trace_context.h"
#include "query/vtab.h"
#include "store/chunk_decoder.h"

namespace plx::query {

/// Which columns of a record table say where a row is.
struct ScanColumns {
  int thread = -1, process = -1, rank = -1;
  int time_a = -1, time_b = -1;  // a row's time, or its begin and end (-1: none)
  store::TableIndex table = store::kSlices;
  int id = -1;  // the row's number: its global row in the table (-1: none)
};

/// Whether a record table's scan uses `column op value` (columns of `c`).
bool ScanTakes(const ScanColumns& c, int column, Op op);
/// Rows of `table` a scan under `taken` is expected to read, of `rows`.
double ScanEstimate(const ScanColumns& c, const std::vector<Constraint>& taken, double rows,
                    uint32_t threads);

/// A record table read by ChunkCursors: its spec, where-columns and rows.
class RecordTable : public VirtualTable {
 public:
  RecordTable(const TableSpec& spec, const TraceContext& context, ScanColumns columns)
      : VirtualTable(spec), context_(context), columns_(columns) {}
  bool Takes(int column, Op op) const override { return ScanTakes(columns_, column, op); }
  double Estimate(const std::vector<Constraint>& taken) const override {
    const double rows = static_cast<double>(context_.store->totals().table[columns_.table]);
    return ScanEstimate(columns_, taken, rows, context_.store->threads());
  }

 protected:
  const TraceContext& context_;
  const ScanColumns columns_;
};

class ChunkDecoding;

class ChunkCursor : public Cursor {
 public:
  ChunkCursor(const TraceContext& context, ScanColumns columns);
  ~ChunkCursor() override;

  Status Filter(const std::vector<Constraint>& constraints) override;
  Status Next() override;
  bool Eof() const override { return job_ >= jobs_.size(); }

  /// A chunk a scan decodes; `first`: the first of its thread in a window
  /// (its carried slices are the window's too).
  struct Job {
    uint32_t thread = 0;
    size_t chunk = 0;
    bool first = false;
  };

 protected:
  /// The rows of this table in the chunk decoded last, from `first` on.
  virtual size_t Rows(const store::ChunkRows& rows) const = 0;
  virtual size_t First(const store::ChunkRows& rows) const { return 0; }
  /// Whether row `r` may answer: inside [from_, to_] and whatever else the
  /// table checks (rows it drops, SQLite would have dropped).
  virtual bool Wanted(size_t r) const = 0;
  /// Takes the constraints the table checks itself (before the scan).
  virtual void Take(const std::vector<Constraint>& constraints) {}

  const TraceContext& context_;
  const ScanColumns columns_;
  int64_t from_ = std::numeric_limits<int64_t>::min();
  int64_t to_ = std::numeric_limits<int64_t>::max();
  const store::ChunkRows* rows_ = nullptr;  // the chunk decoded last
  size_t first_chunk_ = 0;                  // rows_'s chunk when it is a window's first, else none
  size_t row_ = 0;                          // the current row of rows_

 private:
  // Moves to the first wanted row at or after (job_, row_).
  Status Settle();
  // The chunks of the threads asked for that the window or the ids need.
  void PlanWindow(const std::vector<uint32_t>& threads);
  void PlanIds(const std::vector<uint32_t>& threads);
  // Whether row r of rows_ is one of ids_ (always, without ids_).
  bool IdWanted(size_t r) const;

  std::vector<int64_t> ids_;  // `id` = or IN: sorted
  bool by_id_ = false;
  std::vector<Job> jobs_;
  size_t job_ = 0;
  std::unique_ptr<ChunkDecoding> decoding_;
};

}  // namespace plx::query
