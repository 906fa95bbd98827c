// From gathered Chrome events to TraceBuilder calls: flows become message
// pairs, each thread's events are sorted (Perfetto's and catapult's order:
// by time; at one time ends before begins, longer complete events before the
// shorter ones they hold), complete events that overlap their parent's end
// are cut to it, and the result is written thread by thread.
#include "interop/chrome_json/chrome_json_events.h"

#include <algorithm>

namespace plx::interop::chrome {

Strings::Strings() {
  store_.emplace_back();
  ids_.emplace(std::string_view(store_.back()), 0);
}

uint32_t Strings::Intern(std::string_view s) {
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(store_.size());
  store_.emplace_back(s);
  ids_.emplace(std::string_view(store_.back()), id);
  return id;
}

void PairFlows(Gathered& g, TraceBuilder& out) {
  std::sort(g.flows.begin(), g.flows.end(), [](const FlowPoint& a, const FlowPoint& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.ts != b.ts) return a.ts < b.ts;
    if (a.phase != b.phase) return a.phase < b.phase;
    return a.seq < b.seq;
  });
  int64_t tag = 0;
  auto arrow = [&](const FlowPoint& from, const FlowPoint& to) {
    MessageInfo m;
    m.tag = tag++;
    m.other_thread = to.thread;
    g.threads[from.thread].events.push_back(
        {from.ts, 0, 0, 0, static_cast<uint32_t>(g.messages.size()), Kind::kSend});
    g.messages.push_back(m);
    m.other_thread = from.thread;
    g.threads[to.thread].events.push_back(
        {to.ts, 0, 0, 0, static_cast<uint32_t>(g.messages.size()), Kind::kRecv});
    g.messages.push_back(m);
  };
  const FlowPoint* open = nullptr;
  bool open_used = false;  // the open point already ends an arrow
  for (size_t i = 0; i < g.flows.size(); ++i) {
    const FlowPoint& f = g.flows[i];
    if (i > 0 && g.flows[i - 1].key != f.key) {
      if (open != nullptr && !open_used) out.Note(ImportCounter::kChromeFlowUnmatched);
      open = nullptr;
    }
    if (f.phase == 0) {
      if (open != nullptr && !open_used) out.Note(ImportCounter::kChromeFlowUnmatched);
      open = &f;
      open_used = false;
    } else if (open == nullptr) {
      out.Note(ImportCounter::kChromeFlowUnmatched);
      if (f.phase == 1) open = &f, open_used = false;
    } else {
      arrow(*open, f);
      open = f.phase == 1 ? &f : nullptr;
      open_used = true;
    }
  }
  if (open != nullptr && !open_used) out.Note(ImportCounter::kChromeFlowUnmatched);
  g.flows.clear();
  g.flows.shrink_to_fit();
}

namespace {

constexpr uint32_t kUnset = 0xffffffffu;

class Writer {
 public:
  Writer(Gathered& g, TraceBuilder& out) : g_(g), out_(out) {}

  void Run() {
    shift_ = g_.min_ts < 0 ? -g_.min_ts : 0;
    if (shift_ != 0) out_.Note(ImportCounter::kChromeNegativeTimeShifted);
    threads_.resize(g_.threads.size());
    comms_.resize(g_.processes.size());
    for (uint32_t p = 0; p < g_.processes.size(); ++p)
      DefineProcess(p);
    for (uint32_t t = 0; t < g_.threads.size(); ++t)
      WriteThread(t);
  }

 private:
  struct Open {
    uint32_t state;
    int64_t end;  // INT64_MAX for B
    bool complete;
  };

  void DefineProcess(uint32_t p) {
    const ProcessData& pd = g_.processes[p];
    const uint32_t bp = out_.AddProcess(pd.info);
    out_.Attribute(bp, "source_format", "chrome_json");
    if (!pd.labels.empty()) out_.Attribute(bp, "chrome.labels", pd.labels);
    for (uint32_t t : pd.threads)
      threads_[t] = out_.AddThread(bp, {g_.threads[t].tid, g_.threads[t].name});
    Comms& c = comms_[p];
    for (const CommDef& d : pd.comms) {
      c.by_name.try_emplace(
          d.name, out_.Communicator(bp, g_.strings[d.name], d.kind, d.global_id, d.members));
    }
    // Communicators messages name without a definition, and those of flows.
    auto need = [&](uint32_t name) {
      if (name != 0 && !c.by_name.count(name))
        c.by_name.emplace(name, out_.Communicator(bp, g_.strings[name], 0, 0, {}));
    };
    for (uint32_t t : pd.threads) {
      for (const Event& e : g_.threads[t].events) {
        switch (e.kind) {
          case Kind::kSend:
          case Kind::kRecv: {
            const MessageInfo& m = g_.messages[e.aux];
            if (m.other_thread == kNoThread) {
              need(m.comm);
            } else if (g_.threads[m.other_thread].process == p) {
              if (c.flow_threads == kUnset)
                c.flow_threads = out_.Communicator(bp, "chrome flows (threads)", 1, 0, {});
            } else if (c.flow_world == kUnset) {
              c.flow_world = out_.Communicator(bp, "chrome flows", 0, 0, {});
            }
            break;
          }
          case Kind::kCollective:
            need(g_.collectives[e.aux].comm);
            break;
          case Kind::kRma:
            need(g_.rmas[e.aux].comm);
            break;
          case Kind::kRecvPost:
            need(g_.recv_posts[e.aux].comm);
            break;
          default:
            break;
        }
      }
    }
  }

