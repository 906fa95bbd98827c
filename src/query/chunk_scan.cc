// ChunkCursor: threads, then each thread's chunks from the one that may
// hold the window's start to the one past its end, then the chunk's rows.
// Constraints whose values are not numbers (text, NULL) narrow nothing:
// SQLite still applies them to every row.
#include "query/chunk_scan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

ChunkCursor::ChunkCursor(const TraceContext& context, ScanColumns columns)
    : context_(context), columns_(columns), log_(&context.store->undefined()) {}

Status ChunkCursor::Filter(const std::vector<Constraint>& constraints) {
  from_ = std::numeric_limits<int64_t>::min();
  to_ = std::numeric_limits<int64_t>::max();
  std::vector<std::pair<const Constraint*, std::vector<double>>> where;
  std::vector<double> numbers;
  ids_.clear();
  bool by_id = false;
  for (const Constraint& c : constraints) {
    if (IsId(columns_, c.column) && c.op == Op::kEq && !by_id) {
      // Values that are not integers name no row (SQLite compares them
      // with an integer column as numbers).
      by_id = true;
      for (const Value& v : c.values) {
        int64_t id = 0;
        if (v.kind == Value::kText || v.kind == Value::kNull) {
          by_id = by_id && v.kind == Value::kNull;
          continue;
        }
        if (v.AsInt(&id)) ids_.push_back(id);
      }
      if (!by_id) ids_.clear();
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
  threads_.clear();
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
    if (keep) threads_.push_back(t);
  }
  id_chunks_.clear();
  if (by_id) {
    std::sort(ids_.begin(), ids_.end());
    ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
    PickIds();
  }
  at_thread_ = 0;
  rows_ = nullptr;
  return Settle();
}

Status ChunkCursor::Next() {
  ++row_;
  return Settle();
}

Status ChunkCursor::Settle() {
  while (at_thread_ < threads_.size()) {
    if (rows_ != nullptr) {
      const size_t n = Rows(*rows_);
      while (row_ < n && !(IdWanted(row_) && Wanted(row_)))
        ++row_;
      if (row_ < n) return Status::Ok();
      if (!id_chunks_.empty()) {
        const std::vector<size_t>& chunks = id_chunks_[at_thread_];
        chunk_ = ++at_id_chunk_ < chunks.size() ? chunks[at_id_chunk_] : SIZE_MAX;
      } else {
        ++chunk_;
      }
    } else if (!id_chunks_.empty()) {
      // Only the chunks that hold the ids; every slice there is its own
      // row (none carried in).
      at_id_chunk_ = 0;
      chunk_ = id_chunks_[at_thread_][0];
      first_chunk_ = SIZE_MAX;
    } else {
      // A thread's first chunk: the one that may hold from_ (every record
      // of the chunks before it is before from_).
      const store::ThreadSkeleton& k = context_.store->skeleton(threads_[at_thread_]);
      chunk_ = 0;
      while (chunk_ + 1 < k.chunks.size() && k.chunks[chunk_ + 1].last_ns < from_)
        ++chunk_;
      first_chunk_ = chunk_;
    }
    if (Decode()) {
      row_ = First(*rows_);
      continue;
    }
    rows_ = nullptr;
    ++at_thread_;
  }
  return Status::Ok();
}

void ChunkCursor::PickIds() {
  const store::TraceStore& s = *context_.store;
  const size_t k = columns_.table;
  std::vector<uint32_t> threads;
  for (uint32_t t : threads_) {
    const int64_t first = static_cast<int64_t>(s.thread_first(t).table[k]);
    const int64_t end = first + static_cast<int64_t>(s.skeleton(t).rows.table[k]);
    const store::ThreadSkeleton& skeleton = s.skeleton(t);
    std::vector<size_t> chunks;
    for (auto it = std::lower_bound(ids_.begin(), ids_.end(), first); it != ids_.end() && *it < end;
         ++it) {
      // The last chunk whose rows before it are at most the id's local row.
      const uint64_t local = static_cast<uint64_t>(*it - first);
      const auto c = std::upper_bound(
          skeleton.chunks.begin(), skeleton.chunks.end(), local,
          [k](uint64_t row, const store::ChunkEntry& e) { return row < e.rows.table[k]; });
      if (c == skeleton.chunks.begin()) continue;
      const size_t chunk = static_cast<size_t>(c - skeleton.chunks.begin()) - 1;
      if (chunks.empty() || chunks.back() != chunk) chunks.push_back(chunk);
    }
    if (chunks.empty()) continue;
    threads.push_back(t);
    id_chunks_.push_back(std::move(chunks));
  }
  threads_ = std::move(threads);
  if (threads_.empty()) id_chunks_.push_back({});  // nothing to read, and not "every chunk"
}

bool ChunkCursor::IdWanted(size_t r) const {
  if (id_chunks_.empty()) return true;
  const size_t own = columns_.table == store::kSlices ? rows_->carried : 0;
  if (r < own) return false;
  const auto id = static_cast<int64_t>(rows_->first.table[columns_.table] + (r - own));
  return std::binary_search(ids_.begin(), ids_.end(), id);
}

bool ChunkCursor::Decode() {
  const uint32_t t = threads_[at_thread_];
  const store::ThreadSkeleton& k = context_.store->skeleton(t);
  if (chunk_ >= k.chunks.size()) return false;
  // Chunk c's records come at or after the record before it.
  if (chunk_ > 0 && k.chunks[chunk_].last_ns > to_) return false;
  const store::TraceStore& s = *context_.store;
  rows_ = &decoder_.Decode(s.source(t), k, chunk_, s.thread_first(t), &log_);
  context_.chunks_decoded.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace plx::query
