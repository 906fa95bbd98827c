// CutStream: a visitor over the thread's raw records that times each as the
// loader does (the tick clock, the clock correction, never before the
// record before it), so "in the window" means what it means to every
// command, and rows are counted as the loader makes them, so the plan's
// (thread, row) keys name the same records.
#include "store/stream_cut.h"

#include <limits>
#include <string>
#include <utility>

#include "base/strings.h"
#include "model/clock_correction.h"

namespace plx::store {
namespace {

using format::TraceWriter;

struct Frame {
  uint64_t state = 0;     // as recorded
  uint64_t callsite = 0;  // as recorded
};

// Handles every record kind: the ones the cut looks into by overload, the
// rest (copied as they are) by the template.
class Cutter {
 public:
  Cutter(const TraceStore& store, const CutPlan& plan, const ProcessCut& process, uint32_t thread,
         TraceWriter& writer, StreamCutCounts* counts)
      : plan_(plan),
        process_(process),
        thread_(thread),
        source_(store.source(thread)),
        defs_(store.file().processes().at(process.file_process)),
        writer_(writer),
        counts_(counts) {}

  /// Before each chunk: where the loader stands there.
  void StartChunk(const ChunkEntry& entry) {
    records_ = entry.records;
    last_ns_ = entry.last_ns;
    message_row_ = entry.rows.table[kMessages];
    collective_row_ = entry.rows.table[kCollectives];
  }
  void SetOpen(std::vector<Frame> open, uint64_t previous_tick) {
    open_ = std::move(open);
    previous_tick_ = previous_tick;
  }
  bool done() const { return phase_ == Phase::kAfter; }

  void On(uint64_t tick, const format::EnterRecord& r) {
    const bool in = Step(tick);
    open_.push_back({r.state, r.callsite});
    if (in && KeptState(r.state)) Write(tick, r);
  }
  void On(uint64_t tick, const format::LeaveRecord& r) {
    const bool in = Step(tick);
    uint64_t state = r.state;
    if (!open_.empty()) {
      state = open_.back().state;  // the loader closes the innermost, whatever it names
      open_.pop_back();
    }
    if (in && KeptState(state)) Write(tick, r);
  }
  void On(uint64_t tick, const format::SendRecord& r) { Message(tick, r); }
  void On(uint64_t tick, const format::RecvRecord& r) { Message(tick, r); }
  void On(uint64_t tick, const format::CollectiveRecord& r) {
    const uint64_t row = collective_row_++;
    if (Step(tick) && !plan_.drop_collectives.count(CutPlan::Key(thread_, row))) Write(tick, r);
  }
  void On(uint64_t tick, const format::RecvPostRecord& r) {
    if (!Step(tick)) return;
    if (r.match != 0 && plan_.drop_posts.count({source_.process, r.match})) {
      ++counts_->posts_dropped;
      return;
    }
    Write(tick, r);
  }
  void On(uint64_t tick, const format::ControlRecord& r) {
    recording_ = r.on != 0;
    if (Step(tick)) Write(tick, r);
  }
  template <typename R>
  void On(uint64_t tick, const R& r) {
    if (Step(tick)) Write(tick, r);
  }
  void OnUnknown(uint8_t kind, uint64_t tick, const uint8_t* body, size_t size) {
    if (!Step(tick)) return;
    writer_.RawEvent(process_.file_process, Stream(), InOrder(tick), kind, {body, size});
    ++counts_->written;
  }

 private:
  enum class Phase { kBefore, kIn, kAfter };

  uint32_t Stream() const { return source_.stream->stream; }

