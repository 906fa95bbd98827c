// WriteMpiTrace: simulates every rank in true time, iteration by iteration
// (first up to its sends, then the waits, which need the neighbours' send
// times), and writes each rank's records on its own skewed clock.
#include "bench/mpi_trace_gen.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "base/varint.h"
#include "format/trace_writer.h"

namespace plx::bench {

namespace {

// String ids; states and categories take the ids of their names.
enum : uint64_t {
  kWorld = 1,
  kCatUser,
  kCatComm,
  kIteration,
  kCompute,
  kIrecv,
  kIsend,
  kWaitall,
  kAllreduce,
  kHost,
  kExe,
};
constexpr std::string_view kStrings[] = {
    "",          "MPI_COMM_WORLD", "user",        "comm",          "iteration", "compute",
    "MPI_Irecv", "MPI_Isend",      "MPI_Waitall", "MPI_Allreduce", "node00",    "mpi_trace_gen"};
constexpr uint64_t kStream = 1;
constexpr int64_t kStart = 1'000'000'000'000;  // true time of the first record (1000 s)
constexpr int64_t kLatency = 1500;             // ns from a send to the earliest arrival

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Simulation {
 public:
  Simulation(format::TraceWriter* writer, const MpiTraceOptions& o)
      : w_(writer), ranks_(o.ranks), rng_(o.seed) {
    for (uint32_t r = 0; r < ranks_; ++r) {
      Rank rank;
      rank.now = kStart + Uniform(1000);
      if (r != 0) {  // rank 0 is the reference clock
        rank.offset_ns = static_cast<int64_t>(Uniform(20'000'000)) - 10'000'000;  // +-10 ms
        rank.drift_ppm = static_cast<double>(Uniform(200)) - 100.0;               // +-100 ppm
        // Half the ranks measured their offset badly (as on a busy network).
        rank.error_ns = r % 2 ? 2000 : 200;
      }
      ranks_state_.push_back(rank);
    }
  }

  void Define() {
    std::vector<uint8_t> members;
    for (uint32_t r = 0; r < ranks_; ++r) {
      uint8_t buf[kMaxVarintBytes];
      members.insert(members.end(), buf, PutUvarint(buf, r));
    }
    for (uint32_t r = 0; r < ranks_; ++r) {
      for (uint64_t id = 1; id < std::size(kStrings); ++id)
        w_->Def(r, format::StringDef{id, kStrings[id]});
      w_->Def(r, format::ProcessDef{10'000 + r, r, kHost, kExe, 0, 0});
      w_->Def(r, format::StreamDef{kStream, 10'000 + r, 0});
      w_->Def(r, format::CategoryDef{kCatUser, kCatUser});
      w_->Def(r, format::CategoryDef{kCatComm, kCatComm});
      for (uint64_t s : {kIteration, kCompute})
        w_->Def(r, format::StateDef{s, s, kCatUser, 0});
      for (uint64_t s : {kIrecv, kIsend, kWaitall, kAllreduce})
        w_->Def(r, format::StateDef{s, s, kCatComm, 0});
      w_->Def(r,
              format::CommunicatorDef{
                  kWorld, kWorld, 0, 1,
                  std::string_view(reinterpret_cast<const char*>(members.data()), members.size())});
    }
  }

  void MeasureOffsets() {
    for (uint32_t r = 1; r < ranks_; ++r) {
      const Rank& k = ranks_state_[r];
      const int64_t t = k.now;
      const int64_t error = static_cast<int64_t>(Uniform(2 * k.error_ns + 1)) - k.error_ns;
      w_->Def(r, format::ClockOffsetDef{static_cast<uint64_t>(Local(r, t)), t - Local(r, t) + error,
                                        static_cast<uint64_t>(k.error_ns)});
    }
  }

  void Iteration(uint64_t i) {
    for (uint32_t r = 0; r < ranks_; ++r)
      HaloSends(r, i);
    for (uint32_t r = 0; r < ranks_; ++r)
      HaloWait(r);
    if (i % 10 == 9) Allreduce();
  }

  uint64_t events() const { return events_; }

 private:
  struct Rank {
    int64_t now = 0;  // true time
    int64_t offset_ns = 0;
    double drift_ppm = 0;
    int64_t error_ns = 0;
    uint64_t send_match = 0, recv_match = 0;
    int64_t sent_right = 0, sent_left = 0;  // true times of this iteration's sends
    uint64_t match_from_left = 0, match_from_right = 0;
  };

  uint64_t Uniform(uint64_t n) { return n ? SplitMix(&rng_) % n : 0; }

  int64_t Local(uint32_t r, int64_t t) const {
    const Rank& k = ranks_state_[r];
    return t + k.offset_ns +
           static_cast<int64_t>(static_cast<double>(t - kStart) * k.drift_ppm / 1e6);
  }

  template <typename R>
  void Emit(uint32_t r, int64_t t, const R& record) {
    w_->Event(r, kStream, static_cast<uint64_t>(Local(r, t)), record);
    ++events_;
  }
  void Call(uint32_t r, uint64_t state, int64_t duration) {
    Emit(r, ranks_state_[r].now, format::EnterRecord{state, 0});
    ranks_state_[r].now += duration;
    Emit(r, ranks_state_[r].now, format::LeaveRecord{state});
  }

  void HaloSends(uint32_t r, uint64_t i) {
    Rank& k = ranks_state_[r];
    const uint32_t left = (r + ranks_ - 1) % ranks_, right = (r + 1) % ranks_;
    Emit(r, k.now, format::EnterRecord{kIteration, 0});
    k.now += 50;
    // Ranks 3, 7, 11, ... compute 25 % longer; one iteration in 50,000 is 8x slower.
    int64_t compute = 20'000 + static_cast<int64_t>(Uniform(2000));
    if (r % 4 == 3) compute += 5000;
    if ((i * ranks_ + r) % 50'000 == 49'999) compute *= 8;
    Call(r, kCompute, compute);
    k.now += 100;
    k.match_from_left = ++k.recv_match;
    Call(r, kIrecv, 300);
    k.match_from_right = ++k.recv_match;
    Call(r, kIrecv, 300);
    for (int to_right = 1; to_right >= 0; --to_right) {
      Emit(r, k.now, format::EnterRecord{kIsend, 0});
      k.now += 100;
      (to_right ? k.sent_right : k.sent_left) = k.now;
      Emit(r, k.now,
           format::SendRecord{kWorld, to_right ? right : left, to_right ? 1 : 2, 4096, 0,
                              ++k.send_match});
      k.now += 300;
      Emit(r, k.now, format::LeaveRecord{kIsend});
    }
  }

  void HaloWait(uint32_t r) {
    Rank& k = ranks_state_[r];
    const uint32_t left = (r + ranks_ - 1) % ranks_, right = (r + 1) % ranks_;
    Emit(r, k.now, format::EnterRecord{kWaitall, 0});
    // From the left neighbour its send to the right (tag 1), and vice versa.
    int64_t from_left =
        ranks_state_[left].sent_right + kLatency + static_cast<int64_t>(Uniform(500));
    int64_t from_right =
        ranks_state_[right].sent_left + kLatency + static_cast<int64_t>(Uniform(500));
    from_left = std::max(from_left, k.now + 100);
    from_right = std::max(from_right, k.now + 100);
    const bool left_first = from_left <= from_right;
    const int64_t first = left_first ? from_left : from_right;
    const int64_t second = std::max(left_first ? from_right : from_left, first + 50);
    auto recv = [&](bool from_left_side, int64_t t) {
      Emit(r, t,
           format::RecvRecord{kWorld, from_left_side ? left : right, from_left_side ? 1 : 2, 4096,
                              0, from_left_side ? k.match_from_left : k.match_from_right});
    };
    recv(left_first, first);
    recv(!left_first, second);
    k.now = second + 200;
    Emit(r, k.now, format::LeaveRecord{kWaitall});
    k.now += 50;
    Emit(r, k.now, format::LeaveRecord{kIteration});
    k.now += 100;
  }

  void Allreduce() {
    int64_t last = 0;
    for (uint32_t r = 0; r < ranks_; ++r) {
      Emit(r, ranks_state_[r].now, format::EnterRecord{kAllreduce, 0});
      last = std::max(last, ranks_state_[r].now);
    }
    for (uint32_t r = 0; r < ranks_; ++r) {
      Rank& k = ranks_state_[r];
      k.now = last + 3000 + static_cast<int64_t>(Uniform(300));
      Emit(r, k.now - 50, format::CollectiveRecord{8, kWorld, -1, 64, 64});
      Emit(r, k.now, format::LeaveRecord{kAllreduce});
      k.now += 100;
    }
  }

  format::TraceWriter* w_;
  uint32_t ranks_;
  uint64_t rng_;
  std::vector<Rank> ranks_state_;
  uint64_t events_ = 0;
};

}  // namespace

StatusOr<uint64_t> WriteMpiTrace(const std::string& path, const MpiTraceOptions& options) {
  if (options.ranks < 2) return InvalidArgument("WriteMpiTrace: needs at least 2 ranks");
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceWriter> writer,
                       format::TraceWriter::Create(path));
  Simulation sim(writer.get(), options);
  sim.Define();
  sim.MeasureOffsets();
  // Whole iterations until the records reach the target (the last record
  // counts are only known once written: slow iterations and allreduces vary).
  for (uint64_t i = 0; i == 0 || sim.events() < options.events; ++i)
    sim.Iteration(i);
  sim.MeasureOffsets();
  PLX_RETURN_IF_ERROR(writer->Finish());
  return sim.events();
}

std::string CachedMpiTrace(uint64_t events, uint32_t ranks) {
  const char* dir = std::getenv("PLX_BENCH_DIR");
  const std::string name = ranks == 16 ? fmt::format("mpi-trace-{}.plx", events)
                                       : fmt::format("mpi-trace-{}-r{}.plx", events, ranks);
  const std::string path = fmt::format("{}/{}", dir && *dir ? dir : ".", name);
  if (std::filesystem::exists(path)) return path;
  fmt::print(stderr, "writing a synthetic MPI trace of {} events on {} ranks to {} ...\n", events,
             ranks, path);
  const std::string partial = path + ".partial";
  StatusOr<uint64_t> written = WriteMpiTrace(partial, MpiTraceOptions{ranks, events, 1});
  if (!written.ok()) {
    fmt::print(stderr, "error: {}\n", written.status().message());
    std::exit(1);
  }
  std::filesystem::rename(partial, path);
  return path;
}

}  // namespace plx::bench
