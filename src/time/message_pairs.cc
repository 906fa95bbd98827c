// MatchMessages: one hash lookup per record gives its channel (a flat table); a counting sort
// groups rows by channel and side; each group is sorted in matching order and
// the two sides are zipped. Sends to any stream then pair with the receives
// left over.
#include "time/message_pairs.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "base/sort_runs.h"
#include "base/status.h"
#include "time/communicator_keys.h"

namespace plx::time {

namespace {

// What pairs: kind of identity, then four words whose meaning depends on it.
// Key classes 1 and 2 are CommKeyClass; 3 is a channel between streams.
constexpr uint64_t kStreams = 3;

constexpr uint32_t kNoChannel = model::kNone;

uint64_t HashKey(const ChannelKey& k) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t w : k) {
    h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
  }
  return h ^ (h >> 31);
}

// Channel numbers by key, in order of first appearance: open addressing with
// linear probing over a power-of-two table of numbers into `keys`, so a
// lookup touches one slot and one key, and nothing is allocated per channel
// (a trace may have a channel per message: a tag per job).
class ChannelNumbers {
 public:
  explicit ChannelNumbers(size_t expected) {
    size_t n = 64;
    while (n < 2 * expected)
      n *= 2;
    slots_.assign(n, kNoChannel);
  }
  uint32_t size() const { return static_cast<uint32_t>(keys_.size()); }

  /// The key's number; a new key gets the next one.
  uint32_t Find(const ChannelKey& key) {
    for (size_t i = HashKey(key) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const uint32_t c = slots_[i];
      if (c == kNoChannel) {
        slots_[i] = size();
        keys_.push_back(key);
        if (2 * keys_.size() > slots_.size()) Grow();
        return size() - 1;
      }
      if (keys_[c] == key) return c;
    }
  }

 private:
  void Grow() {
    slots_.assign(2 * slots_.size(), kNoChannel);
    for (uint32_t c = 0; c < size(); ++c) {
      size_t i = HashKey(keys_[c]) & (slots_.size() - 1);
      while (slots_[i] != kNoChannel)
        i = (i + 1) & (slots_.size() - 1);
      slots_[i] = c;
    }
  }

  std::vector<uint32_t> slots_;
  std::vector<ChannelKey> keys_;
};

// The channel of message row `row`, or false when it cannot be paired.
bool KeyOf(const ChannelContext& c, size_t row, ChannelKey* key) {
  const model::MessageTable& m = c.trace.messages;
  uint32_t receiver = 0;
  return ChannelOf(c, m.thread[row], m.is_send[row] != 0, m.comm[row], m.peer[row], m.tag[row], key,
                   &receiver);
}

// Sends between streams to "whoever takes it" (peer -1: a work queue) pair
// with the receives left unmatched that name their sender, communicator and
// tag: per (process, sender stream, communicator, tag), k-th with k-th in
// time order.
void PairAnyPeerSends(const model::Trace& trace, MessagePairs* out) {
  const model::MessageTable& m = trace.messages;
  const auto streams = [&](uint32_t row) {
    const uint32_t comm = m.comm[row];
    return comm != model::kNone && comm < trace.communicators.size() &&
           trace.communicators[comm].kind == 1;
  };
  struct Side {
    std::array<uint64_t, 4> channel;  // process, sender stream, communicator, tag
    int64_t time;
    uint32_t row;
    bool operator<(const Side& o) const {
      return std::tie(channel, time, row) < std::tie(o.channel, o.time, o.row);
    }
  };
  std::vector<Side> sends, recvs;
  for (uint32_t row : out->unmatched_sends) {
    if (m.peer[row] >= 0 || !streams(row)) continue;
    const model::Thread& t = trace.threads[m.thread[row]];
    sends.push_back({{t.process, t.file_stream, m.comm[row], static_cast<uint64_t>(m.tag[row])},
                     m.time[row],
                     row});
  }
  if (sends.empty()) return;
  for (uint32_t row : out->unmatched_recvs) {
    if (m.peer[row] < 0 || !streams(row)) continue;
    const model::Thread& t = trace.threads[m.thread[row]];
    recvs.push_back({{t.process, static_cast<uint64_t>(m.peer[row]), m.comm[row],
                      static_cast<uint64_t>(m.tag[row])},
                     m.time[row],
                     row});
  }
  // In row order: a thread's sends are mostly in channel order already.
  SortRuns(sends.begin(), sends.end());
  SortRuns(recvs.begin(), recvs.end());
  std::vector<uint8_t> paired_send(m.size(), 0), paired_recv(m.size(), 0);
  size_t paired = 0;
  for (size_t s = 0, r = 0; s < sends.size() && r < recvs.size();) {
    if (sends[s].channel < recvs[r].channel) {
      ++s;
    } else if (recvs[r].channel < sends[s].channel) {
      ++r;
    } else {  // the same channel: zip its runs
      out->pairs.push_back({sends[s].row, recvs[r].row});
      paired_send[sends[s++].row] = 1;
      paired_recv[recvs[r++].row] = 1;
      ++paired;
    }
  }
  if (paired == 0) return;
  std::erase_if(out->unmatched_sends, [&](uint32_t row) { return paired_send[row] != 0; });
  std::erase_if(out->unmatched_recvs, [&](uint32_t row) { return paired_recv[row] != 0; });
}

}  // namespace

