// Drain: ring slots -> encoded records -> sealed chunks -> file.
#include "capture/drain.h"

#include <cstdlib>
#include <cstring>

#include "base/varint.h"
#include "format/records.gen.h"

namespace plx::capture {

namespace {
// The largest record: an event string, or a definition with a string of
// kMaxDefStringBytes (the registry cuts longer ones).
constexpr size_t kMaxRecordBytes =
    64 + (kMaxStringBytes > kMaxDefStringBytes ? kMaxStringBytes : kMaxDefStringBytes);

uint64_t Payload64(const Slot* slot, size_t word) {
  uint64_t v;
  std::memcpy(&v, reinterpret_cast<const uint8_t*>(slot) + 8 * word, 8);
  return v;
}
int32_t Payload32(const Slot* slot, size_t word) {
  int32_t v;
  std::memcpy(&v, reinterpret_cast<const uint8_t*>(slot) + 4 * word, 4);
  return v;
}
double PayloadDouble(const Slot* slot) {
  double v;
  std::memcpy(&v, slot, 8);
  return v;
}

/// Slots the record starting at `slot` takes (slot + 1 is readable for strings).
uint32_t RecordSlots(const Slot* slot) {
  switch (KindOf(*slot)) {
    case kRawPad:
      return slot->w1;
    case kRawEventInt:
    case kRawEventDouble:
    case kRawCounterInt:
    case kRawCounterDouble:
    case kRawRma:
    case kRawRecvPost:
      return 2;
    case kRawEventString:
      return StringSlots(static_cast<uint32_t>(Payload32(slot + 1, 0)));
    case kRawSend:
    case kRawRecv:
    case kRawCollective:
      return 3;
    default:
      return 1;
  }
}

/// Encodes the record at `slot` as a .plx record; returns the new end.
uint8_t* EncodeSlot(uint8_t* p, uint64_t dt, const Slot* slot) {
  using namespace format;
  const uint32_t arg = ArgOf(*slot);
  switch (KindOf(*slot)) {
    case kRawEnter:
      return EncodeEvent(p, dt, EnterRecord{arg, slot->w1});
    case kRawLeave:
      return EncodeEvent(p, dt, LeaveRecord{arg});
    case kRawEventInt:
      return EncodeEvent(
          p, dt, EventIntRecord{arg, slot->w1, static_cast<int64_t>(Payload64(slot + 1, 0))});
    case kRawEventDouble:
      return EncodeEvent(p, dt, EventDoubleRecord{arg, slot->w1, PayloadDouble(slot + 1)});
    case kRawEventString: {
      const auto* text = reinterpret_cast<const char*>(slot + 1) + 4;
      const uint32_t n = static_cast<uint32_t>(Payload32(slot + 1, 0));
      return EncodeEvent(p, dt, EventStringRecord{arg, slot->w1, std::string_view(text, n)});
    }
    case kRawSend:
    case kRawRecv: {
      const int64_t peer = static_cast<int32_t>(slot->w1);
      const int64_t tag = Payload32(slot + 1, 0);
      const uint64_t bytes = Payload64(slot + 1, 1);
      const uint64_t clock = Payload64(slot + 2, 0);
      const uint64_t match = Payload64(slot + 2, 1);
      if (KindOf(*slot) == kRawSend)
        return EncodeEvent(p, dt, SendRecord{arg, peer, tag, bytes, clock, match});
      return EncodeEvent(p, dt, RecvRecord{arg, peer, tag, bytes, clock, match});
    }
    case kRawCollective:
      return EncodeEvent(p, dt,
                         CollectiveRecord{slot->w1, arg, Payload32(slot + 1, 0),
                                          Payload64(slot + 1, 1), Payload64(slot + 2, 0)});
    case kRawCounterInt:
      return EncodeEvent(p, dt,
                         CounterIntRecord{arg, static_cast<int64_t>(Payload64(slot + 1, 0))});
    case kRawCounterDouble:
      return EncodeEvent(p, dt, CounterDoubleRecord{arg, PayloadDouble(slot + 1)});
    case kRawRma:
      return EncodeEvent(p, dt,
                         RmaRecord{slot->w1, arg, Payload32(slot + 1, 0), Payload32(slot + 1, 1),
                                   Payload64(slot + 1, 1)});
    case kRawRecvPost:
      return EncodeEvent(p, dt,
                         RecvPostRecord{arg, static_cast<int32_t>(slot->w1), Payload32(slot + 1, 0),
                                        Payload64(slot + 1, 1)});
    case kRawThreadBegin:
      return EncodeEvent(p, dt, ThreadBeginRecord{});
    case kRawThreadEnd:
      return EncodeEvent(p, dt, ThreadEndRecord{});
    case kRawControl:
      return EncodeEvent(p, dt, ControlRecord{slot->w1});
    case kRawLost:
      return EncodeEvent(p, dt, LostRecord{slot->w1});
    case kRawPad:
      break;
  }
  return p;
}

/// Records (pads not counted) in the slots [tail, end) of `s`.
uint64_t CountRecords(const ThreadStream* s, uint64_t tail, uint64_t end) {
  uint64_t count = 0;
  while (tail < end) {
    const Slot* slot = s->ring + (tail & s->mask);
    const uint32_t n = RecordSlots(slot);
    if (n == 0 || n > kMaxRecordSlots || tail + n > end) break;  // overwritten ring
    if (KindOf(*slot) != kRawPad) ++count;
    tail += n;
  }
  return count;
}

}  // namespace

DrainContext::DrainContext(int zstd_level)
    : encoder(kChunkRawBytes + kMaxRecordBytes, zstd_level),
      raw(static_cast<uint8_t*>(std::malloc(kChunkRawBytes + kMaxRecordBytes))),
      raw_capacity(kChunkRawBytes + kMaxRecordBytes) {
  std::memset(raw, 0, raw_capacity);  // touch now, not in a signal handler
}

DrainContext::~DrainContext() {
  std::free(raw);
}

void DrainDefinitions(DrainContext& ctx, const DrainTarget& target) {
  Registry& reg = *target.registry;
  bool locked = true;
  if (target.crashing) {
    OwnerLock::CrashResult r = reg.lock().LockForCrash(1000);
    if (r == OwnerLock::CrashResult::kTimedOut) return;
    locked = r == OwnerLock::CrashResult::kLocked;
  } else {
    reg.lock().Lock();
  }
  ByteBuffer& pending = reg.pending();
  if (target.output->stopped()) pending.Clear();  // the file takes nothing more
  // Split at record boundaries into chunks the encoder can take.
  const uint8_t* p = pending.data();
  const uint8_t* end = p + pending.size();
  while (p < end) {
    const uint8_t* chunk_begin = p;
    uint32_t count = 0;
    while (p < end) {
      const uint8_t* q = p + 1;
      uint64_t len = 0;
      if (!GetUvarint(&q, end, &len) || len > static_cast<uint64_t>(end - q)) {
        p = end;  // cannot happen with our own encoder; drop the tail rather than loop
        break;
      }
      if (q + len - chunk_begin > static_cast<ptrdiff_t>(kChunkRawBytes) && count > 0) break;
      p = q + len;
      ++count;
    }
    format::ChunkHeader h;
    h.type = format::ChunkType::kDefs;
    h.process = target.process;
    h.record_count = count;
    target.output->Append(ctx.encoder.Seal(h, chunk_begin, static_cast<size_t>(p - chunk_begin)),
                          target.crashing);
  }
  pending.Clear();
  if (locked) reg.lock().Unlock();
}

uint64_t DrainStream(ThreadStream* s, DrainContext& ctx, const DrainTarget& target) {
  if (s->ring == nullptr) return 0;
  // Snapshot first: every record before it was made after its definitions were
  // registered, so writing the definitions now keeps them ahead in the file.
  const uint64_t end = s->published.load(std::memory_order_acquire);
  DrainDefinitions(ctx, target);
  uint64_t tail = s->tail.load(std::memory_order_relaxed);
  uint64_t written = 0;
  while (tail < end) {
    if (target.output->stopped()) {
      // Nobody can write them: count them, and spend no time encoding.
      target.output->CountDropped(CountRecords(s, tail, end));
      s->tail.store(end, std::memory_order_release);
      break;
    }
    uint8_t* p = ctx.raw;
    uint32_t count = 0;
    uint64_t first_tick = 0;
    uint64_t prev = s->last_tick;
    while (tail < end && static_cast<size_t>(p - ctx.raw) < kChunkRawBytes) {
      const Slot* slot = s->ring + (tail & s->mask);
      const uint32_t n = RecordSlots(slot);
      if (n == 0 || n > kMaxRecordSlots || tail + n > end) {
        tail = end;  // the program overwrote its ring: drop the rest rather than loop
        break;
      }
      if (KindOf(*slot) != kRawPad) {
        uint64_t tick = slot->tick > prev ? slot->tick : prev;  // keep ticks monotonic
        if (count == 0) {
          first_tick = tick;
          prev = tick;
        }
        p = EncodeSlot(p, tick - prev, slot);
        prev = tick;
        ++count;
      }
      tail += n;
    }
    if (count > 0) {
      format::ChunkHeader h;
      h.type = format::ChunkType::kEvents;
      h.process = target.process;
      h.stream = s->id;
      h.record_count = count;
      h.first_index = s->next_index;
      h.tick_begin = first_tick;
      h.tick_end = prev;
      // A refused chunk is counted as dropped by the output; its slots are freed all the same.
      if (target.output->Append(ctx.encoder.Seal(h, ctx.raw, static_cast<size_t>(p - ctx.raw)),
                                target.crashing)) {
        s->next_index += count;
        s->last_tick = prev;
        written += count;
      }
    }
    s->tail.store(tail, std::memory_order_release);
  }
  return written;
}

}  // namespace plx::capture
