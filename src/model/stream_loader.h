// StreamLoader: the per-record path of LoadTrace. A record visitor that appends
// one stream's records to the Trace's columns, pairs enter/leave into slices
// with a stack, converts ticks to ns and corrects them onto the reference clock
// (ClockCorrection). No allocation or map lookup per record
// (string payloads aside): columns are reserved from the file's record count
// as their share becomes known, and ids map through flat per-process vectors.
#pragma once

#include <cstdint>
#include <vector>

#include "format/records.gen.h"
#include "format/tick_clock.h"
#include "model/clock_correction.h"
#include "model/def_merger.h"
#include "model/trace.h"
#include "model/undefined_log.h"

namespace plx::model {

class StreamLoader : public format::EventVisitorBase {
 public:
  using EventVisitorBase::On;

  StreamLoader(Trace* trace, DefMerger* merger) : trace_(trace), merger_(merger) {}

  /// Starts a thread: its records follow, converted with `clock`, then
  /// moved with `correction`.
  void BeginThread(uint32_t thread, uint32_t process, const ProcessIdMaps* maps,
                   const format::TickClock* clock, const ClockCorrection* correction);
  /// Ends the current thread: closes unclosed slices at its last record and
  /// fills the Thread's time span and record count.
  void EndThread();

  /// A slice not yet left: its row, and the summed durations of its closed
  /// direct children.
  struct OpenSlice {
    size_t row;
    int64_t children_ns;
    uint64_t local_state;  // as recorded, to check the matching leave
  };
  /// Where the current thread's decoding stands: enough to go on from there
  /// later (load_cache.h keeps one per decoded chunk).
  struct Position {
    std::vector<OpenSlice> open;  // outermost first
    size_t hint = 0;
    uint64_t records = 0;
    int64_t first_ns = 0, last_ns = 0;
    bool ended = false;
  };
  Position position() const;
  /// Like BeginThread, then goes on from `at` (a position of the same
  /// thread, with the same tables).
  void Resume(uint32_t thread, uint32_t process, const ProcessIdMaps* maps,
              const format::TickClock* clock, const ClockCorrection* correction,
              const Position& at);
  /// What EndThread does to the slices still open at `at`: each ends at the
  /// thread's last record, innermost first, flagged unclosed. Their rows are
  /// `at`'s plus `row_offset` in `slices`; returns how many were closed.
  static uint64_t CloseOpen(const Position& at, size_t row_offset, SliceTable* slices);
  /// Without a merger (null), an id with no definition is not given a
  /// placeholder here: it is counted (undefined_seen), noted in the log when
  /// there is one (which answers with the placeholder once it is made), and
  /// else read as 0 (kNone for communicators). The parallel loader decodes
  /// threads so and loads again in order when it happens; the trace store
  /// makes the placeholders from the logs.
  void set_merger(DefMerger* merger) { merger_ = merger; }
  void set_undefined_log(UndefinedLog* log) { undefined_log_ = log; }
  /// With `on`, only slices are loaded: every other record still moves the
  /// thread's time on (as it does when loaded), but adds no row, reads no
  /// reference and makes no text. For passes that read slices alone.
  void set_slices_only(bool on) { slices_only_ = on; }
  uint64_t undefined_seen() const { return undefined_seen_; }
  /// Records decoded of the current thread.
  uint64_t records() const { return records_; }
  /// Reserves every table that is nearly full for a file of `total_records`,
  /// estimating its share from the records decoded so far (call after each
  /// chunk: the estimates improve as threads of other kinds are read).
  void ReserveFor(uint64_t total_records);
  /// Records decoded so far, over all threads.
  uint64_t decoded() const { return decoded_ + records_; }

  // The hot handlers are forced inline into the decoder's switch: a call per
  // record costs more than the handler's work.
  [[gnu::always_inline]] void On(uint64_t tick, const format::EnterRecord& r) {
    const int64_t t = Time(tick);
    const uint32_t state = Map(maps_->states, r.state, RefKind::kState);
    const uint32_t callsite =
        r.callsite == 0 ? kNone : Map(maps_->callsites, r.callsite, RefKind::kCallsite);
    SliceTable& s = trace_->slices;
    const size_t depth = stack_.size();
    stack_.push_back({s.begin.size(), 0, r.state});
    s.thread.push_back(thread_);
    s.begin.push_back(t);
    s.end.push_back(t);
    s.state.push_back(state);
    s.callsite.push_back(callsite);
    s.depth.push_back(static_cast<uint16_t>(depth < 0xffff ? depth : 0xffff));
    s.self_ns.push_back(0);
    s.flags.push_back(0);  // last: a byte store may alias every pointer above
  }

