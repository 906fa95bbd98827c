// Message matching: pairs the send and receive records of Trace::messages into
// messages, per channel the k-th send with the k-th receive in MPI matching
// order (the `match` sequence where recorded, else time).
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

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

}  // namespace plx::time
