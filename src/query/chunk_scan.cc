// ChunkCursor: the jobs (threads, then each thread's chunks from the one
// that may hold the window's start to the one past its end, or the chunks
// holding the ids asked for), then each chunk's rows.
// Constraints whose values are not numbers (text, NULL) narrow nothing:
// SQLite still applies them to every row.
#include "query/chunk_scan.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace plx::query {

namespace {

// The constraint's values as doubles; false when one is not a number.
bool Numbers(const Constraint& c, std::vector<double>* out) {
  out->clear();
  for (const Value& v : c.values) {
    if (v.kind == Value::kInt)
      out->push_back(static_cast<double>(v.i));
    else if (v.kind == Value::kReal)
      out->push_back(v.d);
    else
      return false;
  }
  return !out->empty();
}

// Whether `x` satisfies the constraint (its values given as numbers).
bool Holds(Op op, const std::vector<double>& values, double x) {
  switch (op) {
    case Op::kEq:
      return std::find(values.begin(), values.end(), x) != values.end();
    case Op::kLt:
      return x < values[0];
    case Op::kLe:
      return x <= values[0];
    case Op::kGt:
      return x > values[0];
    case Op::kGe:
      return x >= values[0];
  }
  return true;
}

int64_t Floor(double v) {
  if (v <= -9.2e18) return std::numeric_limits<int64_t>::min();
  if (v >= 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::floor(v));
}

int64_t Ceil(double v) {
  if (v <= -9.2e18) return std::numeric_limits<int64_t>::min();
  if (v >= 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::ceil(v));
}

int64_t SaturatedAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (!__builtin_add_overflow(a, b, &out)) return out;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

bool IsTime(const ScanColumns& c, int column) {
  return column >= 0 && (column == c.time_a || column == c.time_b);
}

bool IsId(const ScanColumns& c, int column) {
  return column >= 0 && column == c.id;
}

bool IsWhere(const ScanColumns& c, int column) {
  return column >= 0 && (column == c.thread || column == c.process || column == c.rank);
}

}  // namespace

bool ScanTakes(const ScanColumns& c, int column, Op op) {
  return IsTime(c, column) || IsWhere(c, column) || (IsId(c, column) && op == Op::kEq);
}

double ScanEstimate(const ScanColumns& c, const std::vector<Constraint>& taken, double rows,
                    uint32_t threads) {
  bool where = false, low = false, high = false;
  for (const Constraint& k : taken) {
    if (IsId(c, k.column)) return 1000;  // the rows of a chunk or a few
    if (IsWhere(c, k.column) && k.op == Op::kEq) where = true;
    if (IsTime(c, k.column)) {
      if (k.op != Op::kLt && k.op != Op::kLe) low = true;
      if (k.op != Op::kGt && k.op != Op::kGe) high = true;
    }
  }
  if (where) rows /= std::max<uint32_t>(1, threads);
  if (low && high)
    rows /= 100;
  else if (low || high)
    rows /= 2;
  return rows;
}

// The chunks of a scan decoded in order: on the caller's thread, or, for a
// long scan where the store has more than one worker, ahead of it on a
// thread of its own into a ring of decoders, so decoding and SQLite's work
// on the rows run on two cores.
class ChunkDecoding {
 public:
  ChunkDecoding(const TraceContext& context, const std::vector<ChunkCursor::Job>* jobs)
      : context_(context), jobs_(jobs) {
    const bool ahead = jobs->size() >= kAheadFrom && context.store->pool()->size() > 1;
    // A decoder points into itself: each slot stays where it was made.
    for (size_t i = 0; i < (ahead ? kSlots : 1); ++i) {
      slots_.push_back(std::make_unique<Slot>());
      slots_.back()->log = std::make_unique<model::UndefinedLog>(&context.store->undefined());
    }
    if (ahead) thread_ = std::thread([this] { Run(); });
  }
  ~ChunkDecoding() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  /// Job j's rows, valid until the next call; jobs are asked for in order.
  const store::ChunkRows& Get(size_t j) {
    if (!thread_.joinable()) return Decode(j, slots_[0].get());
    std::unique_lock<std::mutex> lock(mutex_);
    taken_ = j;  // the jobs before j are done with: their slots are free
    changed_.notify_all();
    changed_.wait(lock, [&] { return decoded_ > j; });
    return *slots_[j % kSlots]->rows;
  }