  [[gnu::always_inline]] void On(uint64_t tick, const format::LeaveRecord& r) {
    const int64_t t = Time(tick);
    if (stack_.empty()) [[unlikely]] {
      ++trace_->stats.leave_without_enter;
      return;
    }
    if (stack_.back().local_state != r.state) [[unlikely]]
      ++trace_->stats.leave_mismatch;
    Close(t);
  }

  void On(uint64_t tick, const format::EventIntRecord& r) {
    Instant(tick, r.type, r.callsite, ValueKind::kInt, r.value, 0.0, kNone);
  }
  void On(uint64_t tick, const format::EventDoubleRecord& r) {
    Instant(tick, r.type, r.callsite, ValueKind::kDouble, 0, r.value, kNone);
  }
  void On(uint64_t tick, const format::EventStringRecord& r) {
    if (Skipped(tick)) return;  // no text either
    trace_->texts.emplace_back(r.text);
    Instant(tick, r.type, r.callsite, ValueKind::kString, 0, 0.0,
            static_cast<uint32_t>(trace_->texts.size() - 1));
  }
  void On(uint64_t tick, const format::SendRecord& r) {
    Message(tick, 1, r.comm, r.peer, r.tag, r.bytes, r.clock, r.match);
  }
  void On(uint64_t tick, const format::RecvRecord& r) {
    Message(tick, 0, r.comm, r.peer, r.tag, r.bytes, r.clock, r.match);
  }
  void On(uint64_t tick, const format::CounterIntRecord& r) {
    Sample(tick, r.counter, static_cast<double>(r.value));
  }
  void On(uint64_t tick, const format::CounterDoubleRecord& r) { Sample(tick, r.counter, r.value); }
  void On(uint64_t tick, const format::RmaRecord& r) {
    if (Skipped(tick)) return;
    RmaTable& m = trace_->rma;
    m.thread.push_back(thread_);
    m.time.push_back(Time(tick));
    m.op.push_back(static_cast<uint8_t>(r.op <= 3 ? r.op : 3));
    m.comm.push_back(Comm(r.comm));
    m.origin.push_back(r.origin);
    m.target.push_back(r.target);
    m.bytes.push_back(r.bytes);
  }
  void On(uint64_t tick, const format::CollectiveRecord& r) {
    if (Skipped(tick)) return;
    CollectiveTable& c = trace_->collectives;
    c.thread.push_back(thread_);
    c.time.push_back(Time(tick));
    c.op.push_back(static_cast<uint8_t>(r.op >= 1 && r.op <= 13 ? r.op : 13));
    c.comm.push_back(Comm(r.comm));
    c.root.push_back(r.root);
    c.sent.push_back(r.sent);
    c.received.push_back(r.received);
  }
  void On(uint64_t tick, const format::RecvPostRecord& r) {
    if (Skipped(tick)) return;
    RecvPostTable& p = trace_->recv_posts;
    p.thread.push_back(thread_);
    p.time.push_back(Time(tick));
    p.comm.push_back(Comm(r.comm));
    p.peer.push_back(r.peer);
    p.tag.push_back(r.tag);
    p.match.push_back(r.match);
  }
  void On(uint64_t tick, const format::ThreadBeginRecord&) { Time(tick); }
  void On(uint64_t tick, const format::ThreadEndRecord&) {
    Time(tick);
    ended_ = true;
  }
  void On(uint64_t tick, const format::ControlRecord& r) { Control(tick, r.on != 0 ? 1 : 0, 0); }
  void On(uint64_t tick, const format::LostRecord& r) {
    trace_->stats.lost_records += r.count;
    Control(tick, 1, r.count);
  }
  void OnUnknown(uint8_t, uint64_t tick, const uint8_t*, size_t) {
    Time(tick);
    ++trace_->stats.unknown_record_kinds;
  }

 private:
  using Frame = OpenSlice;
  // The open slices. A push is a store (std::vector's push_back was not
  // inlined into the decoder's switch: 4% of a load).
  class FrameStack {
   public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Frame& back() { return frames_[size_ - 1]; }
    void pop_back() { --size_; }
    void clear() { size_ = 0; }
    const Frame* begin() const { return frames_.data(); }
    const Frame* end() const { return frames_.data() + size_; }
    void push_back(const Frame& f) {
      if (size_ == frames_.size()) [[unlikely]]
        Grow();
      frames_[size_++] = f;
    }

   private:
    [[gnu::noinline]] void Grow() { frames_.resize(frames_.empty() ? 256 : 2 * frames_.size()); }
    std::vector<Frame> frames_;
    size_t size_ = 0;
  };

