// RunMessagePass: per slab, the records are sorted into partitions by the
// process that receives them (threads in parallel), then every partition's
// join takes its posts and messages and pairs what is past its horizon.
// Spread over processes, a slab's records first go to the process that
// joins them (the one that decodes the receiving process's threads, so
// receives stay where they are and sends travel): each process sends every
// other the records of its threads, thread by thread, so each thread's
// records arrive in their order.
#include "store/message_pass.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

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

// The records one thread sends to other processes: (rank, index).
using Away = std::vector<std::pair<int, uint32_t>>;

// Per destination, the count, then the records, thread by thread.
template <typename Side>
void PutAway(const std::vector<Away>& away, const std::vector<std::vector<Side>>& sides,
             std::vector<std::string>* to) {
  std::vector<size_t> at(to->size());
  for (size_t r = 0; r < to->size(); ++r) {
    at[r] = (*to)[r].size();
    WirePut(&(*to)[r], uint64_t{0});
  }
  std::vector<uint64_t> counts(to->size(), 0);
  for (size_t t = 0; t < away.size(); ++t)
    for (const auto& [rank, i] : away[t]) {
      WirePut(&(*to)[static_cast<size_t>(rank)], sides[t][i]);
      ++counts[static_cast<size_t>(rank)];
    }
  for (size_t r = 0; r < to->size(); ++r)
    std::memcpy((*to)[r].data() + at[r], &counts[r], sizeof counts[r]);
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
  // Spread: this process joins the keys (receiving processes) Joiner gives
  // it, partitioned as one process would; the records of its threads that
  // others join go to them (away), the records others send it are joined.
  PassSpread* spread = options.spread;
  const int rank = spread != nullptr ? spread->rank() : 0;
  const auto part = [&](uint32_t key) { return key % parts; };
  std::vector<Away> away_messages(threads), away_posts(threads);
  std::function<bool(uint32_t)> decodes;
  if (spread != nullptr) decodes = [spread](uint32_t t) { return spread->Decodes(t); };
  const auto here = [&](uint32_t t) { return spread == nullptr || spread->Decodes(t); };
  Slab joined;
  joined.messages.resize(threads);
  joined.posts.resize(threads);
  // Thread t's records of `slab` into the partitions' lists, or away when
  // `filter` and another process joins them.
  const auto sort = [&](uint32_t t, const Slab& slab, bool filter) {
    const std::vector<MessageSide>& ms = slab.messages[t];
    for (uint32_t i = 0; i < ms.size(); ++i) {
      const uint32_t key = JoinKey(context, trace, ms[i]);
      const int joiner = filter ? spread->Joiner(key) : rank;
      if (joiner == rank)
        messages[t][part(key)].push_back(i);
      else
        away_messages[t].emplace_back(joiner, i);
    }
    const std::vector<PostSide>& ps = slab.posts[t];
    for (uint32_t i = 0; i < ps.size(); ++i) {
      const uint32_t key = trace.threads[ps[i].thread].process;
      const int joiner = filter ? spread->Joiner(key) : rank;
      if (joiner == rank)
        posts[t][part(key)].push_back(i);
      else
        away_posts[t].emplace_back(joiner, i);
    }
  };
  if (options.begin_attempt) options.begin_attempt(horizon);
  bool in_order = true;

  RunLockstep(
      store, SlabRecords(options),
      [&](const Slab& decoded) {
        store.pool()->ParallelFor(threads, [&](size_t t) {
          // Cleared, not made anew: their room is reused slab after slab.
          messages[t].resize(parts);
          posts[t].resize(parts);
          for (size_t p = 0; p < parts; ++p) {
            messages[t][p].clear();
            posts[t][p].clear();
          }
          away_messages[t].clear();
          away_posts[t].clear();
          const auto thread = static_cast<uint32_t>(t);
          if (here(thread)) sort(thread, decoded, spread != nullptr);
        });
        if (spread != nullptr) {
          std::vector<std::string> to(static_cast<size_t>(spread->size()));
          PutAway(away_messages, decoded.messages, &to);
          PutAway(away_posts, decoded.posts, &to);
          for (uint32_t t = 0; t < threads; ++t) {
            joined.messages[t].clear();
            joined.posts[t].clear();
          }
          // By rank: a thread belongs to one process, so its records stay
          // in their order.
          for (const std::string& from : spread->Exchange(std::move(to))) {
            WireReader in(from);
            GetSides(&in, threads, &joined.messages);
            GetSides(&in, threads, &joined.posts);
          }
          store.pool()->ParallelFor(threads, [&](size_t t) {
            const auto thread = static_cast<uint32_t>(t);
            if (!here(thread)) sort(thread, joined, false);
          });
        }
        const auto slab = [&](uint32_t t) -> const Slab& { return here(t) ? decoded : joined; };
        store.pool()->ParallelFor(parts, [&](size_t p) {
          MessageJoin& join = *joins[p];
          MessageConsumer& consumer = *(*consumers)[p];
          for (uint32_t t = 0; t < threads; ++t)
            for (uint32_t i : posts[t][p])
              join.AddPost(slab(t).posts[t][i]);
          for (uint32_t t = 0; t < threads; ++t)
            for (uint32_t i : messages[t][p]) {
              const MessageSide& m = slab(t).messages[t][i];
              consumer.Message(m);
              join.Add(m);
            }
          join.Advance(decoded.until, [&](const MessageSide& s, const MessageSide& r, bool has,
                                          int64_t post) { consumer.Pair(s, r, has, post); });
          consumer.Frontier(decoded.until);
        });
        if (spread != nullptr && options.after_joins && in_order)
          options.after_joins(decoded, joined);
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

std::vector<std::string> GatherOnFirst(PassSpread& spread, std::string mine) {
  std::vector<std::string> to(static_cast<size_t>(spread.size()));
  to[0] = std::move(mine);
  std::vector<std::string> from = spread.Exchange(std::move(to));
  if (spread.rank() != 0) from.clear();
  return from;
}

std::vector<std::string> GatherOnAll(PassSpread& spread, const std::string& mine) {
  return spread.Exchange(std::vector<std::string>(static_cast<size_t>(spread.size()), mine));
}

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