 private:
  static constexpr size_t kSlots = 4;
  static constexpr size_t kAheadFrom = 8;  // jobs: fewer are not worth a thread
  struct Slot {
    store::ChunkDecoder decoder;
    std::unique_ptr<model::UndefinedLog> log;
    const store::ChunkRows* rows = nullptr;
  };

  const store::ChunkRows& Decode(size_t j, Slot* slot) {
    const ChunkCursor::Job& job = (*jobs_)[j];
    const store::TraceStore& s = *context_.store;
    slot->rows = &slot->decoder.Decode(s.source(job.thread), s.skeleton(job.thread), job.chunk,
                                       s.thread_first(job.thread), slot->log.get());
    context_.chunks_decoded.fetch_add(1, std::memory_order_relaxed);
    return *slot->rows;
  }

  void Run() {
    for (size_t j = 0; j < jobs_->size(); ++j) {
      {
        // Slot j % kSlots is free once the reader asks for job j - kSlots + 1.
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || j < taken_ + kSlots; });
        if (stop_) return;
      }
      Decode(j, slots_[j % kSlots].get());
      {
        std::lock_guard<std::mutex> lock(mutex_);
        decoded_ = j + 1;
      }
      changed_.notify_all();
    }
  }

  const TraceContext& context_;
  const std::vector<ChunkCursor::Job>* jobs_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t decoded_ = 0;  // jobs decoded
  size_t taken_ = 0;    // the job the reader holds
  bool stop_ = false;
};

ChunkCursor::ChunkCursor(const TraceContext& context, ScanColumns columns)
    : context_(context), columns_(columns) {}

ChunkCursor::~ChunkCursor() = default;

Status ChunkCursor::Filter(const std::vector<Constraint>& constraints) {
  decoding_.reset();  // a scan before this one stops here
  from_ = std::numeric_limits<int64_t>::min();
  to_ = std::numeric_limits<int64_t>::max();
  std::vector<std::pair<const Constraint*, std::vector<double>>> where;
  std::vector<double> numbers;
  ids_.clear();
  by_id_ = false;
  for (const Constraint& c : constraints) {
    if (IsId(columns_, c.column) && c.op == Op::kEq && !by_id_) {
      // Values that are not integers name no row (SQLite compares them
      // with an integer column as numbers).
      by_id_ = true;
      for (const Value& v : c.values) {
        int64_t id = 0;
        if (v.kind == Value::kText || v.kind == Value::kNull) {
          by_id_ = by_id_ && v.kind == Value::kNull;
          continue;
        }
        if (v.AsInt(&id)) ids_.push_back(id);
      }
      if (!by_id_) ids_.clear();
      continue;
    }
    if (!Numbers(c, &numbers)) continue;
    if (IsTime(columns_, c.column)) {
      // Shown times count from the trace's first record; integers exactly.
      int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
      for (const Value& v : c.values) {
        lo = std::min(lo, v.kind == Value::kInt ? v.i : Floor(v.d));
        hi = std::max(hi, v.kind == Value::kInt ? v.i : Ceil(v.d));
      }
      if (c.op != Op::kLt && c.op != Op::kLe)
        from_ = std::max(from_, SaturatedAdd(lo, context_.origin));
      if (c.op != Op::kGt && c.op != Op::kGe)
        to_ = std::min(to_, SaturatedAdd(hi, context_.origin));
    } else if (IsWhere(columns_, c.column)) {
      where.emplace_back(&c, numbers);
    }
  }
  Take(constraints);
  std::vector<uint32_t> threads;
  const uint32_t n = context_.store->threads();
  for (uint32_t t = 0; t < n; ++t) {
    bool keep = true;
    for (const auto& [c, values] : where) {
      double x = 0;
      if (c->column == columns_.thread) {
        x = t;
      } else if (c->column == columns_.process) {
        x = context_.process_of[t];
      } else if (context_.rank_of[t] < 0) {  // a NULL rank compares true with nothing
        keep = false;
        break;
      } else {
        x = static_cast<double>(context_.rank_of[t]);
      }
      keep = keep && Holds(c->op, values, x);
    }
    if (keep) threads.push_back(t);
  }
  jobs_.clear();
  if (by_id_) {
    std::sort(ids_.begin(), ids_.end());
    ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
    PlanIds(threads);
  } else {
    PlanWindow(threads);
  }
  job_ = 0;
  rows_ = nullptr;
  decoding_ = std::make_unique<ChunkDecoding>(context_, &jobs_);
  return Settle();
}

