// Logical clocks: per-thread event lists, then one Kahn-style traversal over
// threads — a thread runs until it meets a receive whose send is not done or
// a collective some participant has not reached — feeding either clock.
#include "time/logical_clocks.h"

#include <algorithm>

#include "time/collective_instances.h"
#include "time/message_pairs.h"

namespace plx::time {

namespace {

using Type = ThreadEvents::Type;

// Drives a clock over the events in a causal order. Clock must offer
// Local(event), Receive(event, send_event) and Collective(events).
template <typename Clock>
uint64_t Traverse(const model::Trace& trace, const ThreadEvents& ev, Clock* clock,
                  const MessagePairs* matched = nullptr) {
  const size_t threads = trace.threads.size();
  const MessagePairs own = matched != nullptr ? MessagePairs{} : MatchMessages(trace);
  const MessagePairs& pairs = matched != nullptr ? *matched : own;
  const CollectiveInstances instances = GroupCollectives(trace);

  std::vector<uint32_t> event_of_message(trace.messages.size(), model::kNone);
  std::vector<uint32_t> event_of_collective(trace.collectives.size(), model::kNone);
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (ev.type[e] == Type::kMessage) event_of_message[ev.row[e]] = e;
    if (ev.type[e] == Type::kCollective) event_of_collective[ev.row[e]] = e;
  }
  std::vector<uint32_t> send_of(trace.messages.size(), model::kNone);
  for (const MessagePair& p : pairs.pairs)
    send_of[p.recv] = p.send;

  std::vector<uint8_t> done(ev.size(), 0);
  std::vector<uint32_t> pos(ev.first.begin(), ev.first.end() - 1);
  std::vector<uint32_t> arrived(instances.size(), 0);
  std::vector<uint8_t> instance_done(instances.size(), 0);
  std::vector<uint32_t> arrived_at(threads, model::kNone);  // the collective event it waits at
  std::vector<uint32_t> ready;
  for (uint32_t t = 0; t < threads; ++t)
    ready.push_back(t);
  // Threads waiting at a receive, per send event: woken when it is done.
  std::vector<std::vector<uint32_t>> waiting(threads);  // by the thread that will send
  uint64_t forced = 0;
  uint64_t finished = 0;
  std::vector<uint8_t> is_finished(threads, 0);

  auto finish_instance = [&](uint32_t inst) {
    std::vector<uint32_t> events;
    for (uint32_t k = instances.first[inst]; k < instances.first[inst + 1]; ++k) {
      const uint32_t e = event_of_collective[instances.rows[k]];
      const uint32_t t = trace.collectives.thread[instances.rows[k]];
      if (e != model::kNone && pos[t] == e && !done[e]) events.push_back(e);
    }
    instance_done[inst] = 1;
    clock->Collective(events);
    for (uint32_t e : events) {
      done[e] = 1;
      const uint32_t t = trace.collectives.thread[ev.row[e]];
      ++pos[t];
      ready.push_back(t);
    }
  };

  // Runs thread t until it blocks or ends; `force` lets its next event go.
  auto run = [&](uint32_t t, bool force) {
    const uint32_t end = ev.first[t + 1];
    while (pos[t] < end) {
      const uint32_t e = pos[t];
      if (ev.type[e] == Type::kMessage && !trace.messages.is_send[ev.row[e]]) {
        const uint32_t send = send_of[ev.row[e]];
        const uint32_t send_event = send == model::kNone ? model::kNone : event_of_message[send];
        if (send_event != model::kNone && !done[send_event]) {
          if (!force) {
            waiting[trace.messages.thread[send]].push_back(t);
            return;
          }
          ++forced;
          clock->Local(e);
        } else if (send_event != model::kNone) {
          clock->Receive(e, send_event);
        } else {
          clock->Local(e);  // unmatched
        }
      } else if (ev.type[e] == Type::kCollective) {
        const uint32_t inst = instances.instance_of[ev.row[e]];
        if (inst != model::kNone && !instance_done[inst]) {
          if (!force) {
            if (arrived_at[t] == e) return;  // already counted, still waiting
            arrived_at[t] = e;
            if (++arrived[inst] < instances.first[inst + 1] - instances.first[inst]) return;
          } else {
            ++forced;
          }
          finish_instance(inst);
          return;  // finish_instance advanced and re-queued the participants
        }
        if (inst != model::kNone) ++forced;  // the operation finished without it
        clock->Local(e);
      } else {
        clock->Local(e);
      }
      done[e] = 1;
      force = false;
      ++pos[t];
      if (ev.type[e] == Type::kMessage && trace.messages.is_send[ev.row[e]]) {
        for (uint32_t w : waiting[t])
          ready.push_back(w);
        waiting[t].clear();
      }
    }
    if (!is_finished[t]) {
      is_finished[t] = 1;
      ++finished;
    }
  };

