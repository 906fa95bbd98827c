// MessageJoin: a hash table of channels, each with a sorted queue and a
// queue of released records per side; the queues' fronts pair.
#include "store/message_join.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace plx::store {

namespace {

// Channels forgotten once idle for this many horizons.
constexpr int64_t kIdleHorizons = 4;

}  // namespace

bool MessageJoin::Key::operator<(const Key& o) const {
  return std::tie(match, time, row) < std::tie(o.match, o.time, o.row);
}

size_t MessageJoin::KeyHash::operator()(const time::ChannelKey& k) const {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t w : k) {
    h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
  }
  return static_cast<size_t>(h ^ (h >> 31));
}

MessageJoin::MessageJoin(const model::Trace& trace, int64_t horizon_ns)
    : trace_(trace),
      context_(trace),
      horizon_(std::max<int64_t>(horizon_ns, 0)),
      recent_(kRecent) {}

MessageJoin::~MessageJoin() = default;

void MessageJoin::AddPost(const PostSide& post) {
  if (post.match == 0) return;  // a probe matches no receive
  const PostKey key{trace_.threads[post.thread].process, post.match};
  auto [it, inserted] = posts_.try_emplace(key, post.time);
  if (!inserted) it->second = std::min(it->second, post.time);
}

bool MessageJoin::PostOf(const MessageSide& recv, int64_t* time) {
  if (recv.match == 0) return false;
  auto it = posts_.find({trace_.threads[recv.thread].process, recv.match});
  if (it == posts_.end()) return false;
  *time = it->second;
  posts_.erase(it);
  return true;
}

MessageJoin::Channel* MessageJoin::ChannelFor(const MessageSide& m) {
  uint64_t h = (uint64_t{m.thread} << 32 | m.comm) * 0x9e3779b97f4a7c15ull;
  h ^= (static_cast<uint64_t>(m.peer) + (static_cast<uint64_t>(m.tag) << 20) + m.send) *
       0xbf58476d1ce4e5b9ull;
  Recent& r = recent_[(h ^ (h >> 29)) % kRecent];
  if (r.channel != nullptr && r.thread == m.thread && r.comm == m.comm && r.peer == m.peer &&
      r.tag == m.tag && r.send == m.send)
    return r.channel;
  time::ChannelKey key;
  uint32_t receiver = 0;
  if (!time::ChannelOf(context_, m.thread, m.send, m.comm, m.peer, m.tag, &key, &receiver))
    return nullptr;
  std::unique_ptr<Channel>& slot = channels_[key];
  if (slot == nullptr) {
    slot = std::make_unique<Channel>();
    slot->key = key;
  }
  r = {m.thread, m.comm, m.peer, m.tag, m.send, slot.get()};
  return slot.get();
}

void MessageJoin::Add(const MessageSide& m) {
  Channel* channel = ChannelFor(m);
  if (channel == nullptr) {
    unmatched_.push_back(m);
    return;
  }
  Channel& c = *channel;
  Side& side = c.sides[m.send ? 0 : 1];
  const Key k{m.match, m.time, m.row};
  // Behind a record already released: the pairing so far may be wrong.
  if (side.any && k < side.last) exceeded_ = true;
  const auto key_of = [](const MessageSide& x) { return Key{x.match, x.time, x.row}; };
  RingQueue<MessageSide>& queue = side.queue;
  if (queue.size() == side.released || !(k < key_of(queue.back()))) {
    queue.push_back(m);
  } else {
    // After the last record not after it, among those not released yet
    // (one behind the released ones already broke the order above).
    size_t lo = side.released, hi = queue.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (k < key_of(queue[mid]))
        hi = mid;
      else
        lo = mid + 1;
    }
    queue.insert(lo, m);
  }
  c.active = std::max(c.active, m.time);
  ++held_;
  if (!c.listed) {
    c.listed = true;
    active_.push_back(&c);
  }
}

void MessageJoin::Pair(Channel* c, const PairFn& on_pair) {
  Side& sends = c->sides[0];
  Side& recvs = c->sides[1];
  while (sends.released > 0 && recvs.released > 0) {
    int64_t post = 0;
    const bool has_post = PostOf(recvs.queue.front(), &post);
    on_pair(sends.queue.front(), recvs.queue.front(), has_post, post);
    sends.queue.pop_front();
    recvs.queue.pop_front();
    --sends.released;
    --recvs.released;
    held_ -= 2;
  }
}

void MessageJoin::Release(Channel* c, int64_t until, const PairFn& on_pair) {
  for (Side& side : c->sides) {
    const size_t before = side.released;
    while (side.released < side.queue.size() && side.queue[side.released].time < until)
      ++side.released;
    if (side.released != before) {
      const MessageSide& m = side.queue[side.released - 1];
      side.last = {m.match, m.time, m.row};
      side.any = true;
    }
  }
  Pair(c, on_pair);
}