  uint32_t Comm(uint32_t process, uint32_t name) {
    if (name == 0) return 0;
    return comms_[process].by_name.at(name);
  }

  std::string_view Category(uint32_t cat, std::string_view fallback) const {
    return cat == 0 ? fallback : g_.strings[cat];
  }

  uint32_t StateId(const Event& e) {
    if (e.name >= states_.size()) states_.resize(e.name + 1, kUnset);
    uint32_t& id = states_[e.name];
    if (id == kUnset) id = out_.State(g_.strings[e.name], Category(e.cat, "user"));
    return id;
  }

  uint32_t EventTypeId(const Event& e, model::ValueKind kind) {
    if (e.name >= event_types_.size()) event_types_.resize(e.name + 1, kUnset);
    uint32_t& id = event_types_[e.name];
    if (id == kUnset) id = out_.EventType(g_.strings[e.name], kind, Category(e.cat, "user"));
    return id;
  }

  uint32_t CounterId(uint32_t counter) {
    if (counter >= counter_ids_.size()) counter_ids_.resize(counter + 1, kUnset);
    uint32_t& id = counter_ids_[counter];
    if (id == kUnset) {
      const CounterDef& d = g_.counters[counter];
      id = out_.Counter(g_.strings[d.name], "",
                        d.is_double ? model::ValueKind::kDouble : model::ValueKind::kInt,
                        Category(d.cat, "counter"));
    }
    return id;
  }

  void Check(bool accepted) {
    if (!accepted) out_.Note(ImportCounter::kChromeTimeRefused);
  }

  void LeaveTop(uint32_t bt, int64_t at) {
    Check(out_.Leave(bt, std::max(at, out_.LastTime(bt)), stack_.back().state));
    stack_.pop_back();
  }

  // Ends the complete slices on top of the stack that end by `t` (or before).
  void EndCompleteBy(uint32_t bt, int64_t t, bool inclusive) {
    while (!stack_.empty() && stack_.back().complete &&
           (stack_.back().end < t || (inclusive && stack_.back().end == t))) {
      LeaveTop(bt, stack_.back().end);
    }
  }

  static int Order(const Event& e) {
    switch (e.kind) {
      case Kind::kEnd:
        return 1;
      case Kind::kBegin:
      case Kind::kComplete:
        return 2;
      default:
        return 0;
    }
  }

