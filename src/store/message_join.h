// MessageJoin: pairs message records as time::MatchMessages does — per
// channel, the k-th send in (match, time, row) order with the k-th receive
// in that order, then sends to any stream with the receives left over —
// from records that arrive in time order (a lockstep pass), holding only
// what is in flight.
//
// A channel side's records may arrive out of their matching order (a
// receive posted early completes late); each side keeps its records sorted
// and releases its smallest once the pass is `horizon_ns` past it. A
// record that arrives behind one already released breaks the order:
// horizon_exceeded() tells, and the caller runs the pass again with a
// longer horizon (docs/memory.md). Channels idle for a few horizons are
// forgotten.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/ring_queue.h"
#include "store/record_sides.h"
#include "time/message_pairs.h"

namespace plx::store {

class MessageJoin {
 public:
  /// A pair: the send, the receive, and when the receive was posted
  /// (has_post false when no recv_post record names it).
  using PairFn = std::function<void(const MessageSide& send, const MessageSide& recv, bool has_post,
                                    int64_t post_time)>;

  MessageJoin(const model::Trace& trace, int64_t horizon_ns);
  ~MessageJoin();

  /// A slab's records: its posts first, then its messages.
  void AddPost(const PostSide& post);
  void Add(const MessageSide& message);
  /// Releases and pairs what is `horizon_ns` behind `frontier` (the time up
  /// to which every record has been added).
  void Advance(int64_t frontier, const PairFn& on_pair);
  /// Every record was added: pairs all that is left, then the sends to any
  /// stream, and reports the records left without a partner, sends first,
  /// each kind by row.
  void Finish(const PairFn& on_pair, const std::function<void(const MessageSide&)>& on_unmatched);

  bool horizon_exceeded() const { return exceeded_; }
  /// Records held now (for tests and memory accounting).
  size_t held() const { return held_; }

 private:
  struct Key {
    uint64_t match;
    int64_t time;
    uint32_t row;
    bool operator<(const Key& o) const;
  };
  // A side's records by key (nearly always arriving in order: appended);
  // the first `released` of them are released, in order, and wait for a
  // partner; the rest are not released yet.
  struct Side {
    RingQueue<MessageSide> queue;
    size_t released = 0;
    Key last{0, INT64_MIN, 0};
    bool any = false;  // something was released
  };
  struct Channel {
    time::ChannelKey key;
    Side sides[2];  // 0 sends, 1 receives
    int64_t active = 0;
    bool listed = false;
  };
  // The channel of a record's (thread, direction, communicator, peer, tag),
  // remembered: most records go to a thread's few channels, and finding one
  // (the peer's process, then the key in channels_) costs more than pairing.
  struct Recent {
    uint32_t thread = 0, comm = 0;
    int64_t peer = 0, tag = 0;
    bool send = false;
    Channel* channel = nullptr;  // null: empty
  };
  static constexpr size_t kRecent = 4096;
  Channel* ChannelFor(const MessageSide& m);
  struct KeyHash {
    size_t operator()(const time::ChannelKey& k) const;
  };

  void Release(Channel* c, int64_t until, const PairFn& on_pair);
  void Pair(Channel* c, const PairFn& on_pair);
  bool PostOf(const MessageSide& recv, int64_t* time);

  const model::Trace& trace_;
  time::ChannelContext context_;
  int64_t horizon_;
  std::unordered_map<time::ChannelKey, std::unique_ptr<Channel>, KeyHash> channels_;
  std::vector<Channel*> active_;  // channels with records held
  std::vector<Recent> recent_;    // kRecent, by a hash of what names a channel
  std::unordered_map<PostKey, int64_t, PostHash> posts_;  // -> earliest post
  std::vector<MessageSide> unmatched_;                    // records no channel takes
  bool exceeded_ = false;
  size_t held_ = 0;
  int64_t forgotten_ = INT64_MIN;  // channels idle since before this are dropped
};

}  // namespace plx::store
