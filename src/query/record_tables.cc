// The record tables (slices, instants, counter samples, collectives): each a
// ChunkCursor over its table of the decoded chunks, reading the columns the
// schema gives it.
#include "query/record_tables.h"

#include <algorithm>

#include "query/chunk_scan.h"

namespace plx::query {

namespace {

// A record table: its spec, where-columns and row count.
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

// Slices: in a thread's first chunk, the rows the decoder put back for the
// slices open at its start (carried) come first, their ends and self times
// from the skeleton; in later chunks only the chunk's own rows. `state` =
// or IN drops other states' rows before SQLite sees them.
class SliceCursor : public ChunkCursor {
 public:
  using ChunkCursor::ChunkCursor;

  void Column(int column, Cell cell) const override {
    const model::SliceTable& s = rows_->tables->slices;
    const store::LongSlice* l = Carried();
    const uint32_t thread = rows_->thread;
    const uint32_t state = l ? l->state : s.state[row_];
    const uint32_t callsite = l ? l->callsite : s.callsite[row_];
    const int64_t begin = l ? l->begin_ns : s.begin[row_];
    const int64_t end = l ? l->end_ns : s.end[row_];
    const model::Trace& t = context_.trace();
    switch (column) {
      case kSliceId:
        return cell.Int(Rowid());
      case kSliceThread:
        return cell.Int(thread);
      case kSliceProcess:
        return cell.Int(context_.process_of[thread]);
      case kSliceRank:
        return context_.Rank(thread, cell);
      case kSliceState:
        return cell.StaticText(t.states[state].name);
      case kSliceStateId:
        return cell.Int(state);
      case kSliceCategory:
        return context_.Category(t.states[state].category, cell);
      case kSliceBegin:
        return cell.Int(context_.Shown(begin));
      case kSliceEnd:
        return cell.Int(context_.Shown(end));
      case kSliceDur:
        return cell.Int(end - begin);
      case kSliceSelf:
        return cell.Int(l ? l->self_ns : s.self_ns[row_]);
      case kSliceDepth:
        return cell.Int(l ? l->depth : s.depth[row_]);
      case kSliceCallsite:
        return context_.Callsite(callsite, cell);
      case kSliceCallsiteId:
        return callsite < t.callsites.size() ? cell.Int(callsite) : cell.Null();
      case kSliceUnclosed:
        return cell.Int(((l ? l->flags : s.flags[row_]) & model::SliceTable::kUnclosed) ? 1 : 0);
      default:
        return cell.Null();
    }
  }
  int64_t Rowid() const override {
    if (const store::LongSlice* l = Carried())
      return static_cast<int64_t>(
          context_.store->thread_first(rows_->thread).table[store::kSlices] + l->row);
    return static_cast<int64_t>(rows_->slice_row(row_));
  }

 protected:
  size_t Rows(const store::ChunkRows& rows) const override { return rows.tables->slices.size(); }
  size_t First(const store::ChunkRows& rows) const override {
    return rows.chunk == first_chunk_ ? 0 : rows.carried;
  }
  bool Wanted(size_t r) const override {
    const store::LongSlice* l = r < rows_->carried ? CarriedAt(r) : nullptr;
    const model::SliceTable& s = rows_->tables->slices;
    const int64_t begin = l ? l->begin_ns : s.begin[r];
    const int64_t end = l ? l->end_ns : s.end[r];
    if (end < from_ || begin > to_) return false;
    if (states_.empty()) return true;
    const uint32_t state = l ? l->state : s.state[r];
    return state < states_.size() && states_[state];
  }
  void Take(const std::vector<Constraint>& constraints) override {
    states_.clear();
    for (const Constraint& c : constraints) {
      if (c.op != Op::kEq || (c.column != kSliceState && c.column != kSliceStateId)) continue;
      // The states it names; any other kind of value narrows nothing.
      std::vector<uint8_t> named(context_.trace().states.size(), 0);
      bool usable = true;
      for (const Value& v : c.values) {
        int64_t id = -1;
        if (c.column == kSliceState && v.kind == Value::kText) {
          for (size_t i = 0; i < named.size(); ++i)
            if (context_.trace().states[i].name == v.s) named[i] = 1;
        } else if (c.column == kSliceStateId && v.AsInt(&id)) {
          if (id >= 0 && static_cast<uint64_t>(id) < named.size()) named[id] = 1;
        } else if (v.kind != Value::kNull) {
          usable = false;
        }
      }
      if (!usable) continue;
      if (states_.empty()) {
        states_ = std::move(named);
      } else {
        for (size_t i = 0; i < states_.size(); ++i)
          states_[i] = states_[i] && named[i];
      }
    }
  }

