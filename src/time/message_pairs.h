// Message matching: pairs the send and receive records of Trace::messages into
// messages, per channel the k-th send with the k-th receive in MPI matching
// order (the `match` sequence where recorded, else time).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "time/communicator_keys.h"

namespace plx::time {

/// One message: rows in Trace::messages.
struct MessagePair {
  uint32_t send = 0;
  uint32_t recv = 0;
};

struct MessagePairs {
  std::vector<MessagePair> pairs;         // sorted by send row
  std::vector<uint32_t> unmatched_sends;  // rows, ascending
  std::vector<uint32_t> unmatched_recvs;  // rows, ascending
};

/// Pairs every send with its receive. A channel is, for communicators of kind
/// 0 (peers are world ranks), (sender process, receiver process, communicator,
/// tag), where the communicator is its global id (MPI), or without one (global
/// id 0: plx_comm_define, the built-in "world") its name; for kind 1 (peers
/// are streams) (process, sender stream, receiver stream, tag). Within a
/// channel sends and receives are ordered by (match, time, row) and paired
/// k-th with k-th. A send between streams to no particular peer (-1, a work
/// queue) then pairs with the receives left unmatched that name its stream as
/// their sender, on its communicator with its tag: k-th with k-th in time
/// order (exact when each such channel carries one message, as with a tag per
/// job). Other records on an undefined communicator, with a negative peer or
/// a peer no process has, stay unmatched.
MessagePairs MatchMessages(const model::Trace& trace);

/// The channel a message record travels on, as MatchMessages pairs them:
/// a kind of identity, then four words whose meaning depends on it.
using ChannelKey = std::array<uint64_t, 5>;

/// What a channel key needs to know about a trace, made once.
struct ChannelContext {
  explicit ChannelContext(const model::Trace& trace);
  const model::Trace& trace;
  std::unordered_map<int64_t, uint32_t> by_rank;              // ProcessesByRank
  std::vector<std::pair<CommKeyClass, uint64_t>> identities;  // CommunicatorKeys
};

/// The channel of a message record of `thread` (a send or a receive on
/// `comm` with `peer` and `tag`); false when it cannot be paired by channel
/// (undefined communicator, negative peer, a peer no process has). The
/// receiving process of a channel is `*receiver`.
bool ChannelOf(const ChannelContext& c, uint32_t thread, bool send, uint32_t comm, int64_t peer,
               int64_t tag, ChannelKey* key, uint32_t* receiver);

}  // namespace plx::time
