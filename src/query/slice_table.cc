// The slices table: a ChunkCursor over the chunks' slice rows, with the
// slices open at a window's first chunk from the skeleton, state filters,
// and scans grouped by state for GROUP BY.
#include <algorithm>

#include "query/chunk_scan.h"
#include "query/record_tables.h"

namespace plx::query {

namespace {

// What a slice column is read from.
struct SliceRow {
  int64_t id = 0, begin = 0, end = 0, self = 0;
  uint32_t thread = 0, state = 0, callsite = model::kNone;
  uint16_t depth = 0;
  uint8_t flags = 0;
};

void SliceColumn(const TraceContext& context, const SliceRow& r, int column, Cell cell) {
  const model::Trace& t = context.trace();
  switch (column) {
    case kSliceId:
      return cell.Int(r.id);
    case kSliceThread:
      return cell.Int(r.thread);
    case kSliceProcess:
      return cell.Int(context.process_of[r.thread]);
    case kSliceRank:
      return context.Rank(r.thread, cell);
    case kSliceState:
      return cell.StaticText(t.states[r.state].name);
    case kSliceStateId:
      return cell.Int(r.state);
    case kSliceCategory:
      return context.Category(t.states[r.state].category, cell);
    case kSliceBegin:
      return cell.Int(context.Shown(r.begin));
    case kSliceEnd:
      return cell.Int(context.Shown(r.end));
    case kSliceDur:
      return cell.Int(r.end - r.begin);
    case kSliceSelf:
      return cell.Int(r.self);
    case kSliceDepth:
      return cell.Int(r.depth);
    case kSliceCallsite:
      return context.Callsite(r.callsite, cell);
    case kSliceCallsiteId:
      return r.callsite < t.callsites.size() ? cell.Int(r.callsite) : cell.Null();
    case kSliceUnclosed:
      return cell.Int((r.flags & model::SliceTable::kUnclosed) ? 1 : 0);
    default:
      return cell.Null();
  }
}

// The parts of a SliceRow a grouped scan keeps (its state is the group's).
enum SliceField : int {
  kFieldId,
  kFieldDur,
  kFieldBegin,
  kFieldEnd,
  kFieldSelf,
  kFieldThread,
  kFieldCallsite,
  kFieldDepth,
  kFieldFlags,
  kFieldCount
};

// Which fields the columns of `used` read (bit 63: any column).
std::vector<int> FieldsFor(uint64_t used) {
  auto reads = [used](int column) { return (used >> std::min(column, 63)) & 1; };
  bool need[kFieldCount] = {};
  need[kFieldId] = reads(kSliceId);
  need[kFieldThread] = reads(kSliceThread) || reads(kSliceProcess) || reads(kSliceRank);
  // dur alone is kept as one field, else from begin and end.
  const bool ends = reads(kSliceBegin) || reads(kSliceEnd);
  need[kFieldDur] = reads(kSliceDur) && !ends;
  need[kFieldBegin] = ends;
  need[kFieldEnd] = ends;
  need[kFieldSelf] = reads(kSliceSelf);
  need[kFieldCallsite] = reads(kSliceCallsite) || reads(kSliceCallsiteId);
  need[kFieldDepth] = reads(kSliceDepth);
  need[kFieldFlags] = reads(kSliceUnclosed);
  std::vector<int> fields;
  for (int f = 0; f < kFieldCount; ++f)
    if (need[f]) fields.push_back(f);
  return fields;
}

// Slices: in a thread's first chunk, the rows the decoder put back for the
// slices open at its start (carried) come first, their ends and self times
// from the skeleton; in later chunks only the chunk's own rows. `state` =
// or IN drops other states' rows before SQLite sees them. Grouped by state
// (GROUP BY state), the scan runs to its end in Filter, keeping the fields
// the statement reads per state, and gives them state by state.
class SliceCursor : public ChunkCursor {
 public:
  using ChunkCursor::ChunkCursor;

