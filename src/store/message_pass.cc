// RunMessagePass: per slab, the records are sorted into partitions by the
// process that receives them (threads in parallel), then every partition's
// join takes its posts and messages and pairs what is past its horizon.
// Spread over processes, a slab's records first go to the process that
// joins them: each process sends every other the records of its threads,
// thread by thread, so each thread's records arrive in their order.
#include "store/message_pass.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "base/wire.h"
#include "time/message_pairs.h"

namespace plx::store {

namespace {

static_assert(std::is_trivially_copyable_v<MessageSide>);
static_assert(std::is_trivially_copyable_v<PostSide>);

// The key a record is joined under: the receiving process's index for a
// message of a channel, else its own thread's process.
uint32_t JoinKey(const time::ChannelContext& context, const model::Trace& trace,
                 const MessageSide& m) {
  time::ChannelKey key;
  uint32_t receiver = 0;
  return time::ChannelOf(context, m.thread, m.send, m.comm, m.peer, m.tag, &key, &receiver)
             ? receiver
             : trace.threads[m.thread].process;
}

// Per destination process: the count, then the records.
template <typename Side>
void PutSides(const std::vector<Side>& sides, std::string* out) {
  WirePut(out, uint64_t{sides.size()});
  out->append(reinterpret_cast<const char*>(sides.data()), sides.size() * sizeof(Side));
}

template <typename Side>
void GetSides(WireReader* in, uint32_t threads, std::vector<std::vector<Side>>* by_thread) {
  uint64_t n = 0;
  if (!in->Get(&n)) return;
  for (uint64_t i = 0; i < n; ++i) {
    Side side;
    if (!in->Get(&side)) return;
    if (side.thread < threads) (*by_thread)[side.thread].push_back(side);
  }
}

// Sends each record of `decoded` (this process's threads) to the process
// that joins it and fills `joined` with what every process sent here.
void Route(const TraceStore& store, const time::ChannelContext& context, PassSpread* spread,
           const Slab& decoded, Slab* joined) {
  const model::Trace& trace = store.trace();
  const uint32_t threads = store.threads();
  const auto procs = static_cast<size_t>(spread->size());
  std::vector<std::vector<MessageSide>> messages(procs);
  std::vector<std::vector<PostSide>> posts(procs);
  for (uint32_t t = 0; t < threads; ++t) {
    for (const MessageSide& m : decoded.messages[t])
      messages[JoinKey(context, trace, m) % procs].push_back(m);
    for (const PostSide& p : decoded.posts[t])
      posts[trace.threads[p.thread].process % procs].push_back(p);
  }
  std::vector<std::string> to(procs);
  for (size_t r = 0; r < procs; ++r) {
    PutSides(messages[r], &to[r]);
    PutSides(posts[r], &to[r]);
  }
  joined->until = decoded.until;
  joined->messages.resize(threads);
  joined->posts.resize(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    joined->messages[t].clear();
    joined->posts[t].clear();
  }
  // By rank: a thread belongs to one process, so its records stay in order.
  for (const std::string& from : spread->Exchange(std::move(to))) {
    WireReader in(from);
    GetSides(&in, threads, &joined->messages);
    GetSides(&in, threads, &joined->posts);
  }
}

// Spread over N processes, a slab holds N times the records: each process
// still decodes and sends about slab_records of them per slab, and the
// steps per pass do not grow with N.
uint64_t SlabRecords(const MessagePassOptions& options) {
  const auto procs = static_cast<uint64_t>(options.spread != nullptr ? options.spread->size() : 1);
  return options.slab_records * procs;
}

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
  // Spread, this process joins the keys k with k % processes == rank;
  // its partitions divide those by k / processes.
  PassSpread* spread = options.spread;
  const size_t procs = spread != nullptr ? static_cast<size_t>(spread->size()) : 1;
  const auto part = [&](uint32_t key) { return key / procs % parts; };
  const auto own = [&](uint32_t thread) { return part(trace.threads[thread].process); };
  std::function<bool(uint32_t)> decodes;
  if (spread != nullptr) decodes = [spread](uint32_t t) { return spread->Decodes(t); };
  Slab joined;
  if (options.begin_attempt) options.begin_attempt(horizon);
  bool in_order = true;

  RunLockstep(
      store, SlabRecords(options),
      [&](const Slab& decoded) {
        if (spread != nullptr) Route(store, context, spread, decoded, &joined);
        const Slab& slab = spread != nullptr ? joined : decoded;
        store.pool()->ParallelFor(threads, [&](size_t t) {
          // Cleared, not made anew: their room is reused slab after slab.
          messages[t].resize(parts);
          posts[t].resize(parts);
          for (size_t p = 0; p < parts; ++p) {
            messages[t][p].clear();
            posts[t][p].clear();
          }
          const std::vector<MessageSide>& ms = slab.messages[t];
          for (uint32_t i = 0; i < ms.size(); ++i)
            messages[t][part(JoinKey(context, trace, ms[i]))].push_back(i);
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
        if (options.after_slab && in_order) in_order = options.after_slab(decoded);
        // Out of order: this attempt is lost, the next starts now.
        for (const auto& j : joins)
          in_order &= !j->horizon_exceeded();
        if (spread != nullptr) in_order = spread->AllOk(in_order);
        return in_order;
      },
      progress, options.maps, options.visits, decodes);

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
  const bool ended = !options.end_attempt || options.end_attempt();
  return spread != nullptr ? spread->AllOk(ended) : ended;
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
  const int64_t slab = std::min(SlabStep(store, SlabRecords(options)), kWhole);
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
