// ChunkChecker: the per-connection half of ingest, run on the connection's
// own thread before anything is shared. One pass over an EVENTS chunk's
// records; only sends and receives do work (a channel lookup each).
#include "server/live/live_chunk.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "base/checksum.h"
#include "base/strings.h"

namespace plx::server::live {

namespace {

using ull = unsigned long long;

uint64_t Mix(uint64_t h, uint64_t w) {
  h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 31);
}

uint64_t HashText(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

size_t ChunkChecker::ChannelHash::operator()(const Channel& c) const {
  uint64_t h = 0;
  for (uint64_t w : c)
    h = Mix(h, w);
  return static_cast<size_t>(h);
}

ChunkChecker::ChunkChecker(uint32_t self) : self_(self) {}

ChunkChecker::~ChunkChecker() {
  if (zstd_ != nullptr) ZSTD_freeDCtx(zstd_);
}

const ChunkChecker::CommInfo& ChunkChecker::Comm(uint64_t id) {
  if (last_comm_.valid && last_comm_.id == id) return last_comm_;
  CommInfo c;
  c.id = id;
  const auto it = defs_.communicators.find(id);
  if (it != defs_.communicators.end()) {
    c.valid = true;
    c.streams = it->second.kind == 1;
    // As time/communicator_keys.h: the global id (MPI), else the name.
    if (it->second.global_id != 0) {
      c.cls = 1, c.identity = it->second.global_id;
    } else {
      c.cls = 2, c.identity = HashText(defs_.Str(it->second.name));
    }
  }
  last_comm_ = c;
  return last_comm_;
}

// Sends and receives of one chunk as message keys, and its tally; every
// record counted (a template for every other kind: the base's no-op
// overloads would win).
struct MessageCollector {
  MessageCollector(ChunkChecker& c, uint32_t chunk_stream, uint64_t self_id)
      : checker(c), stream(chunk_stream), self(self_id), open(c.open_[chunk_stream]) {}

  void Message(bool send, uint64_t comm_id, int64_t peer, int64_t tag) {
    const ChunkChecker::CommInfo& comm = checker.Comm(comm_id);
    // Threads of a work queue send to "whoever takes it" (peer -1): their
    // receives name a sender no send names, so they would wait for nothing.
    // Once a communicator of threads has such a send, its messages order nothing.
    if (comm.valid && comm.streams) {
      if (send && peer < 0) checker.anonymous_.insert(comm_id);
      if (checker.anonymous_.contains(comm_id)) return;
    }
    if (!comm.valid || peer < 0) return;  // cannot pair (as time::MatchMessages)
    const auto other = static_cast<uint64_t>(peer);
    ChunkChecker::Channel ch;
    if (comm.streams) {
      // Streams of this process: the connection (`self` without a rank) names it.
      ch = {3,
            checker.self_,
            send ? stream : other,
            send ? other : stream,
            static_cast<uint64_t>(tag),
            send};
    } else {
      ch = {comm.cls,
            comm.identity,
            send ? self : other,
            send ? other : self,
            static_cast<uint64_t>(tag),
            send};
    }
    // Both sides must hash alike: the side is not part of the message's name.
    ch[5] = send ? 1 : 0;
    const uint64_t n = checker.counts_[ch]++;
    ch[5] = 0;
    checker.messages_.push_back({send, Mix(ChunkChecker::ChannelHash()(ch), n)});
  }

  template <typename R>
  void On(uint64_t tick, const R&) {
    Tick(tick);
  }
  void On(uint64_t tick, const format::SendRecord& r) {
    Tick(tick);
    ++tally.sends;
    tally.bytes_sent += r.bytes;
    Message(true, r.comm, r.peer, r.tag);
  }
  void On(uint64_t tick, const format::RecvRecord& r) {
    Tick(tick);
    ++tally.receives;
    Message(false, r.comm, r.peer, r.tag);
  }
  void On(uint64_t tick, const format::EnterRecord& r) {
    Tick(tick);
    open.push_back({r.state, checker.clock_.ToNs(tick, &hint)});
  }
  // As the model's loader: a leave closes the innermost open state; one on an
  // empty stack is ignored.
  void On(uint64_t tick, const format::LeaveRecord&) {
    Tick(tick);
    if (open.empty()) return;
    const ChunkChecker::Open o = open.back();
    open.pop_back();
    if (last_state == nullptr || last_state->first != o.state) {
      auto it = std::find_if(ended.begin(), ended.end(),
                             [&](const auto& e) { return e.first == o.state; });
      if (it == ended.end()) it = ended.insert(ended.end(), {o.state, {}});
      last_state = &*it;
    }
    ++last_state->second.count;
    last_state->second.total_ns += checker.clock_.ToNs(tick, &hint) - o.ns;
  }
  void OnUnknown(uint8_t, uint64_t tick, const uint8_t*, size_t) { Tick(tick); }
  void Tick(uint64_t tick) {
    if (records++ == 0) first = tick;
    last = tick;
  }

  ChunkChecker& checker;
  uint64_t stream;
  uint64_t self;
  uint64_t records = 0, first = 0, last = 0;
  std::vector<ChunkChecker::Open>& open;
  size_t hint = 0;
  ChunkTally tally;
  std::vector<std::pair<uint64_t, ChunkTally::State>> ended;  // by local state id
  std::pair<uint64_t, ChunkTally::State>* last_state = nullptr;
};

Status ChunkChecker::DecodePayload(const format::ChunkHeader& h, const uint8_t* stored,
                                   uint64_t offset, const uint8_t** payload) {
  const auto where = [&] {
    return StrFormat("offset %llu: %s chunk (stream %u)", static_cast<ull>(offset),
                     format::ChunkTypeName(h.type), h.stream);
  };
  if (Checksum64(stored, h.stored_size) != h.payload_check)
    return InvalidArgument(where() + ": payload checksum mismatch");
  if (h.codec == format::Codec::kNone) {
    if (h.raw_size != h.stored_size)
      return InvalidArgument(where() + StrFormat(": raw size %u, stored size %u, not compressed",
                                                 h.raw_size, h.stored_size));
    *payload = stored;
    return Status::Ok();
  }
  if (h.codec != format::Codec::kZstd)
    return InvalidArgument(where() +
                           StrFormat(": codec %u unknown", static_cast<unsigned>(h.codec)));
  if (h.raw_size > format::kMaxChunkRawSize)
    return InvalidArgument(where() + StrFormat(": raw size %u is too large", h.raw_size));
  if (zstd_ == nullptr) zstd_ = ZSTD_createDCtx();
  if (scratch_.size() < h.raw_size) scratch_.resize(h.raw_size);
  const size_t n = ZSTD_decompressDCtx(zstd_, scratch_.data(), h.raw_size, stored, h.stored_size);
  if (ZSTD_isError(n)) return InvalidArgument(where() + ": zstd: " + ZSTD_getErrorName(n));
  if (n != h.raw_size)
    return InvalidArgument(where() +
                           StrFormat(": payload is %zu bytes, header says %u", n, h.raw_size));
  *payload = scratch_.data();
  return Status::Ok();
}

Status ChunkChecker::Check(const std::vector<uint8_t>& frame, uint64_t offset, CheckedChunk* out) {
  messages_.clear();
  *out = {};
  if (frame.size() < format::kChunkHeaderSize)
    return InvalidArgument(StrFormat("offset %llu: chunk header: %zu bytes, needs %zu",
                                     static_cast<ull>(offset), frame.size(),
                                     format::kChunkHeaderSize));
  format::ChunkHeader& h = out->header;
  if (const char* why = format::ParseChunkHeader(frame.data(), &h))
    return InvalidArgument(
        StrFormat("offset %llu: chunk header: %s", static_cast<ull>(offset), why));
  if (frame.size() != format::kChunkHeaderSize + uint64_t{h.stored_size})
    return InvalidArgument(StrFormat(
        "offset %llu: chunk header: stored size %u, the frame holds %zu", static_cast<ull>(offset),
        h.stored_size, frame.size() - format::kChunkHeaderSize));
  if (h.type != format::ChunkType::kDefs && h.type != format::ChunkType::kEvents)
    return InvalidArgument(StrFormat("offset %llu: chunk header: type %s is not sent live",
                                     static_cast<ull>(offset), format::ChunkTypeName(h.type)));
  const uint8_t* payload = nullptr;
  PLX_RETURN_IF_ERROR(DecodePayload(h, frame.data() + format::kChunkHeaderSize, offset, &payload));
  const uint8_t* end = payload + h.raw_size;
  const uint64_t body = offset + format::kChunkHeaderSize;
  format::DecodeError error;
  if (h.type == format::ChunkType::kDefs) {
    if (!defs_.Apply(payload, end, &error))
      return InvalidArgument(StrFormat("offset %llu: DEFS record (kind %u): field %s",
                                       static_cast<ull>(body + error.offset), error.kind,
                                       error.field ? error.field : "?"));
    clock_ = format::TickClock(defs_.clock, defs_.syncs);
    last_comm_ = {};
    return Status::Ok();
  }
  // EVENTS: record indices must go on where the stream's last chunk ended.
  uint64_t& next = next_index_[h.stream];
  if (h.first_index < next)
    return InvalidArgument(
        StrFormat("offset %llu: chunk header: first_index %llu, stream %u is "
                  "already at %llu (chunk repeated?)",
                  static_cast<ull>(offset), static_cast<ull>(h.first_index), h.stream,
                  static_cast<ull>(next)));
  const uint64_t self = rank() >= 0 ? static_cast<uint64_t>(rank()) : self_;
  MessageCollector v(*this, h.stream, self);
  if (!format::DecodeEvents(payload, end, h.tick_begin, v, &error)) {
    messages_.clear();
    return InvalidArgument(StrFormat("offset %llu: EVENTS record (kind %u, stream %u): field %s",
                                     static_cast<ull>(body + error.offset), error.kind, h.stream,
                                     error.field ? error.field : "?"));
  }
  if (v.records != h.record_count) {
    messages_.clear();
    return InvalidArgument(
        StrFormat("offset %llu: chunk header: record_count %u, the payload "
                  "holds %llu",
                  static_cast<ull>(offset), h.record_count, static_cast<ull>(v.records)));
  }
  out->missing = h.first_index - next;
  next = h.first_index + h.record_count;
  size_t hint = 0;
  out->begin_ns = clock_.ToNs(v.first, &hint);
  out->end_ns = clock_.ToNs(v.last, &hint);
  out->tally = std::move(v.tally);
  for (auto& [id, state] : v.ended) {
    const auto def = defs_.states.find(id);
    state.name = def != defs_.states.end() ? std::string(defs_.Str(def->second.name))
                                           : StrFormat("<undefined %llu>", static_cast<ull>(id));
    out->tally.states.push_back(std::move(state));
  }
  return Status::Ok();
}

void ChunkChecker::Unpack(std::vector<uint8_t>* frame, CheckedChunk* chunk) const {
  format::ChunkHeader& h = chunk->header;
  if (h.codec == format::Codec::kNone) return;
  // DecodePayload left the raw payload in scratch_.
  h.codec = format::Codec::kNone;
  h.stored_size = h.raw_size;
  h.payload_check = Checksum64(scratch_.data(), h.raw_size);
  frame->resize(format::kChunkHeaderSize + size_t{h.raw_size});
  format::EncodeChunkHeader(h, frame->data());
  std::memcpy(frame->data() + format::kChunkHeaderSize, scratch_.data(), h.raw_size);
}

}  // namespace plx::server::live
