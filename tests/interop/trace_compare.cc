#include "trace_compare.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "base/strings.h"
#include "time/message_pairs.h"

namespace plx::testing {

namespace {

class Differ {
 public:
  Differ(const model::Trace& a, const model::Trace& b, const CompareOptions& o, size_t limit)
      : a_(a), b_(b), o_(o), limit_(limit) {}

  std::vector<std::string> Run() {
    Names();
    if (a_.threads.size() != b_.threads.size()) return lines_;
    Slices();
    if (o_.messages) Messages();
    if (o_.counters) Counters();
    if (o_.instants) Instants();
    if (o_.collectives) Collectives();
    if (o_.rma) Rmas();
    if (o_.recv_posts) RecvPosts();
    return lines_;
  }

 private:
  void Add(std::string line) {
    if (lines_.size() < limit_) lines_.push_back(std::move(line));
  }
  int64_t T(const model::Trace& t, int64_t ns) const {
    const int64_t rel = ns - t.begin_ns;
    return (rel + o_.time_step_ns / 2) / o_.time_step_ns;
  }

  void Names() {
    if (a_.processes.size() != b_.processes.size()) {
      Add(StrFormat("processes: %zu expected, %zu found", a_.processes.size(),
                    b_.processes.size()));
    }
    if (a_.threads.size() != b_.threads.size()) {
      Add(StrFormat("threads: %zu expected, %zu found", a_.threads.size(), b_.threads.size()));
      return;
    }
    for (size_t t = 0; t < a_.threads.size(); ++t) {
      if (a_.threads[t].process != b_.threads[t].process) {
        Add(StrFormat("thread %zu: in process %u, found in %u", t, a_.threads[t].process,
                      b_.threads[t].process));
      }
      if (o_.process_names && a_.threads[t].name != b_.threads[t].name) {
        Add(StrFormat("thread %zu: name \"%s\", found \"%s\"", t, a_.threads[t].name.c_str(),
                      b_.threads[t].name.c_str()));
      }
    }
    if (!o_.process_names) return;
    for (size_t p = 0; p < std::min(a_.processes.size(), b_.processes.size()); ++p) {
      const model::Process &x = a_.processes[p], &y = b_.processes[p];
      if (x.name != y.name || x.rank != y.rank) {
        Add(StrFormat("process %zu: \"%s\" rank %lld, found \"%s\" rank %lld", p, x.name.c_str(),
                      static_cast<long long>(x.rank), y.name.c_str(),
                      static_cast<long long>(y.rank)));
      }
    }
  }

  // Each table as a multiset of readable rows, per thread.
  template <typename RowText>
  void Table(const char* what, const std::vector<uint32_t>& ta, const std::vector<uint32_t>& tb,
             RowText text) {
    std::multiset<std::pair<uint32_t, std::string>> x, y;
    for (uint32_t r = 0; r < ta.size(); ++r)
      x.emplace(ta[r], text(a_, r));
    for (uint32_t r = 0; r < tb.size(); ++r)
      y.emplace(tb[r], text(b_, r));
    Diff(what, x, y);
  }

  template <typename Set>
  void Diff(const char* what, const Set& x, const Set& y) {
    if (x.size() != y.size()) {
      Add(StrFormat("%s: %zu expected, %zu found", what, x.size(), y.size()));
    }
    std::vector<typename Set::value_type> missing, extra;
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(missing));
    std::set_difference(y.begin(), y.end(), x.begin(), x.end(), std::back_inserter(extra));
    for (size_t i = 0; i < missing.size() && i < 5; ++i) {
      Add(StrFormat("%s: missing on thread %u: %s", what, missing[i].first,
                    missing[i].second.c_str()));
    }
    for (size_t i = 0; i < extra.size() && i < 5; ++i) {
      Add(StrFormat("%s: unexpected on thread %u: %s", what, extra[i].first,
                    extra[i].second.c_str()));
    }
  }

  void Slices() {
    Table("states", a_.slices.thread, b_.slices.thread, [this](const model::Trace& t, uint32_t r) {
      const model::SliceTable& s = t.slices;
      return StrFormat("%s [%lld, %lld) depth %u", t.states[s.state[r]].name.c_str(),
                       static_cast<long long>(T(t, s.begin[r])),
                       static_cast<long long>(T(t, s.end[r])), s.depth[r]);
    });
  }

  std::string CommName(const model::Trace& t, uint32_t comm) const {
    return comm == model::kNone ? "-" : t.communicators[comm].name;
  }

