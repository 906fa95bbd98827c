// WriteSkewedTrace: a discrete-event simulation in true time (the rank that is
// furthest behind acts next), then each rank's records on its own clock.
#include "skewed_trace.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <string_view>
#include <tuple>
#include <variant>

#include "base/varint.h"
#include "format/trace_writer.h"

namespace plx::time::testing {

namespace {

enum : uint64_t {
  kWorld = 1,
  kMain,
  kCompute,
  kSend,
  kRecv,
  kAllreduce,
  kUser,
  kComm,
  kHost,
  kExe
};
constexpr std::string_view kStrings[] = {"",         "MPI_COMM_WORLD", "main",          "compute",
                                         "MPI_Send", "MPI_Recv",       "MPI_Allreduce", "user",
                                         "comm",     "node",           "skewed"};
constexpr uint64_t kStream = 1;
constexpr uint32_t kNobody = ~0u;
constexpr int64_t kStart = 1'000'000'000'000;

using Record = std::variant<format::ThreadBeginRecord, format::ThreadEndRecord, format::EnterRecord,
                            format::LeaveRecord, format::SendRecord, format::RecvRecord,
                            format::CollectiveRecord>;

struct Message {
  int64_t arrival = 0;
};

struct Rank {
  int64_t now = 0;
  int64_t offset_ns = 0;
  double drift_ppm = 0;
  int64_t error_ns = 0;
  bool waiting = false;                             // in MPI_Recv with nothing sent to it yet
  std::vector<std::pair<int64_t, Record>> records;  // true time, record
  std::vector<TrueSlice> slices;
};

class Simulation {
 public:
  explicit Simulation(const SkewedTraceOptions& o)
      : o_(o), rng_(o.seed * 0x9e3779b97f4a7c15ull + 1) {
    ranks_.resize(o.ranks);
    for (uint32_t r = 0; r < o.ranks; ++r) {
      Rank& k = ranks_[r];
      k.now = kStart + Uniform(1000);
      if (r == 0) continue;  // the reference clock
      k.offset_ns = Uniform(2 * o.max_offset_ns + 1) - o.max_offset_ns;
      k.drift_ppm = (static_cast<double>(Uniform(2001)) / 1000.0 - 1.0) * o.max_drift_ppm;
      k.error_ns = 1000 + Uniform(std::max<int64_t>(1, o.max_measurement_error_ns - 999));
    }
  }

