// The in-memory record layout of the per-thread ring: 16-byte slots. Private to
// the runtime (the file format is in spec/records.toml); the drain turns these
// into .plx records.
//
// Slot 0 of every record: tick (u64), w0 = kind (low 8 bits) | arg (high 24),
// w1 = a 32-bit argument. Longer records use the following slots as bytes:
//   enter            arg = state id, w1 = callsite
//   leave            arg = state id
//   event_int/double arg = event type id, w1 = callsite; slot 1: value (8 bytes)
//   event_string     arg = event type id, w1 = callsite; slot 1..: u32 length, text
//   send / recv      arg = communicator, w1 = peer; slot 1: tag i32, pad, bytes u64;
//                    slot 2: clock u64, match u64
//   collective       arg = communicator, w1 = op; slot 1: root i32, pad, sent u64;
//                    slot 2: received u64, pad
//   counter_*        arg = counter id; slot 1: value (8 bytes)
//   rma              arg = communicator, w1 = op; slot 1: origin i32, target i32, bytes u64
//   recv_post        arg = communicator, w1 = peer; slot 1: tag i32, pad, match u64
//   control          w1 = on;  lost: w1 = count;  thread_begin / thread_end
//   pad              w1 = number of slots to skip (to keep records contiguous at the ring end)
#pragma once

#include <cstdint>

namespace plx::capture {

struct Slot {
  uint64_t tick;
  uint32_t w0;
  uint32_t w1;
};
static_assert(sizeof(Slot) == 16);

enum RawKind : uint8_t {
  kRawPad = 0,
  kRawEnter,
  kRawLeave,
  kRawEventInt,
  kRawEventDouble,
  kRawEventString,
  kRawSend,
  kRawRecv,
  kRawCounterInt,
  kRawCounterDouble,
  kRawRma,
  kRawThreadBegin,
  kRawThreadEnd,
  kRawControl,
  kRawLost,
  kRawCollective,
  kRawRecvPost,
};

inline constexpr uint32_t kMaxArg = (1u << 24) - 1;  // largest id that fits the 24-bit arg
inline constexpr uint32_t kMaxStringBytes = 4000;    // longer event strings are cut
inline constexpr uint32_t kMaxRecordSlots = 1 + (4 + kMaxStringBytes + 15) / 16;

inline uint32_t MakeW0(RawKind kind, uint32_t arg) {
  return kind | (arg << 8);
}
inline RawKind KindOf(const Slot& s) {
  return static_cast<RawKind>(s.w0 & 0xff);
}
inline uint32_t ArgOf(const Slot& s) {
  return s.w0 >> 8;
}

/// Slots a string event of `length` text bytes takes.
inline uint32_t StringSlots(uint32_t length) {
  return 1 + (4 + length + 15) / 16;
}

}  // namespace plx::capture
