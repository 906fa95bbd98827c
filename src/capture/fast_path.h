// The recording fast path: reserve slots in the calling thread's ring, stamp
// them, publish. No lock, no allocation, no system call (with the TSC clock).
// Everything slow (first use on a thread, a full ring) is in runtime.cc.
#pragma once

#include <atomic>
#include <cstdint>

#include "capture/raw_record.h"
#include "capture/thread_stream.h"
#include "capture/ticks.h"

#define PLX_LIKELY(x) __builtin_expect(!!(x), 1)
#define PLX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PLX_TLS __attribute__((tls_model("initial-exec")))

namespace plx::capture {

/// Bit c set: category c is recorded. 0 while off, before init and after finalize.
/// Bit kSampleBit: state changes also take counter samples (src/counters).
extern std::atomic<uint32_t> g_mask;
inline constexpr uint32_t kSampleBit = 31;  // above every category (registry.h)
/// Called on the recording thread before each state record while kSampleBit
/// is set; records the thread's counters (src/counters/sampler.cc).
extern void (*g_state_sampler)();
/// The calling thread's stream, or null before its first record.
extern thread_local ThreadStream* tls_stream PLX_TLS;
/// When set before the thread's first record: the tick of its thread_begin
/// (the MPI layer dates a thread back to the start of MPI_Init).
extern thread_local uint64_t tls_attach_tick PLX_TLS;
/// True while this thread starts or stops the runtime (holding its init lock):
/// interposed calls it makes (pthread_create of the writer) must not record.
extern thread_local bool tls_runtime_busy PLX_TLS;

/// Slow paths (runtime.cc): attach the calling thread; make room for n slots.
ThreadStream* AttachThread();
Slot* ReserveSlow(ThreadStream* s, uint32_t n);

inline bool Selected(uint32_t category) {
  return (g_mask.load(std::memory_order_relaxed) >> category) & 1u;
}

/// Room for one slot, or null when this thread cannot record.
inline Slot* Reserve1(ThreadStream** out) {
  ThreadStream* s = tls_stream;
  if (PLX_UNLIKELY(s == nullptr)) {
    s = AttachThread();
    if (s == nullptr) return nullptr;
  }
  *out = s;
  if (PLX_LIKELY(s->head < s->limit)) return s->ring + (s->head & s->mask);
  return ReserveSlow(s, 1);
}

/// Room for n contiguous slots (never split by the ring's end).
inline Slot* ReserveN(ThreadStream** out, uint32_t n) {
  ThreadStream* s = tls_stream;
  if (PLX_UNLIKELY(s == nullptr)) {
    s = AttachThread();
    if (s == nullptr) return nullptr;
  }
  *out = s;
  const uint64_t pos = s->head & s->mask;
  if (PLX_LIKELY(s->head + n <= s->limit && pos + n <= s->capacity)) return s->ring + pos;
  return ReserveSlow(s, n);
}

inline void Commit(ThreadStream* s, uint32_t n) {
  s->head += n;
  s->published.store(s->head, std::memory_order_release);
}

/// A one-slot record of the selected category.
inline void Emit1(uint32_t category, uint32_t w0, uint32_t w1) {
  if (!Selected(category)) return;
  ThreadStream* s;
  Slot* slot = Reserve1(&s);
  if (PLX_UNLIKELY(slot == nullptr)) return;
  *slot = Slot{ReadTicks(), w0, w1};
  Commit(s, 1);
}

/// Before a state record written by hand: the samples of EmitState.
inline void SampleAtStateChange() {
  if (PLX_UNLIKELY((g_mask.load(std::memory_order_relaxed) >> kSampleBit) & 1u)) g_state_sampler();
}

/// A state enter or leave (kind in w0): first the counter samples that
/// PLX_COUNTERS / PLX_SCHED take at every state change, then Emit1.
inline void EmitState(uint32_t category, uint32_t w0, uint32_t w1) {
  const uint32_t mask = g_mask.load(std::memory_order_relaxed);
  if (!((mask >> category) & 1u)) return;
  if (PLX_UNLIKELY((mask >> kSampleBit) & 1u)) g_state_sampler();
  ThreadStream* s;
  Slot* slot = Reserve1(&s);
  if (PLX_UNLIKELY(slot == nullptr)) return;
  *slot = Slot{ReadTicks(), w0, w1};
  Commit(s, 1);
}

/// Emit1 at a given tick (not before the stream's previous record: the
/// drain keeps ticks monotonic).
inline void Emit1At(uint64_t tick, uint32_t category, uint32_t w0, uint32_t w1) {
  if (!Selected(category)) return;
  ThreadStream* s;
  Slot* slot = Reserve1(&s);
  if (PLX_UNLIKELY(slot == nullptr)) return;
  *slot = Slot{tick, w0, w1};
  Commit(s, 1);
}

/// Emit2 at a given tick (not before the stream's previous record).
inline void Emit2At(uint64_t tick, uint32_t category, uint32_t w0, uint32_t w1, uint64_t a,
                    uint64_t b) {
  if (!Selected(category)) return;
  ThreadStream* s;
  Slot* slot = ReserveN(&s, 2);
  if (PLX_UNLIKELY(slot == nullptr)) return;
  slot[0] = Slot{tick, w0, w1};
  uint64_t* payload = reinterpret_cast<uint64_t*>(slot + 1);
  payload[0] = a;
  payload[1] = b;
  Commit(s, 2);
}

/// A two-slot record: slot 0 as for Emit1, slot 1 holds 16 payload bytes.
inline void Emit2(uint32_t category, uint32_t w0, uint32_t w1, uint64_t a, uint64_t b) {
  if (Selected(category)) Emit2At(ReadTicks(), category, w0, w1, a, b);
}

/// A three-slot record: slot 0 as for Emit1, slots 1 and 2 hold 32 payload bytes.
inline void Emit3(uint32_t category, uint32_t w0, uint32_t w1, uint64_t a, uint64_t b, uint64_t c,
                  uint64_t d) {
  if (!Selected(category)) return;
  ThreadStream* s;
  Slot* slot = ReserveN(&s, 3);
  if (PLX_UNLIKELY(slot == nullptr)) return;
  slot[0] = Slot{ReadTicks(), w0, w1};
  uint64_t* payload = reinterpret_cast<uint64_t*>(slot + 1);
  payload[0] = a;
  payload[1] = b;
  payload[2] = c;
  payload[3] = d;
  Commit(s, 3);
}

/// A message record (send or recv) in the ring layout of raw_record.h.
inline void EmitMessage(RawKind kind, uint32_t comm, int32_t peer, int32_t tag, uint64_t bytes,
                        uint64_t clock, uint64_t match) {
  Emit3(1 /* kCatComm */, MakeW0(kind, comm & kMaxArg), static_cast<uint32_t>(peer),
        static_cast<uint32_t>(tag), bytes, clock, match);
}

}  // namespace plx::capture