 private:
  // The skeleton's record of carried row r of the current chunk.
  const store::LongSlice* CarriedAt(size_t r) const {
    const store::ThreadSkeleton& k = *rows_->skeleton;
    return &k.long_slices[k.frames_begin(rows_->chunk)[r].long_slice];
  }
  const store::LongSlice* Carried() const {
    return row_ < rows_->carried ? CarriedAt(row_) : nullptr;
  }

  std::vector<uint8_t> states_;  // empty: every state
};

class SliceTable : public RecordTable {
 public:
  using RecordTable::RecordTable;
  bool Takes(int column, Op op) const override {
    return RecordTable::Takes(column, op) ||
           (op == Op::kEq && (column == kSliceState || column == kSliceStateId));
  }
  double Estimate(const std::vector<Constraint>& taken) const override {
    const bool state = std::any_of(taken.begin(), taken.end(), [](const Constraint& c) {
      return c.column == kSliceState || c.column == kSliceStateId;
    });
    return RecordTable::Estimate(taken) / (state ? 10 : 1);
  }
  std::unique_ptr<Cursor> Open() override {
    return std::make_unique<SliceCursor>(context_, columns_);
  }
};

// Point records (one time each): instants, counter samples, collectives.
template <typename Records, Records model::Trace::*kMember, store::TableIndex kTable>
class PointCursor : public ChunkCursor {
 public:
  using ChunkCursor::ChunkCursor;
  int64_t Rowid() const override { return static_cast<int64_t>(rows_->first.table[kTable] + row_); }