  // Times are kept within +-2^61 ns (73 years) and never decrease within a
  // thread, so every duration and every sum of nested durations fits in int64
  // however damaged the clock records are.
  int64_t Time(uint64_t tick) {
    constexpr int64_t kLimit = ClockCorrection::kLimit;
    int64_t t = identity_ ? static_cast<int64_t>(tick > uint64_t{kLimit} ? kLimit : tick)
                          : clock_->ToNs(tick, &hint_);
    t = t > kLimit ? kLimit : (t < -kLimit ? -kLimit : t);
    if (correction_ != nullptr) {
      // correction_->Apply(t), from the run of times it moves alike.
      if (t < run_.lo || t > run_.hi) [[unlikely]]
        run_ = correction_->RunAt(t);
      t = ClockCorrection::Clamp(t + run_.add);
    }
    if (records_++ == 0) {
      first_ns_ = t;
    } else if (t < last_ns_) [[unlikely]] {
      t = last_ns_;
    }
    last_ns_ = t;
    return t;
  }
  // Slices alone: a record of another kind only moves the thread's time on.
  bool Skipped(uint64_t tick) {
    if (!slices_only_) return false;
    Time(tick);
    return true;
  }
  uint32_t Map(const std::vector<uint32_t>& map, uint64_t id, RefKind kind) {
    const uint32_t g = LookupId(map, id);
    if (g != kNone) [[likely]]
      return g;
    if (merger_ == nullptr) return Unmerged(kind, id);
    return merger_->Undefined(kind, process_, id);
  }
  [[gnu::noinline]] uint32_t Unmerged(RefKind kind, uint64_t id) {
    ++undefined_seen_;
    const uint32_t g = undefined_log_ ? undefined_log_->Use(kind, process_, id) : kNone;
    if (g != kNone) return g;
    return kind == RefKind::kCommunicator ? kNone : 0;
  }
  uint32_t Comm(uint64_t id) {
    return id == 0 ? kNone : Map(maps_->communicators, id, RefKind::kCommunicator);
  }
  void Close(int64_t t) {
    const Frame f = stack_.back();
    stack_.pop_back();
    SliceTable& s = trace_->slices;
    const int64_t duration = t - s.begin[f.row];
    s.end[f.row] = t;
    s.self_ns[f.row] = duration - f.children_ns;
    if (!stack_.empty()) stack_.back().children_ns += duration;
  }
  void Instant(uint64_t tick, uint64_t type, uint64_t callsite, ValueKind kind, int64_t iv,
               double dv, uint32_t text) {
    if (Skipped(tick)) return;
    InstantTable& e = trace_->instants;
    e.thread.push_back(thread_);
    e.time.push_back(Time(tick));
    e.type.push_back(Map(maps_->event_types, type, RefKind::kEventType));
    e.callsite.push_back(callsite == 0 ? kNone
                                       : Map(maps_->callsites, callsite, RefKind::kCallsite));
    e.kind.push_back(kind);
    e.int_value.push_back(iv);
    e.double_value.push_back(dv);
    e.text.push_back(text);
  }
  void Message(uint64_t tick, uint8_t is_send, uint64_t comm, int64_t peer, int64_t tag,
               uint64_t bytes, uint64_t clock, uint64_t match) {
    if (Skipped(tick)) return;
    MessageTable& m = trace_->messages;
    m.thread.push_back(thread_);
    m.time.push_back(Time(tick));
    m.is_send.push_back(is_send);
    m.comm.push_back(Comm(comm));
    m.peer.push_back(peer);
    m.tag.push_back(tag);
    m.bytes.push_back(bytes);
    m.clock.push_back(clock);
    m.match.push_back(match);
  }
  void Sample(uint64_t tick, uint64_t counter, double value) {
    if (Skipped(tick)) return;
    CounterTable& c = trace_->counter_samples;
    c.thread.push_back(thread_);
    c.time.push_back(Time(tick));
    c.counter.push_back(Map(maps_->counters, counter, RefKind::kCounter));
    c.value.push_back(value);
  }
  void Control(uint64_t tick, uint8_t on, uint64_t lost) {
    if (Skipped(tick)) return;
    ControlTable& c = trace_->controls;
    c.thread.push_back(thread_);
    c.time.push_back(Time(tick));
    c.on.push_back(on);
    c.lost.push_back(lost);
  }

  Trace* trace_;
  DefMerger* merger_;
  const ProcessIdMaps* maps_ = nullptr;
  const format::TickClock* clock_ = nullptr;
  const ClockCorrection* correction_ = nullptr;  // null when it would change nothing
  ClockCorrection::Run run_;                     // of correction_, where the last time fell
  bool identity_ = true;
  bool slices_only_ = false;
  size_t hint_ = 0;
  uint32_t thread_ = 0;
  uint32_t process_ = 0;
  uint64_t records_ = 0;  // of the current thread
  uint64_t decoded_ = 0;  // of the threads before it
  uint64_t undefined_seen_ = 0;
  UndefinedLog* undefined_log_ = nullptr;
  int64_t first_ns_ = 0;
  int64_t last_ns_ = 0;
  bool ended_ = false;
  FrameStack stack_;
};

}  // namespace plx::model