  std::string MessageText(const model::Trace& t, uint32_t r) const {
    const model::MessageTable& m = t.messages;
    return StrFormat("%s at %lld peer %lld tag %lld bytes %llu comm %s",
                     m.is_send[r] ? "send" : "recv", static_cast<long long>(T(t, m.time[r])),
                     static_cast<long long>(m.peer[r]), static_cast<long long>(m.tag[r]),
                     static_cast<unsigned long long>(m.bytes[r]), CommName(t, m.comm[r]).c_str());
  }

  void Messages() {
    Table("messages", a_.messages.thread, b_.messages.thread,
          [this](const model::Trace& t, uint32_t r) { return MessageText(t, r); });
    auto pairs = [this](const model::Trace& t) {
      std::multiset<std::pair<uint32_t, std::string>> out;
      const time::MessagePairs p = time::MatchMessages(t);
      for (const time::MessagePair& m : p.pairs) {
        out.emplace(t.messages.thread[m.send], MessageText(t, m.send) + " -> thread " +
                                                   std::to_string(t.messages.thread[m.recv]) + " " +
                                                   MessageText(t, m.recv));
      }
      return out;
    };
    Diff("message pairs", pairs(a_), pairs(b_));
  }

  void Counters() {
    Table("counters", a_.counter_samples.thread, b_.counter_samples.thread,
          [this](const model::Trace& t, uint32_t r) {
            const model::CounterTable& c = t.counter_samples;
            const model::Counter& def = t.counters[c.counter[r]];
            return StrFormat("%s = %.17g at %lld", def.name.c_str(), c.value[r],
                             static_cast<long long>(T(t, c.time[r])));
          });
  }

  void Instants() {
    Table("instants", a_.instants.thread, b_.instants.thread,
          [this](const model::Trace& t, uint32_t r) {
            const model::InstantTable& i = t.instants;
            std::string value;
            switch (i.kind[r]) {
              case model::ValueKind::kInt:
                value = std::to_string(i.int_value[r]);
                break;
              case model::ValueKind::kDouble:
                value = StrFormat("%.17g", i.double_value[r]);
                break;
              case model::ValueKind::kString:
                value = i.text[r] == model::kNone ? "" : t.texts[i.text[r]];
                break;
              case model::ValueKind::kNone:
                break;
            }
            return StrFormat("%s (%s) at %lld", t.event_types[i.type[r]].name.c_str(),
                             value.c_str(), static_cast<long long>(T(t, i.time[r])));
          });
  }

  void Collectives() {
    Table("collectives", a_.collectives.thread, b_.collectives.thread,
          [this](const model::Trace& t, uint32_t r) {
            const model::CollectiveTable& c = t.collectives;
            return StrFormat("op %u comm %s root %lld sent %llu received %llu at %lld", c.op[r],
                             CommName(t, c.comm[r]).c_str(), static_cast<long long>(c.root[r]),
                             static_cast<unsigned long long>(c.sent[r]),
                             static_cast<unsigned long long>(c.received[r]),
                             static_cast<long long>(T(t, c.time[r])));
          });
  }

  void Rmas() {
    Table("rma", a_.rma.thread, b_.rma.thread, [this](const model::Trace& t, uint32_t r) {
      const model::RmaTable& m = t.rma;
      return StrFormat("op %u %lld -> %lld bytes %llu at %lld", m.op[r],
                       static_cast<long long>(m.origin[r]), static_cast<long long>(m.target[r]),
                       static_cast<unsigned long long>(m.bytes[r]),
                       static_cast<long long>(T(t, m.time[r])));
    });
  }

  void RecvPosts() {
    Table("recv posts", a_.recv_posts.thread, b_.recv_posts.thread,
          [this](const model::Trace& t, uint32_t r) {
            const model::RecvPostTable& p = t.recv_posts;
            return StrFormat("peer %lld tag %lld comm %s at %lld",
                             static_cast<long long>(p.peer[r]), static_cast<long long>(p.tag[r]),
                             CommName(t, p.comm[r]).c_str(),
                             static_cast<long long>(T(t, p.time[r])));
          });
  }

  const model::Trace& a_;
  const model::Trace& b_;
  const CompareOptions& o_;
  size_t limit_;
  std::vector<std::string> lines_;
};

}  // namespace

std::vector<std::string> CompareTraces(const model::Trace& expected, const model::Trace& actual,
                                       const CompareOptions& options, size_t limit) {
  return Differ(expected, actual, options, limit).Run();
}

}  // namespace plx::testing