  SkewedTrace Run() {
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      Emit(r, ranks_[r].now, format::ThreadBeginRecord{});
      ranks_[r].now += 1000;
      Enter(r, kMain);
    }
    const uint64_t steps = uint64_t{o_.actions} * ranks_.size();
    uint64_t since_collective = 0;
    for (uint64_t step = 0; step < steps; ++step) {
      // The rank furthest behind acts, unless it waits in MPI_Recv.
      uint32_t r = kNobody;
      size_t waiting = 0;
      for (uint32_t i = 0; i < ranks_.size(); ++i) {
        if (ranks_[i].waiting) {
          ++waiting;
        } else if (r == kNobody || ranks_[i].now < ranks_[r].now) {
          r = i;
        }
      }
      ranks_[r].now += Uniform(2000);
      const int64_t dice = Uniform(100);
      if (++since_collective > 40 * ranks_.size() && waiting == 0) {
        Allreduce();
        since_collective = 0;
      } else if (dice < 40) {
        Call(r, kCompute, 20'000 + Uniform(280'000));
      } else if (dice < 65 && ranks_.size() > 1) {
        Send(r);
      } else if (!Receive(r)) {
        // Nothing there: wait in MPI_Recv for the next message, unless that
        // would leave nobody running.
        if (waiting + 1 < ranks_.size()) {
          Enter(r, kRecv);
          ranks_[r].waiting = true;
        } else {
          Call(r, kCompute, 20'000 + Uniform(280'000));
        }
      }
    }
    // Those waiting get a message; everything sent is received.
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      if (!ranks_[r].waiting) continue;
      for (uint32_t q = 0; q < ranks_.size(); ++q) {
        if (!ranks_[q].waiting) {
          Send(q, r);
          break;
        }
      }
    }
    for (uint32_t r = 0; r < ranks_.size(); ++r)
      while (Receive(r)) {
      }
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      ranks_[r].now += 1000;
      Leave(r, kMain);
      ranks_[r].now += 1000;
      Emit(r, ranks_[r].now, format::ThreadEndRecord{});
    }
    SkewedTrace out;
    for (Rank& k : ranks_)
      out.slices.push_back(k.slices);
    out.messages = messages_;
    out.collectives = collectives_;
    return out;
  }

  Status Write(const std::string& path) {
    PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceWriter> w, format::TraceWriter::Create(path));
    std::vector<uint8_t> members;
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      uint8_t buf[kMaxVarintBytes];
      members.insert(members.end(), buf, PutUvarint(buf, r));
    }
    const std::string_view member_bytes(reinterpret_cast<const char*>(members.data()),
                                        members.size());
    int64_t first = ranks_[0].records.front().first, last = first;
    for (const Rank& k : ranks_) {
      first = std::min(first, k.records.front().first);
      last = std::max(last, k.records.back().first);
    }
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      for (uint64_t id = 1; id < std::size(kStrings); ++id)
        w->Def(r, format::StringDef{id, kStrings[id]});
      w->Def(r, format::ProcessDef{1000 + r, r, kHost, kExe, 0, 0});
      w->Def(r, format::StreamDef{kStream, 1000 + r, 0});
      w->Def(r, format::CategoryDef{kUser, kUser});
      w->Def(r, format::CategoryDef{kComm, kComm});
      w->Def(r, format::StateDef{kMain, kMain, kUser, 0});
      w->Def(r, format::StateDef{kCompute, kCompute, kUser, 0});
      for (uint64_t s : {kSend, kRecv, kAllreduce})
        w->Def(r, format::StateDef{s, s, kComm, 0});
      w->Def(r, format::CommunicatorDef{kWorld, kWorld, 0, 1, member_bytes});
      if (r == 0) continue;
      // Offsets to rank 0 measured before the first and after the last record.
      for (int64_t t : {first - 10'000, last + 10'000}) {
        const Rank& k = ranks_[r];
        const int64_t error = Uniform(2 * k.error_ns + 1) - k.error_ns;
        w->Def(r,
               format::ClockOffsetDef{static_cast<uint64_t>(Local(r, t)), t - Local(r, t) + error,
                                      static_cast<uint64_t>(k.error_ns)});
      }
    }
    // The ranks' records interleaved in random batches.
    std::vector<size_t> next(ranks_.size(), 0);
    size_t left = ranks_.size();
    while (left > 0) {
      uint32_t r = static_cast<uint32_t>(Uniform(ranks_.size()));
      while (next[r] == ranks_[r].records.size())
        r = (r + 1) % ranks_.size();
      const size_t batch = 1 + Uniform(20);
      for (size_t i = 0; i < batch && next[r] < ranks_[r].records.size(); ++i, ++next[r]) {
        const auto& [t, record] = ranks_[r].records[next[r]];
        const uint64_t tick = static_cast<uint64_t>(Local(r, t));
        std::visit([&](const auto& rec) { w->Event(r, kStream, tick, rec); }, record);
      }
      if (next[r] == ranks_[r].records.size()) --left;
    }
    return w->Finish();
  }

 private:
  int64_t Uniform(uint64_t n) {
    uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return n ? static_cast<int64_t>(z % n) : 0;
  }

  int64_t Local(uint32_t r, int64_t t) const {
    const Rank& k = ranks_[r];
    return t + k.offset_ns + std::llround(static_cast<double>(t - kStart) * k.drift_ppm / 1e6);
  }

  void Emit(uint32_t r, int64_t t, Record record) { ranks_[r].records.emplace_back(t, record); }

  void Enter(uint32_t r, uint64_t state) {
    Rank& k = ranks_[r];
    Emit(r, k.now, format::EnterRecord{state, 0});
    k.slices.push_back({std::string(kStrings[state]), k.now, 0});
    open_[r].push_back(k.slices.size() - 1);
  }
  void Leave(uint32_t r, uint64_t state) {
    Rank& k = ranks_[r];
    Emit(r, k.now, format::LeaveRecord{state});
    k.slices[open_[r].back()].end = k.now;
    open_[r].pop_back();
  }
  void Call(uint32_t r, uint64_t state, int64_t duration) {
    Enter(r, state);
    ranks_[r].now += duration;
    Leave(r, state);
  }

  void Send(uint32_t r) {
    uint32_t to = static_cast<uint32_t>(Uniform(ranks_.size() - 1));
    Send(r, to + (to >= r ? 1 : 0));
  }

  void Send(uint32_t r, uint32_t to) {
    Rank& k = ranks_[r];
    const int64_t tag = Uniform(2);
    Enter(r, kSend);
    k.now += 100 + Uniform(200);
    Emit(r, k.now, format::SendRecord{kWorld, to, tag, 64, 0, 0});
    channels_[{r, to, tag}].push_back({k.now + 1000 + Uniform(4000)});
    ++messages_;
    k.now += 200 + Uniform(600);
    Leave(r, kSend);
    // A receiver waiting in MPI_Recv (its inbox was empty) gets it within
    // microseconds, where small clock errors show as violations.
    if (ranks_[to].waiting) {
      ranks_[to].waiting = false;
      ReceiveFrom(to, {r, to, tag}, /*entered=*/true);
    }
  }

  // Receives the first message of a random channel into r; false if none.
  bool Receive(uint32_t r) {
    std::vector<std::tuple<uint32_t, uint32_t, int64_t>> pending;
    for (const auto& [key, queue] : channels_)
      if (std::get<1>(key) == r && !queue.empty()) pending.push_back(key);
    if (pending.empty()) return false;
    // Any channel's next: delivery out of order across channels.
    ReceiveFrom(r, pending[Uniform(pending.size())], /*entered=*/false);
    return true;
  }

  void ReceiveFrom(uint32_t r, const std::tuple<uint32_t, uint32_t, int64_t>& key, bool entered) {
    const Message m = channels_[key].front();
    channels_[key].pop_front();
    Rank& k = ranks_[r];
    if (!entered) Enter(r, kRecv);
    k.now = std::max(k.now + 200, m.arrival + Uniform(300));
    Emit(r, k.now, format::RecvRecord{kWorld, std::get<0>(key), std::get<2>(key), 64, 0, 0});
    k.now += 100 + Uniform(300);
    Leave(r, kRecv);
  }

  void Allreduce() {
    int64_t last = 0;
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      Enter(r, kAllreduce);
      last = std::max(last, ranks_[r].now);
    }
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      ranks_[r].now = last + 2000 + Uniform(3000);
      Emit(r, ranks_[r].now - 100, format::CollectiveRecord{8, kWorld, -1, 8, 8});
      Leave(r, kAllreduce);
    }
    ++collectives_;
  }

  SkewedTraceOptions o_;
  uint64_t rng_;
  std::vector<Rank> ranks_;
  std::map<uint32_t, std::vector<size_t>> open_;
  std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::deque<Message>> channels_;
  uint64_t messages_ = 0;
  uint64_t collectives_ = 0;
};

}  // namespace

StatusOr<SkewedTrace> WriteSkewedTrace(const std::string& path, const SkewedTraceOptions& options) {
  if (options.ranks == 0) return InvalidArgument("WriteSkewedTrace: no ranks");
  Simulation sim(options);
  SkewedTrace out = sim.Run();
  PLX_RETURN_IF_ERROR(sim.Write(path));
  return out;
}

}  // namespace plx::time::testing