  while (finished < threads) {
    while (!ready.empty()) {
      const uint32_t t = ready.back();
      ready.pop_back();
      run(t, false);
    }
    if (finished == threads) break;
    // Stuck: let the unfinished thread whose next event is earliest go on.
    uint32_t best = model::kNone;
    for (uint32_t t = 0; t < threads; ++t)
      if (!is_finished[t] && (best == model::kNone || ev.time[pos[t]] < ev.time[pos[best]]))
        best = t;
    for (auto& w : waiting)
      w.erase(std::remove(w.begin(), w.end(), best), w.end());
    run(best, true);
  }
  return forced;
}

struct Lamport {
  std::vector<uint64_t>* value;
  const ThreadEvents* ev;
  std::vector<uint64_t> now;  // per thread

  uint32_t ThreadOf(uint32_t e) const {
    return static_cast<uint32_t>(std::upper_bound(ev->first.begin(), ev->first.end(), e) -
                                 ev->first.begin()) -
           1;
  }
  void Local(uint32_t e) { (*value)[e] = ++now[ThreadOf(e)]; }
  void Receive(uint32_t e, uint32_t send) {
    uint64_t& n = now[ThreadOf(e)];
    n = std::max(n, (*value)[send]) + 1;
    (*value)[e] = n;
  }
  void Collective(const std::vector<uint32_t>& events) {
    uint64_t v = 0;
    for (uint32_t e : events)
      v = std::max(v, now[ThreadOf(e)] + 1);
    for (uint32_t e : events) {
      now[ThreadOf(e)] = v;
      (*value)[e] = v;
    }
  }
};

struct Vector {
  const ThreadEvents* ev;
  uint32_t width;
  std::vector<uint32_t> now;       // threads * width
  std::vector<uint32_t>* message;  // rows * width
  std::vector<uint32_t>* collective;

  uint32_t ThreadOf(uint32_t e) const {
    return static_cast<uint32_t>(std::upper_bound(ev->first.begin(), ev->first.end(), e) -
                                 ev->first.begin()) -
           1;
  }
  uint32_t* Now(uint32_t t) { return now.data() + size_t{t} * width; }
  void Store(uint32_t e, const uint32_t* v) {
    std::vector<uint32_t>* table = nullptr;
    if (ev->type[e] == Type::kMessage) table = message;
    if (ev->type[e] == Type::kCollective) table = collective;
    if (table) std::copy(v, v + width, table->data() + size_t{ev->row[e]} * width);
  }
  void Local(uint32_t e) {
    const uint32_t t = ThreadOf(e);
    ++Now(t)[t];
    Store(e, Now(t));
  }
  void Receive(uint32_t e, uint32_t send) {
    const uint32_t t = ThreadOf(e);
    const uint32_t* s = message->data() + size_t{ev->row[send]} * width;
    uint32_t* n = Now(t);
    for (uint32_t u = 0; u < width; ++u)
      n[u] = std::max(n[u], s[u]);
    ++n[t];
    Store(e, n);
  }
  void Collective(const std::vector<uint32_t>& events) {
    std::vector<uint32_t> merged(width, 0);
    for (uint32_t e : events) {
      const uint32_t t = ThreadOf(e);
      ++Now(t)[t];
      for (uint32_t u = 0; u < width; ++u)
        merged[u] = std::max(merged[u], Now(t)[u]);
    }
    for (uint32_t e : events) {
      std::copy(merged.begin(), merged.end(), Now(ThreadOf(e)));
      Store(e, merged.data());
    }
  }
};

// The last event of `thread` at or before `time`, or kNone.
uint32_t LastEvent(const ThreadEvents& ev, uint32_t thread, int64_t time) {
  if (thread + 1 >= ev.first.size()) return model::kNone;
  const auto begin = ev.time.begin() + ev.first[thread];
  const auto it = std::upper_bound(begin, ev.time.begin() + ev.first[thread + 1], time);
  if (it == begin) return model::kNone;
  return static_cast<uint32_t>(it - ev.time.begin()) - 1;
}

}  // namespace

