// What the logical-time (Lamport, space-time) view shows of a time range: the
// slices overlapping it and the matched messages with a record in it, chosen
// per row through a ReplayIndex; the API places them on Lamport clocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "server/timeline/replay_index.h"
#include "time/message_pairs.h"

namespace plx::server {

struct LamportWindow {
  std::vector<uint32_t> slices;             // in (begin, id) order
  std::vector<time::MessagePair> messages;  // in (send time, send record) order
  bool truncated = false;                   // more than `limit` slices or messages
};

/// The slices of `rows` (all when empty; each < index.rows()) overlapping
/// [from, to] (begin <= to and end >= from), and the matched messages sent or
/// received in [from, to] with their send or receive in those rows, at most
/// `limit` of each: the slices beginning first, the messages whose first record
/// in the range (in those rows) comes first. O((limit + rows * depth) * log n).
LamportWindow SelectLamportWindow(const ReplayIndex& index, int64_t from, int64_t to,
                                  const std::vector<uint32_t>& rows, size_t limit);

}  // namespace plx::server