  // The record's time as the loader gives it.
  int64_t Time(uint64_t tick) {
    int64_t t = Corrected(tick);
    if (records_++ > 0 && t < last_ns_) t = last_ns_;
    last_ns_ = t;
    return t;
  }
  int64_t Corrected(uint64_t tick) const {
    constexpr int64_t kLimit = model::ClockCorrection::kLimit;
    int64_t t = source_.clock->is_identity()
                    ? static_cast<int64_t>(tick > uint64_t{kLimit} ? kLimit : tick)
                    : source_.clock->ToNs(tick);
    t = t > kLimit ? kLimit : (t < -kLimit ? -kLimit : t);
    return source_.correction != nullptr ? source_.correction->Apply(t) : t;
  }
  // The first tick in [lo, hi] at `t` or later (hi when none).
  uint64_t FirstTickFrom(int64_t t, uint64_t lo, uint64_t hi) const {
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (Corrected(mid) >= t) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return hi;
  }
  // The last tick in [lo, hi] at `t` or earlier (lo when none).
  uint64_t LastTickUntil(int64_t t, uint64_t lo, uint64_t hi) const {
    while (lo < hi) {
      const uint64_t mid = hi - (hi - lo) / 2;
      if (Corrected(mid) <= t) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  // Times the record; opens or closes the window on the way. True when the
  // record is in the window.
  bool Step(uint64_t tick) {
    ++counts_->read;
    if (phase_ == Phase::kAfter) return false;
    const int64_t t = Time(tick);
    if (phase_ == Phase::kBefore) {
      if (t < plan_.from) {
        previous_tick_ = tick;
        return false;
      }
      phase_ = Phase::kIn;
      window_tick_ = FirstTickFrom(plan_.from, previous_tick_, tick);
      OpenAtCut(window_tick_);
      previous_tick_ = window_tick_;
    }
    if (t > plan_.to) {
      phase_ = Phase::kAfter;
      CloseAtCut(LastTickUntil(plan_.to, previous_tick_, tick));
      return false;
    }
    previous_tick_ = tick;
    return true;
  }

  void OpenAtCut(uint64_t tick) {
    if (!recording_) Write(tick, format::ControlRecord{0});
    std::string names;
    for (const Frame& f : open_) {
      if (!KeptState(f.state)) continue;
      Write(tick, format::EnterRecord{f.state, f.callsite});
      ++counts_->opened;
      names += (names.empty() ? "" : " > ") + std::string(StateName(f.state));
    }
    if (!names.empty()) Marker(tick, "opened at the cut: " + names);
  }
  void CloseAtCut(uint64_t tick) {
    std::string names;
    for (auto f = open_.rbegin(); f != open_.rend(); ++f) {
      if (!KeptState(f->state)) continue;
      names += (names.empty() ? "" : " < ") + std::string(StateName(f->state));
    }
    if (!names.empty()) Marker(tick, "closed at the cut: " + names);
    for (auto f = open_.rbegin(); f != open_.rend(); ++f) {
      if (!KeptState(f->state)) continue;
      Write(tick, format::LeaveRecord{f->state});
      ++counts_->closed;
    }
  }
  void Marker(uint64_t tick, const std::string& text) {
    Write(tick, format::EventStringRecord{process_.marker_type, 0, text});
  }

  template <typename R>
  void Message(uint64_t tick, const R& r) {
    const uint64_t row = message_row_++;
    if (Step(tick) && !plan_.drop_messages.count(CutPlan::Key(thread_, row))) Write(tick, r);
  }
  template <typename R>
  void Write(uint64_t tick, const R& r) {
    writer_.Event(process_.file_process, Stream(), InOrder(tick), r);
    ++counts_->written;
  }
  // A damaged file's ticks may go back from one chunk to the next, where
  // the loader keeps its times from going back; the cut's keep going on.
  uint64_t InOrder(uint64_t tick) {
    if (tick < written_tick_) return written_tick_;
    return written_tick_ = tick;
  }

  bool KeptState(uint64_t state) const {
    if (process_.all_states) return true;
    return state < process_.kept_states.size() && process_.kept_states[state] != 0;
  }
  std::string_view StateName(uint64_t state) const {
    auto it = defs_.states.find(state);
    return it == defs_.states.end() ? std::string_view("?") : defs_.Str(it->second.name);
  }

  const CutPlan& plan_;
  const ProcessCut& process_;
  uint32_t thread_;
  const ThreadSource& source_;
  const format::ProcessDefs& defs_;
  TraceWriter& writer_;
  StreamCutCounts* counts_;
  Phase phase_ = Phase::kBefore;
  std::vector<Frame> open_;
  uint64_t records_ = 0;
  int64_t last_ns_ = 0;
  uint64_t previous_tick_ = 0;
  uint64_t window_tick_ = 0;
  uint64_t written_tick_ = 0;  // of the record written last
  uint64_t message_row_ = 0, collective_row_ = 0;
  bool recording_ = true;
};

// The recorded callsite id the process gives model callsite `global`.
uint64_t LocalCallsite(const model::ProcessIdMaps& maps, uint32_t global) {
  if (global == model::kNone) return 0;
  for (size_t id = 0; id < maps.callsites.size(); ++id)
    if (maps.callsites[id] == global) return id;
  return 0;
}

}  // namespace

int64_t LocalNsAtOrAfter(const model::ClockCorrection* correction, int64_t t) {
  if (correction == nullptr || correction->is_identity()) return t;
  int64_t lo = -model::ClockCorrection::kLimit, hi = model::ClockCorrection::kLimit;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (correction->Apply(mid) >= t) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return hi;
}

void CutStream(const TraceStore& store, const CutPlan& plan, const ProcessCut& process,
               uint32_t thread, format::TraceWriter& writer, StreamCutCounts* counts) {
  const ThreadSource& source = store.source(thread);
  const ThreadSkeleton& skeleton = store.skeleton(thread);
  if (source.stream == nullptr || skeleton.chunks.empty()) return;
  const format::TraceFile& file = store.file();
  const auto& chunks = file.event_chunks();
  // Records before this local time are before the window.
  const int64_t local_from = LocalNsAtOrAfter(source.correction, plan.from);
  size_t c = 0;
  while (c < skeleton.chunks.size() && chunks[skeleton.chunks[c].file_chunk].end_ns < local_from)
    ++c;
  if (c == skeleton.chunks.size()) return;

  Cutter cutter(store, plan, process, thread, writer, counts);
  std::vector<Frame> open;
  for (const OpenFrame* f = skeleton.frames_begin(c); f != skeleton.frames_end(c); ++f) {
    const LongSlice& l = skeleton.long_slices[f->long_slice];
    open.push_back({l.local_state, LocalCallsite(*source.maps, l.callsite)});
  }
  cutter.SetOpen(std::move(open),
                 c > 0 ? chunks[skeleton.chunks[c - 1].file_chunk].header.tick_end : 0);
  std::vector<uint8_t> scratch;
  for (; c < skeleton.chunks.size() && !cutter.done(); ++c) {
    const format::ChunkInfo& chunk = chunks[skeleton.chunks[c].file_chunk];
    cutter.StartChunk(skeleton.chunks[c]);
    const Status decoded = file.DecodeChunk(chunk, cutter, &scratch);
    file.Release(chunk);
    if (!decoded.ok()) counts->problems.push_back(decoded.message());
  }
  writer.EndStream(process.file_process, source.stream->stream);
}

}  // namespace plx::store
