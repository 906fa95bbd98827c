// StreamLoader: thread boundaries (closing what is still open) and column
// reservation; the per-record handlers are inline in the header.
#include "model/stream_loader.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

namespace plx::model {

void StreamLoader::BeginThread(uint32_t thread, uint32_t process, const ProcessIdMaps* maps,
                               const format::TickClock* clock, const ClockCorrection* correction) {
  thread_ = thread;
  process_ = process;
  maps_ = maps;
  clock_ = clock;
  identity_ = clock->is_identity();
  correction_ = correction != nullptr && !correction->is_identity() ? correction : nullptr;
  run_ = ClockCorrection::Run();
  hint_ = 0;
  records_ = 0;
  first_ns_ = last_ns_ = 0;
  ended_ = false;
  stack_.clear();
}

StreamLoader::Position StreamLoader::position() const {
  Position p;
  p.open.assign(stack_.begin(), stack_.end());
  p.hint = hint_;
  p.records = records_;
  p.first_ns = first_ns_;
  p.last_ns = last_ns_;
  p.ended = ended_;
  return p;
}

void StreamLoader::Resume(uint32_t thread, uint32_t process, const ProcessIdMaps* maps,
                          const format::TickClock* clock, const ClockCorrection* correction,
                          const Position& at) {
  BeginThread(thread, process, maps, clock, correction);
  for (const OpenSlice& f : at.open)
    stack_.push_back(f);
  hint_ = at.hint;
  records_ = at.records;
  first_ns_ = at.first_ns;
  last_ns_ = at.last_ns;
  ended_ = at.ended;
}

uint64_t StreamLoader::CloseOpen(const Position& at, size_t row_offset, SliceTable* slices) {
  // Slices never left end at the thread's last record, innermost first so
  // their parents' self time accounts for them.
  int64_t children_ns = 0;  // of the slice closed last, the next one's child
  for (size_t i = at.open.size(); i-- > 0;) {
    const OpenSlice& f = at.open[i];
    const size_t row = row_offset + f.row;
    const int64_t duration = at.last_ns - slices->begin[row];
    slices->end[row] = at.last_ns;
    slices->self_ns[row] = duration - (f.children_ns + children_ns);
    slices->flags[row] |= SliceTable::kUnclosed;
    children_ns = duration;
  }
  return at.open.size();
}

void StreamLoader::EndThread() {
  trace_->stats.unclosed_slices += CloseOpen(position(), 0, &trace_->slices);
  stack_.clear();
  Thread& t = trace_->threads[thread_];
  t.records = records_;
  t.begin_ns = records_ > 0 ? first_ns_ : 0;
  t.end_ns = records_ > 0 ? last_ns_ : 0;
  t.ended = ended_;
  trace_->stats.records += records_;
  decoded_ += records_;
  records_ = 0;
}

namespace {

// Asks for transparent huge pages on the 2 MiB-aligned interior of a big
// column: with 4 KiB pages, first-touch page faults cost more than decoding.
template <typename Column>
void AdviseHugePages(Column& column) {
#ifdef MADV_HUGEPAGE
  constexpr uintptr_t kHuge = 2u << 20;
  const auto begin = reinterpret_cast<uintptr_t>(column.data());
  const uintptr_t end = begin + column.capacity() * sizeof(column[0]);
  const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t last = end & ~(kHuge - 1);
  if (last > first) (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

// Grows each column of a table to `rows` (never shrinks). Columns only grow
// here when they are at least 7/8 full, so re-estimating after every chunk
// costs nothing until a table is about to reallocate.
template <typename First, typename... Columns>
void ReserveColumns(size_t rows, First& first, Columns&... columns) {
  if (first.size() * 8 < first.capacity() * 7) return;
  auto one = [rows](auto& column) {
    if (rows <= column.capacity()) return;
    column.reserve(rows);
    AdviseHugePages(column);
  };
  one(first);
  (one(columns), ...);
}

size_t Estimate(size_t rows_so_far, uint64_t decoded, uint64_t total) {
  if (rows_so_far == 0 || decoded == 0) return 0;
  const double share = static_cast<double>(rows_so_far) / static_cast<double>(decoded);
  return static_cast<size_t>(share * static_cast<double>(total) * 1.25) + 1024;
}

}  // namespace

void StreamLoader::ReserveFor(uint64_t total_records) {
  const uint64_t n = decoded();
  Trace& t = *trace_;
  SliceTable& s = t.slices;
  ReserveColumns(Estimate(s.size(), n, total_records), s.thread, s.begin, s.end, s.state,
                 s.callsite, s.depth, s.self_ns, s.flags);
  InstantTable& i = t.instants;
  ReserveColumns(Estimate(i.size(), n, total_records), i.thread, i.time, i.type, i.callsite, i.kind,
                 i.int_value, i.double_value, i.text);
  MessageTable& m = t.messages;
  ReserveColumns(Estimate(m.size(), n, total_records), m.thread, m.time, m.is_send, m.comm, m.peer,
                 m.tag, m.bytes, m.clock, m.match);
  CounterTable& c = t.counter_samples;
  ReserveColumns(Estimate(c.size(), n, total_records), c.thread, c.time, c.counter, c.value);
  RmaTable& r = t.rma;
  ReserveColumns(Estimate(r.size(), n, total_records), r.thread, r.time, r.op, r.comm, r.origin,
                 r.target, r.bytes);
  ControlTable& k = t.controls;
  ReserveColumns(Estimate(k.size(), n, total_records), k.thread, k.time, k.on, k.lost);
  CollectiveTable& o = t.collectives;
  ReserveColumns(Estimate(o.size(), n, total_records), o.thread, o.time, o.op, o.comm, o.root,
                 o.sent, o.received);
  RecvPostTable& p = t.recv_posts;
  ReserveColumns(Estimate(p.size(), n, total_records), p.thread, p.time, p.comm, p.peer, p.tag,
                 p.match);
}

}  // namespace plx::model