  // By time; at one time points, then ends, then begins. Begins keep their
  // file order except that complete events between the same two B events go
  // longest first (catapult's order: a B written between two X events of one
  // time stays between them).
  static void SortEvents(std::vector<Event>& events) {
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.ts < b.ts; });
    for (size_t lo = 0, hi = 0; lo < events.size(); lo = hi) {
      hi = lo + 1;
      while (hi < events.size() && events[hi].ts == events[lo].ts)
        ++hi;
      if (hi - lo == 1) continue;
      uint32_t group = 0;  // B events so far at this time
      for (size_t i = lo; i < hi; ++i) {
        if (events[i].kind == Kind::kBegin) ++group;
        if (events[i].kind == Kind::kBegin || events[i].kind == Kind::kComplete)
          events[i].aux = group;
      }
      std::stable_sort(events.begin() + static_cast<ptrdiff_t>(lo),
                       events.begin() + static_cast<ptrdiff_t>(hi),
                       [](const Event& a, const Event& b) {
                         const int oa = Order(a), ob = Order(b);
                         if (oa != ob) return oa < ob;
                         if (oa != 2) return false;
                         if (a.aux != b.aux) return a.aux < b.aux;
                         if (a.kind != b.kind) return a.kind == Kind::kBegin;
                         return a.kind == Kind::kComplete && a.dur > b.dur;
                       });
    }
  }

  void WriteThread(uint32_t t) {
    std::vector<Event>& events = g_.threads[t].events;
    SortEvents(events);
    const uint32_t bt = threads_[t];
    const uint32_t process = g_.threads[t].process;
    stack_.clear();
    for (const Event& e : events) {
      const int64_t at = e.ts + g_.base_ns + shift_;
      switch (e.kind) {
        case Kind::kBegin:
        case Kind::kComplete: {
          EndCompleteBy(bt, at, true);
          int64_t end = INT64_MAX;
          if (e.kind == Kind::kComplete) {
            end = at + e.dur;
            if (!stack_.empty() && stack_.back().complete && end > stack_.back().end) {
              end = stack_.back().end;
              out_.Note(ImportCounter::kChromeImproperNesting);
            }
          }
          const uint32_t state = StateId(e);
          if (out_.Enter(bt, at, state)) {
            stack_.push_back({state, end, e.kind == Kind::kComplete});
          } else {
            out_.Note(ImportCounter::kChromeTimeRefused);
          }
          break;
        }
        case Kind::kEnd: {
          EndCompleteBy(bt, at, true);
          bool open_begin = false;
          for (const Open& o : stack_)
            open_begin |= !o.complete;
          if (!open_begin) {
            out_.Note(ImportCounter::kChromeUnmatchedEnd);
            break;
          }
          while (stack_.back().complete) {
            out_.Note(ImportCounter::kChromeImproperNesting);
            LeaveTop(bt, at);
          }
          LeaveTop(bt, at);
          break;
        }
        default:
          EndCompleteBy(bt, at, false);
          Point(e, bt, process, at);
      }
    }
    EndCompleteBy(bt, INT64_MAX, true);
    if (!stack_.empty()) out_.Note(ImportCounter::kChromeUnclosedSlices, stack_.size());
    events.clear();
    events.shrink_to_fit();
  }

  void Point(const Event& e, uint32_t bt, uint32_t process, int64_t at) {
    switch (e.kind) {
      case Kind::kInstant: {
        const InstantValue& v = g_.instants[e.aux];
        const uint32_t type = EventTypeId(e, v.kind);
        switch (v.kind) {
          case model::ValueKind::kInt:
            Check(out_.InstantInt(bt, at, type, v.i));
            break;
          case model::ValueKind::kDouble:
            Check(out_.InstantDouble(bt, at, type, v.d));
            break;
          case model::ValueKind::kString:
            Check(out_.InstantString(bt, at, type,
                                     std::string_view(g_.texts).substr(v.text, v.text_size)));
            break;
          case model::ValueKind::kNone:
            Check(out_.Instant(bt, at, type));
            break;
        }
        break;
      }
      case Kind::kCounter: {
        const CounterSample& s = g_.counter_samples[e.aux];
        const uint32_t id = CounterId(s.counter);
        if (g_.counters[s.counter].is_double) {
          Check(out_.CounterDouble(bt, at, id, s.is_int ? static_cast<double>(s.i) : s.d));
        } else {
          Check(out_.CounterInt(bt, at, id, s.i));
        }
        break;
      }
      case Kind::kSend:
      case Kind::kRecv: {
        const MessageInfo& m = g_.messages[e.aux];
        uint32_t comm = 0;
        int64_t peer = m.peer;
        if (m.other_thread != kNoThread) {
          const uint32_t other = g_.threads[m.other_thread].process;
          if (other == process) {
            comm = comms_[process].flow_threads;
            peer = out_.StreamOf(threads_[m.other_thread]);
          } else {
            comm = comms_[process].flow_world;
            const int64_t rank = g_.processes[other].info.rank;
            peer = rank >= 0 ? rank : int64_t{other};
          }
        } else {
          comm = Comm(process, m.comm);
        }
        if (e.kind == Kind::kSend) {
          Check(out_.Send(bt, at, comm, peer, m.tag, m.bytes, m.match, m.clock));
        } else {
          Check(out_.Recv(bt, at, comm, peer, m.tag, m.bytes, m.match, m.clock));
        }
        break;
      }
      case Kind::kCollective: {
        const CollectiveInfo& c = g_.collectives[e.aux];
        Check(out_.Collective(bt, at, c.op, Comm(process, c.comm), c.root, c.sent, c.received));
        break;
      }
      case Kind::kRma: {
        const RmaInfo& r = g_.rmas[e.aux];
        Check(out_.Rma(bt, at, r.op, Comm(process, r.comm), r.origin, r.target, r.bytes));
        break;
      }
      case Kind::kRecvPost: {
        const RecvPostInfo& r = g_.recv_posts[e.aux];
        Check(out_.RecvPost(bt, at, Comm(process, r.comm), r.peer, r.tag, r.match));
        break;
      }
      default:
        break;
    }
  }

  struct Comms {
    std::unordered_map<uint32_t, uint32_t> by_name;  // string id -> builder communicator
    uint32_t flow_world = kUnset;
    uint32_t flow_threads = kUnset;
  };

  Gathered& g_;
  TraceBuilder& out_;
  int64_t shift_ = 0;
  std::vector<uint32_t> threads_;  // builder thread of each gathered thread
  std::vector<Comms> comms_;
  std::vector<uint32_t> states_, event_types_, counter_ids_;  // by name id / counter
  std::vector<Open> stack_;
};

}  // namespace

void Feed(Gathered& g, TraceBuilder& out) {
  Writer(g, out).Run();
}

}  // namespace plx::interop::chrome