ChannelContext::ChannelContext(const model::Trace& t)
    : trace(t), by_rank(ProcessesByRank(t)), identities(CommunicatorKeys(t)) {}

bool ChannelOf(const ChannelContext& c, uint32_t thread_index, bool send, uint32_t comm,
               int64_t peer, int64_t tag, ChannelKey* key, uint32_t* receiver) {
  const model::Trace& trace = c.trace;
  if (comm == model::kNone || comm >= trace.communicators.size() || peer < 0) return false;
  const model::Thread& thread = trace.threads[thread_index];
  const model::Communicator& com = trace.communicators[comm];
  const auto t = static_cast<uint64_t>(tag);
  if (com.kind == 1) {
    const uint64_t self = thread.file_stream, other = static_cast<uint64_t>(peer);
    *key = {kStreams, thread.process, send ? self : other, send ? other : self, t};
    *receiver = thread.process;
    return true;
  }
  auto it = c.by_rank.find(peer);
  if (it == c.by_rank.end()) return false;
  const uint64_t self = thread.process, other = it->second;
  *key = {static_cast<uint64_t>(c.identities[comm].first), send ? self : other, send ? other : self,
          c.identities[comm].second, t};
  *receiver = static_cast<uint32_t>(send ? other : self);
  return true;
}

MessagePairs MatchMessages(const model::Trace& trace) {
  const model::MessageTable& m = trace.messages;
  const size_t rows = m.size();
  PLX_CHECK(rows <= kNoChannel);  // rows are uint32_t
  MessagePairs out;

  // Channel of every row; a channel's sends are group 2c, its receives 2c + 1.
  const ChannelContext context(trace);
  ChannelNumbers channels(rows / 8);
  std::vector<uint32_t> group(rows, kNoChannel);
  ChannelKey key, last_key{};
  uint32_t last_channel = kNoChannel;
  for (size_t i = 0; i < rows; ++i) {
    if (!KeyOf(context, i, &key)) {
      (m.is_send[i] ? out.unmatched_sends : out.unmatched_recvs)
          .push_back(static_cast<uint32_t>(i));
      continue;
    }
    // Consecutive rows of a thread mostly share a channel: skip the lookup then.
    if (last_channel == kNoChannel || key != last_key) {
      last_channel = channels.Find(key);
      last_key = key;
    }
    group[i] = 2 * last_channel + (m.is_send[i] ? 0 : 1);
  }

  // The rows by group, in row order within each group; rows without a
  // channel go to one more group after the others, left alone.
  const size_t groups = 2 * size_t{channels.size()};
  std::vector<uint32_t> start;
  std::vector<uint32_t> sorted = CountingOrder(
      rows, groups + 1, [&](size_t i) { return group[i] == kNoChannel ? groups : group[i]; },
      &start);

  // Matching order: the recorded sequence, then time, then row.
  auto before = [&m](uint32_t a, uint32_t b) {
    if (m.match[a] != m.match[b]) return m.match[a] < m.match[b];
    if (m.time[a] != m.time[b]) return m.time[a] < m.time[b];
    return a < b;
  };
  out.pairs.reserve(rows / 2);
  for (size_t c = 0; 2 * c < groups; ++c) {
    const auto sends = sorted.begin() + static_cast<ptrdiff_t>(start[2 * c]);
    const auto recvs = sorted.begin() + static_cast<ptrdiff_t>(start[2 * c + 1]);
    const auto end = sorted.begin() + static_cast<ptrdiff_t>(start[2 * c + 2]);
    SortRuns(sends, recvs, before);
    SortRuns(recvs, end, before);
    const ptrdiff_t n = std::min(recvs - sends, end - recvs);
    for (ptrdiff_t k = 0; k < n; ++k)
      out.pairs.push_back({sends[k], recvs[k]});
    out.unmatched_sends.insert(out.unmatched_sends.end(), sends + n, recvs);
    out.unmatched_recvs.insert(out.unmatched_recvs.end(), recvs + n, end);
  }

  PairAnyPeerSends(trace, &out);

  SortRuns(out.pairs.begin(), out.pairs.end(),
           [](const MessagePair& a, const MessagePair& b) { return a.send < b.send; });
  SortRuns(out.unmatched_sends.begin(), out.unmatched_sends.end());
  SortRuns(out.unmatched_recvs.begin(), out.unmatched_recvs.end());
  return out;
}

}  // namespace plx::time
