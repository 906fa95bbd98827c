// RunMessagePass: per slab, the records are sorted into partitions by the
// process that receives them (threads in parallel), then every partition's
// join takes its posts and messages and pairs what is past its horizon.
#include "store/message_pass.h"

#include <algorithm>

#include "time/message_pairs.h"

namespace plx::store {

namespace {

// One attempt; false when a join's horizon was exceeded.
bool Attempt(const TraceStore& store, int64_t horizon,
             std::vector<std::unique_ptr<MessageConsumer>>* consumers,
             const MessagePassOptions& options,
             const std::function<void(uint64_t, uint64_t)>& progress) {
  const model::Trace& trace = store.trace();
  const size_t parts = consumers->size();
  const uint32_t threads = store.threads();
  std::vector<std::unique_ptr<MessageJoin>> joins;
  for (size_t p = 0; p < parts; ++p)
    joins.push_back(std::make_unique<MessageJoin>(trace, horizon));
  const time::ChannelContext context(trace);
  // Per thread, per partition: indices of the slab's messages and posts.
  std::vector<std::vector<std::vector<uint32_t>>> messages(threads), posts(threads);
  const auto own = [&](uint32_t thread) { return trace.threads[thread].process % parts; };
  if (options.begin_attempt) options.begin_attempt(horizon);
  bool in_order = true;

  RunLockstep(
      store, options.slab_records,
      [&](const Slab& slab) {
        store.pool()->ParallelFor(threads, [&](size_t t) {
          // Cleared, not made anew: their room is reused slab after slab.
          messages[t].resize(parts);
          posts[t].resize(parts);
          for (size_t p = 0; p < parts; ++p) {
            messages[t][p].clear();
            posts[t][p].clear();
          }
          const std::vector<MessageSide>& ms = slab.messages[t];
          for (uint32_t i = 0; i < ms.size(); ++i) {
            time::ChannelKey key;
            uint32_t receiver = 0;
            const MessageSide& m = ms[i];
            const size_t p =
                time::ChannelOf(context, m.thread, m.send, m.comm, m.peer, m.tag, &key, &receiver)
                    ? receiver % parts
                    : own(m.thread);
            messages[t][p].push_back(i);
          }
          const std::vector<PostSide>& ps = slab.posts[t];
          for (uint32_t i = 0; i < ps.size(); ++i)
            posts[t][own(ps[i].thread)].push_back(i);
        });
        store.pool()->ParallelFor(parts, [&](size_t p) {
          MessageJoin& join = *joins[p];
          MessageConsumer& consumer = *(*consumers)[p];
          for (uint32_t t = 0; t < threads; ++t)
            for (uint32_t i : posts[t][p])
              join.AddPost(slab.posts[t][i]);
          for (uint32_t t = 0; t < threads; ++t)
            for (uint32_t i : messages[t][p]) {
              consumer.Message(slab.messages[t][i]);
              join.Add(slab.messages[t][i]);
            }
          join.Advance(slab.until, [&](const MessageSide& s, const MessageSide& r, bool has,
                                       int64_t post) { consumer.Pair(s, r, has, post); });
          consumer.Frontier(slab.until);
        });
        if (options.after_slab && in_order) in_order = options.after_slab(slab);
        // Out of order: this attempt is lost, the next starts now.
        for (const auto& j : joins)
          in_order &= !j->horizon_exceeded();
        return in_order;
      },
      progress, options.maps, options.visits);

  bool exceeded = !in_order;
  for (const auto& j : joins)
    exceeded |= j->horizon_exceeded();
  if (exceeded) return false;
  store.pool()->ParallelFor(parts, [&](size_t p) {
    MessageConsumer& consumer = *(*consumers)[p];
    joins[p]->Finish([&](const MessageSide& s, const MessageSide& r, bool has,
                         int64_t post) { consumer.Pair(s, r, has, post); },
                     [&](const MessageSide& m) { consumer.Unmatched(m); });
    consumer.Frontier(std::numeric_limits<int64_t>::max());
  });
  return !options.end_attempt || options.end_attempt();
}

}  // namespace

std::vector<std::unique_ptr<MessageConsumer>> RunMessagePass(
    const TraceStore& store, const std::function<std::unique_ptr<MessageConsumer>(size_t)>& make,
    const MessagePassOptions& options, const std::function<void(uint64_t, uint64_t)>& progress) {
  const model::Trace& trace = store.trace();
  const int64_t span = std::max<int64_t>(trace.end_ns - trace.begin_ns, 1);
  const size_t parts = store.pool()->size();
  constexpr int64_t kWhole = std::numeric_limits<int64_t>::max() / 4;
  // Records held grow with the horizon: start from two slabs' time (at
  // least 1 ms), which is far more than calls usually keep records out of
  // order, and no more than asked.
  const int64_t slab = std::min(SlabStep(store, options.slab_records), kWhole);
  const int64_t first = std::min(options.horizon_ns, std::max<int64_t>(2 * slab, 1'000'000));
  for (int64_t horizon = std::min(first, span);;
       horizon = horizon > span / 16 ? kWhole : horizon * 16) {
    // Past the trace's span nothing is released before the end: the pass is
    // exact, and the last attempt.
    if (horizon >= span) horizon = kWhole;
    std::vector<std::unique_ptr<MessageConsumer>> consumers;
    for (size_t p = 0; p < parts; ++p)
      consumers.push_back(make(p));
    if (Attempt(store, horizon, &consumers, options, progress) || horizon == kWhole)
      return consumers;
  }
}

}  // namespace plx::store