 protected:
  const Records& Table() const { return rows_->tables->*kMember; }
  size_t Rows(const store::ChunkRows&) const override { return Table().size(); }
  bool Wanted(size_t r) const override {
    const int64_t time = Table().time[r];
    return time >= from_ && time <= to_;
  }
};

class InstantCursor
    : public PointCursor<model::InstantTable, &model::Trace::instants, store::kInstants> {
 public:
  using PointCursor::PointCursor;
  void Column(int column, Cell cell) const override {
    const model::InstantTable& s = rows_->tables->instants;
    const uint32_t thread = rows_->thread;
    const model::Trace& t = context_.trace();
    const uint32_t type = s.type[row_];
    switch (column) {
      case kInstantId:
        return cell.Int(Rowid());
      case kInstantThread:
        return cell.Int(thread);
      case kInstantProcess:
        return cell.Int(context_.process_of[thread]);
      case kInstantRank:
        return context_.Rank(thread, cell);
      case kInstantTime:
        return cell.Int(context_.Shown(s.time[row_]));
      case kInstantName:
        return type < t.event_types.size() ? cell.StaticText(t.event_types[type].name)
                                           : cell.Null();
      case kInstantCategory:
        return type < t.event_types.size() ? context_.Category(t.event_types[type].category, cell)
                                           : cell.Null();
      case kInstantValue:
        switch (s.kind[row_]) {
          case model::ValueKind::kInt:
            return cell.Int(s.int_value[row_]);
          case model::ValueKind::kDouble:
            return cell.Real(s.double_value[row_]);
          case model::ValueKind::kString: {
            const uint32_t text = s.text[row_];
            const auto& texts = rows_->tables->texts;
            return text < texts.size() ? cell.Text(texts[text]) : cell.Null();
          }
          default:
            return cell.Null();
        }
      case kInstantCallsite:
        return context_.Callsite(s.callsite[row_], cell);
      default:
        return cell.Null();
    }
  }
};

class SampleCursor : public PointCursor<model::CounterTable, &model::Trace::counter_samples,
                                        store::kCounterSamples> {
 public:
  using PointCursor::PointCursor;
  void Column(int column, Cell cell) const override {
    const model::CounterTable& s = rows_->tables->counter_samples;
    const uint32_t thread = rows_->thread;
    const model::Trace& t = context_.trace();
    switch (column) {
      case kSampleThread:
        return cell.Int(thread);
      case kSampleProcess:
        return cell.Int(context_.process_of[thread]);
      case kSampleRank:
        return context_.Rank(thread, cell);
      case kSampleTime:
        return cell.Int(context_.Shown(s.time[row_]));
      case kSampleCounter:
        return s.counter[row_] < t.counters.size()
                   ? cell.StaticText(t.counters[s.counter[row_]].name)
                   : cell.Null();
      case kSampleValue:
        return cell.Real(s.value[row_]);
      default:
        return cell.Null();
    }
  }
};

class CollectiveCursor
    : public PointCursor<model::CollectiveTable, &model::Trace::collectives, store::kCollectives> {
 public:
  using PointCursor::PointCursor;
  void Column(int column, Cell cell) const override {
    const model::CollectiveTable& s = rows_->tables->collectives;
    const uint32_t thread = rows_->thread;
    switch (column) {
      case kCollectiveId:
        return cell.Int(Rowid());
      case kCollectiveThread:
        return cell.Int(thread);
      case kCollectiveProcess:
        return cell.Int(context_.process_of[thread]);
      case kCollectiveRank:
        return context_.Rank(thread, cell);
      case kCollectiveTime:
        return cell.Int(context_.Shown(s.time[row_]));
      case kCollectiveOp:
        return cell.StaticText(CollectiveOpName(s.op[row_]));
      case kCollectiveComm:
        return context_.Comm(s.comm[row_], cell);
      case kCollectiveRoot:
        return s.root[row_] >= 0 ? cell.Int(s.root[row_]) : cell.Null();
      case kCollectiveSent:
        return cell.Int(static_cast<int64_t>(s.sent[row_]));
      case kCollectiveReceived:
        return cell.Int(static_cast<int64_t>(s.received[row_]));
      default:
        return cell.Null();
    }
  }
};

template <typename C>
class PointTable : public RecordTable {
 public:
  using RecordTable::RecordTable;
  std::unique_ptr<Cursor> Open() override { return std::make_unique<C>(context_, columns_); }
};

const TableSpec& Spec(const char* name) {
  return *FindTable(name);
}

}  // namespace

std::vector<std::unique_ptr<VirtualTable>> RecordTables(const TraceContext& context) {
  std::vector<std::unique_ptr<VirtualTable>> out;
  out.push_back(
      std::make_unique<SliceTable>(Spec("slices"), context,
                                   ScanColumns{kSliceThread, kSliceProcess, kSliceRank, kSliceBegin,
                                               kSliceEnd, store::kSlices, kSliceId}));
  out.push_back(std::make_unique<PointTable<InstantCursor>>(
      Spec("instants"), context,
      ScanColumns{kInstantThread, kInstantProcess, kInstantRank, kInstantTime, -1, store::kInstants,
                  kInstantId}));
  out.push_back(std::make_unique<PointTable<SampleCursor>>(
      Spec("counter_samples"), context,
      ScanColumns{kSampleThread, kSampleProcess, kSampleRank, kSampleTime, -1,
                  store::kCounterSamples}));
  out.push_back(std::make_unique<PointTable<CollectiveCursor>>(
      Spec("collectives"), context,
      ScanColumns{kCollectiveThread, kCollectiveProcess, kCollectiveRank, kCollectiveTime, -1,
                  store::kCollectives, kCollectiveId}));
  return out;
}

}  // namespace plx::query
