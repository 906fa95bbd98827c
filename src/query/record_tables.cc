// The record tables (slices, instants, counter samples, collectives): each a
// ChunkCursor over its table of the decoded chunks, reading the columns the
// schema gives it.
#include "query/record_tables.h"

#include <algorithm>

#include "model/collective_ops.h"
#include "query/chunk_scan.h"

namespace plx::query {

namespace {

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
        return cell.StaticText(model::CollectiveOpName(s.op[row_]));
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
  out.push_back(MakeSliceTable(context));
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
