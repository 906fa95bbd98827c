// Checking one CHUNK frame of a live connection: header, payload checksum,
// decompression and record decoding, with the connection's definitions kept
// up to date from its DEFS chunks. An EVENTS chunk's sends and receives come
// out as message keys for the consistent-run builder (docs/live.md).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "format/definitions.h"
#include "format/layout.h"
#include "format/tick_clock.h"
#include "server/api/live_tally.h"

struct ZSTD_DCtx_s;

namespace plx::server::live {

/// A send or receive of an EVENTS chunk, in record order. `key` names the
/// message: its channel (sender, receiver, communicator, tag) and the n-th
/// message on that channel, counted on each side in record order.
struct MessageEvent {
  bool send = false;
  uint64_t key = 0;
};

struct CheckedChunk {
  format::ChunkHeader header;
  int64_t begin_ns = 0;  // EVENTS: first and last record, the connection's CLOCK_MONOTONIC ns
  int64_t end_ns = 0;
  uint64_t missing = 0;  // records left out of the stream before this chunk
  ChunkTally tally;      // EVENTS: for when the history window drops it
};

class ChunkChecker {
 public:
  /// `self` (the connection's number, in order of arrival) answers for this
  /// process as a message peer while it has no rank, as the merged file
  /// numbers such processes, and names its thread-to-thread channels.
  explicit ChunkChecker(uint32_t self);
  ~ChunkChecker();
  ChunkChecker(const ChunkChecker&) = delete;
  ChunkChecker& operator=(const ChunkChecker&) = delete;

  /// Checks the payload of a CHUNK frame (64-byte chunk header, stored
  /// payload) found at connection offset `offset`. DEFS chunks update defs();
  /// for EVENTS chunks messages() holds their sends and receives afterwards.
  /// Errors are one line: "offset N: <what>: <why>".
  Status Check(const std::vector<uint8_t>& frame, uint64_t offset, CheckedChunk* out);

  /// After a successful Check of a compressed chunk: makes `frame` the same
  /// chunk stored uncompressed (header encoded again: codec none, stored size
  /// = raw size, the raw bytes' payload checksum) and `chunk`'s header match.
  /// Snapshots, which decode every chunk of the window each time, then need
  /// not decompress them again. An uncompressed chunk is left as it is.
  void Unpack(std::vector<uint8_t>* frame, CheckedChunk* chunk) const;

  const std::vector<MessageEvent>& messages() const { return messages_; }
  const format::ProcessDefs& defs() const { return defs_; }
  /// The MPI world rank from the definitions, -1 until known.
  int64_t rank() const { return defs_.process ? defs_.process->rank : -1; }
  const format::TickClock& clock() const { return clock_; }

 private:
  using Channel = std::array<uint64_t, 6>;  // class, identity, sender, receiver, tag, side
  struct ChannelHash {
    size_t operator()(const Channel& c) const;
  };
  struct CommInfo {
    uint64_t id = 0;
    bool valid = false;
    bool streams = false;  // kind 1: peers are stream ids
    uint64_t cls = 0, identity = 0;
  };

  Status DecodePayload(const format::ChunkHeader& h, const uint8_t* stored, uint64_t offset,
                       const uint8_t** payload);
  const CommInfo& Comm(uint64_t id);
  friend struct MessageCollector;
  struct Open {
    uint64_t state;
    int64_t ns;
  };

  uint32_t self_;
  format::ProcessDefs defs_;
  format::TickClock clock_;
  CommInfo last_comm_;
  std::unordered_map<Channel, uint64_t, ChannelHash> counts_;
  std::unordered_map<uint32_t, uint64_t> next_index_;  // per stream
  std::unordered_set<uint64_t> anonymous_;             // thread communicators with peer -1 sends
  std::vector<MessageEvent> messages_;
  std::unordered_map<uint32_t, std::vector<Open>> open_;  // per stream: entered, not left
  std::vector<uint8_t> scratch_;
  ZSTD_DCtx_s* zstd_ = nullptr;
};

}  // namespace plx::server::live