void MessageJoin::Advance(int64_t frontier, const PairFn& on_pair) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t until = frontier < kMin + horizon_ ? kMin : frontier - horizon_;
  // How long a channel must have been idle to be forgotten (never, with a
  // horizon as long as a trace).
  const int64_t idle = horizon_ > std::numeric_limits<int64_t>::max() / (2 * kIdleHorizons)
                           ? std::numeric_limits<int64_t>::max()
                           : kIdleHorizons * horizon_;
  const bool forget = until > kMin + idle;
  bool erased = false;
  std::vector<Channel*> still;
  for (Channel* c : active_) {
    Release(c, until, on_pair);
    const bool empty = c->sides[0].queue.empty() && c->sides[1].queue.empty();
    if (!empty) {
      still.push_back(c);
      continue;
    }
    c->listed = false;
    // Forgotten once idle long enough that nothing can arrive behind it.
    if (forget && c->active < until - idle) {
      channels_.erase(c->key);
      erased = true;
    }
  }
  active_ = std::move(still);
  // Channels left unlisted and idle are dropped now and then.
  if (forget && (forgotten_ == kMin || until - forgotten_ > idle) &&
      channels_.size() > 4 * active_.size() + 1024) {
    for (auto it = channels_.begin(); it != channels_.end();) {
      const bool drop = !it->second->listed && it->second->active < until - idle;
      erased = erased || drop;
      it = drop ? channels_.erase(it) : std::next(it);
    }
    forgotten_ = until;
  }
  if (erased) std::fill(recent_.begin(), recent_.end(), Recent());
}

void MessageJoin::Finish(const PairFn& on_pair,
                         const std::function<void(const MessageSide&)>& on_unmatched) {
  std::vector<MessageSide> left = std::move(unmatched_);
  for (Channel* c : active_) {
    Release(c, std::numeric_limits<int64_t>::max(), on_pair);
    for (Side& side : c->sides)
      for (size_t i = 0; i < side.queue.size(); ++i)
        left.push_back(side.queue[i]);
  }
  active_.clear();
  channels_.clear();
  std::fill(recent_.begin(), recent_.end(), Recent());
  held_ = 0;

  // Sends between streams to whichever stream takes them (peer -1) pair with
  // the receives left over that name their sender: per (process, sender
  // stream, communicator, tag), k-th with k-th in time order.
  const auto streams = [&](const MessageSide& m) {
    return m.comm != model::kNone && m.comm < trace_.communicators.size() &&
           trace_.communicators[m.comm].kind == 1;
  };
  using AnyKey = std::tuple<uint32_t, uint64_t, uint32_t, int64_t, int64_t, uint32_t>;
  std::vector<std::pair<AnyKey, size_t>> sends, recvs;
  for (size_t i = 0; i < left.size(); ++i) {
    const MessageSide& m = left[i];
    if (!streams(m)) continue;
    const model::Thread& t = trace_.threads[m.thread];
    if (m.send && m.peer < 0)
      sends.push_back({{t.process, t.file_stream, m.comm, m.tag, m.time, m.row}, i});
    else if (!m.send && m.peer >= 0)
      recvs.push_back(
          {{t.process, static_cast<uint64_t>(m.peer), m.comm, m.tag, m.time, m.row}, i});
  }
  std::vector<uint8_t> paired(left.size(), 0);
  if (!sends.empty() && !recvs.empty()) {
    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());
    const auto channel = [](const AnyKey& k) {
      return std::make_tuple(std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<3>(k));
    };
    for (size_t s = 0, r = 0; s < sends.size() && r < recvs.size();) {
      if (channel(sends[s].first) < channel(recvs[r].first)) {
        ++s;
      } else if (channel(recvs[r].first) < channel(sends[s].first)) {
        ++r;
      } else {
        const MessageSide& recv = left[recvs[r].second];
        int64_t post = 0;
        const bool has_post = PostOf(recv, &post);
        on_pair(left[sends[s].second], recv, has_post, post);
        paired[sends[s++].second] = 1;
        paired[recvs[r++].second] = 1;
      }
    }
  }
  std::vector<const MessageSide*> rest;
  for (size_t i = 0; i < left.size(); ++i)
    if (!paired[i]) rest.push_back(&left[i]);
  std::sort(rest.begin(), rest.end(), [](const MessageSide* a, const MessageSide* b) {
    return a->send != b->send ? a->send : a->row < b->row;
  });
  for (const MessageSide* m : rest)
    on_unmatched(*m);
}

}  // namespace plx::store