uint64_t LamportClocks::At(uint32_t thread, int64_t time) const {
  const uint32_t e = LastEvent(events, thread, time);
  return e == model::kNone ? 0 : value[e];
}

std::vector<uint32_t> VectorClocks::At(uint32_t thread, int64_t time) const {
  std::vector<uint32_t> v(width, 0);
  const uint32_t e = LastEvent(events, thread, time);
  if (e == model::kNone) return v;
  // The latest message or collective event at or before e carries the other
  // threads' components; own component is the count of own events.
  const auto begin = comm_events.begin() + comm_first[thread];
  const auto it = std::upper_bound(begin, comm_events.begin() + comm_first[thread + 1], e);
  if (it != begin) {
    const uint32_t c = *(it - 1);
    const uint32_t* src = (events.type[c] == Type::kMessage ? message.data() : collective.data()) +
                          size_t{events.row[c]} * width;
    std::copy(src, src + width, v.begin());
  }
  v[thread] = e - events.first[thread] + 1;
  return v;
}

LamportClocks ComputeLamportClocks(const model::Trace& trace, const MessagePairs* pairs) {
  LamportClocks out;
  out.events = BuildThreadEvents(trace);
  out.value.assign(out.events.size(), 0);
  Lamport clock{&out.value, &out.events, std::vector<uint64_t>(trace.threads.size(), 0)};
  out.forced = Traverse(trace, out.events, &clock, pairs);
  out.slice_begin.assign(trace.slices.size(), 0);
  out.slice_end.assign(trace.slices.size(), 0);
  out.message.assign(trace.messages.size(), 0);
  out.collective.assign(trace.collectives.size(), 0);
  for (uint32_t e = 0; e < out.events.size(); ++e) {
    const uint32_t row = out.events.row[e];
    switch (out.events.type[e]) {
      case Type::kSliceBegin:
        out.slice_begin[row] = out.value[e];
        break;
      case Type::kSliceEnd:
        out.slice_end[row] = out.value[e];
        break;
      case Type::kMessage:
        out.message[row] = out.value[e];
        break;
      case Type::kCollective:
        out.collective[row] = out.value[e];
        break;
    }
  }
  return out;
}

VectorClocks ComputeVectorClocks(const model::Trace& trace) {
  VectorClocks out;
  out.events = BuildThreadEvents(trace);
  const uint32_t width = static_cast<uint32_t>(trace.threads.size());
  out.width = width;
  out.message.assign(trace.messages.size() * width, 0);
  out.collective.assign(trace.collectives.size() * width, 0);
  Vector clock{&out.events, width, std::vector<uint32_t>(size_t{width} * width, 0), &out.message,
               &out.collective};
  out.forced = Traverse(trace, out.events, &clock);
  out.comm_first.push_back(0);
  for (uint32_t t = 0; t < width; ++t) {
    for (uint32_t e = out.events.first[t]; e < out.events.first[t + 1]; ++e)
      if (out.events.type[e] == Type::kMessage || out.events.type[e] == Type::kCollective)
        out.comm_events.push_back(e);
    out.comm_first.push_back(static_cast<uint32_t>(out.comm_events.size()));
  }
  return out;
}

bool VectorLessEqual(const uint32_t* a, const uint32_t* b, uint32_t width) {
  for (uint32_t u = 0; u < width; ++u)
    if (a[u] > b[u]) return false;
  return true;
}

}  // namespace plx::time