Status ChunkCursor::Next() {
  ++row_;
  return Settle();
}

Status ChunkCursor::Settle() {
  while (job_ < jobs_.size()) {
    if (rows_ != nullptr) {
      const size_t n = Rows(*rows_);
      while (row_ < n && !(IdWanted(row_) && Wanted(row_)))
        ++row_;
      if (row_ < n) return Status::Ok();
      rows_ = nullptr;
      if (++job_ == jobs_.size()) break;
    }
    rows_ = &decoding_->Get(job_);
    first_chunk_ = jobs_[job_].first ? rows_->chunk : SIZE_MAX;
    row_ = First(*rows_);
  }
  return Status::Ok();
}

void ChunkCursor::PlanWindow(const std::vector<uint32_t>& threads) {
  for (uint32_t t : threads) {
    const store::ThreadSkeleton& k = context_.store->skeleton(t);
    // The first chunk that may hold from_ (every record of the chunks
    // before it is before from_), then on while a chunk may hold records
    // at or before to_ (chunk c's come at or after the record before it).
    size_t c = 0;
    while (c + 1 < k.chunks.size() && k.chunks[c + 1].last_ns < from_)
      ++c;
    for (bool first = true; c < k.chunks.size(); ++c, first = false) {
      if (c > 0 && k.chunks[c].last_ns > to_) break;
      jobs_.push_back({t, c, first});
    }
  }
}

void ChunkCursor::PlanIds(const std::vector<uint32_t>& threads) {
  const store::TraceStore& s = *context_.store;
  const size_t k = columns_.table;
  for (uint32_t t : threads) {
    const int64_t first = static_cast<int64_t>(s.thread_first(t).table[k]);
    const int64_t end = first + static_cast<int64_t>(s.skeleton(t).rows.table[k]);
    const store::ThreadSkeleton& skeleton = s.skeleton(t);
    size_t last = SIZE_MAX;
    for (auto it = std::lower_bound(ids_.begin(), ids_.end(), first); it != ids_.end() && *it < end;
         ++it) {
      // The last chunk whose rows before it are at most the id's local row;
      // every slice there is its own row (none carried in).
      const uint64_t local = static_cast<uint64_t>(*it - first);
      const auto c = std::upper_bound(
          skeleton.chunks.begin(), skeleton.chunks.end(), local,
          [k](uint64_t row, const store::ChunkEntry& e) { return row < e.rows.table[k]; });
      if (c == skeleton.chunks.begin()) continue;
      const size_t chunk = static_cast<size_t>(c - skeleton.chunks.begin()) - 1;
      if (chunk != last) jobs_.push_back({t, chunk, false});
      last = chunk;
    }
  }
}

bool ChunkCursor::IdWanted(size_t r) const {
  if (!by_id_) return true;
  const size_t own = columns_.table == store::kSlices ? rows_->carried : 0;
  if (r < own) return false;
  const auto id = static_cast<int64_t>(rows_->first.table[columns_.table] + (r - own));
  return std::binary_search(ids_.begin(), ids_.end(), id);
}

}  // namespace plx::query