  void Group(int column, bool descending, uint64_t used) override {
    grouped_ = true;
    fields_ = FieldsFor(used);
    // The groups in the column's order: names byte by byte (SQLite's
    // BINARY collation), or numbers.
    const model::Trace& t = context_.trace();
    order_.resize(t.states.size());
    for (uint32_t i = 0; i < order_.size(); ++i)
      order_[i] = i;
    if (column == kSliceState)
      std::stable_sort(order_.begin(), order_.end(),
                       [&](uint32_t a, uint32_t b) { return t.states[a].name < t.states[b].name; });
    if (descending) std::reverse(order_.begin(), order_.end());
  }
  Status Filter(const std::vector<Constraint>& constraints) override {
    PLX_RETURN_IF_ERROR(ChunkCursor::Filter(constraints));
    if (!grouped_) return Status::Ok();
    groups_.assign(context_.trace().states.size(), {});
    while (!ChunkCursor::Eof()) {
      const SliceRow r = Current();
      std::vector<int64_t>& g = groups_[r.state];
      for (int f : fields_) {
        switch (f) {
          case kFieldId:
            g.push_back(r.id);
            break;
          case kFieldDur:
            g.push_back(r.end - r.begin);
            break;
          case kFieldBegin:
            g.push_back(r.begin);
            break;
          case kFieldEnd:
            g.push_back(r.end);
            break;
          case kFieldSelf:
            g.push_back(r.self);
            break;
          case kFieldThread:
            g.push_back(r.thread);
            break;
          case kFieldCallsite:
            g.push_back(r.callsite);
            break;
          case kFieldDepth:
            g.push_back(r.depth);
            break;
          default:
            g.push_back(r.flags);
            break;
        }
      }
      if (fields_.empty()) g.push_back(0);  // a row that reads no field still counts
      PLX_RETURN_IF_ERROR(ChunkCursor::Next());
    }
    group_ = 0;
    at_ = 0;
    SkipEmpty();
    return Status::Ok();
  }
  Status Next() override {
    if (!grouped_) return ChunkCursor::Next();
    at_ += std::max<size_t>(1, fields_.size());
    SkipEmpty();
    return Status::Ok();
  }
  bool Eof() const override { return grouped_ ? group_ >= order_.size() : ChunkCursor::Eof(); }
  void Column(int column, Cell cell) const override {
    SliceColumn(context_, grouped_ ? Kept() : Current(), column, cell);
  }
  int64_t Rowid() const override { return grouped_ ? Kept().id : Current().id; }

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
  // The scan's current row.
  SliceRow Current() const {
    SliceRow r;
    r.thread = rows_->thread;
    if (row_ < rows_->carried) {
      const store::LongSlice& l = *CarriedAt(row_);
      r.id = static_cast<int64_t>(
          context_.store->thread_first(rows_->thread).table[store::kSlices] + l.row);
      r.begin = l.begin_ns;
      r.end = l.end_ns;
      r.self = l.self_ns;
      r.state = l.state;
      r.callsite = l.callsite;
      r.depth = l.depth;
      r.flags = l.flags;
      return r;
    }
    const model::SliceTable& s = rows_->tables->slices;
    r.id = static_cast<int64_t>(rows_->slice_row(row_));
    r.begin = s.begin[row_];
    r.end = s.end[row_];
    r.self = s.self_ns[row_];
    r.state = s.state[row_];
    r.callsite = s.callsite[row_];
    r.depth = s.depth[row_];
    r.flags = s.flags[row_];
    return r;
  }
  // The kept row of a grouped scan.
  SliceRow Kept() const {
    SliceRow r;
    r.state = order_[group_];
    const int64_t* v = groups_[order_[group_]].data() + at_;
    for (size_t i = 0; i < fields_.size(); ++i) {
      switch (fields_[i]) {
        case kFieldId:
          r.id = v[i];
          break;
        case kFieldDur:
          r.end = v[i];  // begin stays 0: dur is end - begin
          break;
        case kFieldBegin:
          r.begin = v[i];
          break;
        case kFieldEnd:
          r.end = v[i];
          break;
        case kFieldSelf:
          r.self = v[i];
          break;
        case kFieldThread:
          r.thread = static_cast<uint32_t>(v[i]);
          break;
        case kFieldCallsite:
          r.callsite = static_cast<uint32_t>(v[i]);
          break;
        case kFieldDepth:
          r.depth = static_cast<uint16_t>(v[i]);
          break;
        default:
          r.flags = static_cast<uint8_t>(v[i]);
          break;
      }
    }
    return r;
  }
  // Moves past the ends of groups.
  void SkipEmpty() {
    while (group_ < order_.size() && at_ >= groups_[order_[group_]].size()) {
      std::vector<int64_t>().swap(groups_[order_[group_]]);  // given out: its memory goes back
      ++group_;
      at_ = 0;
    }
  }

  std::vector<uint8_t> states_;  // empty: every state
  bool grouped_ = false;
  std::vector<int> fields_;                   // kept per row, in this order
  std::vector<std::vector<int64_t>> groups_;  // per state: its rows' fields
  std::vector<uint32_t> order_;               // the states in the order given
  size_t group_ = 0, at_ = 0;
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
  // By state, when what the statement reads of the rows the scan is
  // expected to give fits in half the memory budget.
  bool Groups(int column, uint64_t used, const std::vector<Constraint>& taken) const override {
    if (column != kSliceState && column != kSliceStateId) return false;
    const double bytes = Estimate(taken) * 8 * std::max<size_t>(1, FieldsFor(used).size());
    return bytes <= static_cast<double>(context_.store->memory_bytes()) / 2;
  }
  std::unique_ptr<Cursor> Open() override {
    return std::make_unique<SliceCursor>(context_, columns_);
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeSliceTable(const TraceContext& context) {
  return std::make_unique<SliceTable>(
      *FindTable("slices"), context,
      ScanColumns{kSliceThread, kSliceProcess, kSliceRank, kSliceBegin, kSliceEnd, store::kSlices,
                  kSliceId});
}

}  // namespace plx::query
