// Live ingest (`parallax serve --listen`, src/server/live/) on the synthetic
// MPI trace (mpi_trace_gen.h), its 16 ranks replayed as 16 live streams:
//   1. ingest through LiveSession on one thread: frame cutting, chunk
//      checks and decoding, message keys, consistent-run construction and
//      the history window — events per second;
//   2. the same through real sockets on 127.0.0.1 (LiveListener, its few reader
//      threads; one sender thread) until every record is applied;
//   3. building a snapshot of the whole run (image, TraceFile, model, causal
//      repair, timeline index), and the lag of that update (the newest
//      chunk's arrival to the snapshot being ready). Every snapshot is built
//      from the whole window, so the display lag is about one build.
// PLX_BENCH_EVENTS: comma-separated trace sizes (default 1000000,5000000);
// PLX_BENCH_DIR: where generated traces are kept.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/mpi_trace_gen.h"
#include "format/layout.h"
#include "server/live/live_frame.h"
#include "server/live/live_listener.h"
#include "server/live/live_publisher.h"
#include "server/live/live_replay.h"
#include "server/live/live_session.h"

namespace {

using namespace plx::server;
using Seconds = std::chrono::duration<double>;
using Clock = std::chrono::steady_clock;

constexpr char kToken[] = "bench";

std::vector<uint64_t> Sizes() {
  const char* v = std::getenv("PLX_BENCH_EVENTS");
  std::string s = v && *v ? v : "1000000,5000000";
  std::vector<uint64_t> out;
  for (size_t at = 0; at < s.size();) {
    size_t comma = s.find(',', at);
    if (comma == std::string::npos) comma = s.size();
    out.push_back(std::strtoull(s.substr(at, comma - at).c_str(), nullptr, 10));
    at = comma + 1;
  }
  return out;
}

// Per process: its frames (HELLO, each chunk, END) as a client sends them.
struct Streams {
  std::vector<std::vector<std::vector<uint8_t>>> frames;  // process -> frames
  uint64_t records = 0;
  uint64_t bytes = 0;
};

Streams Prepare(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> file{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
  auto chunks = live::ChunksByProcess(file);
  if (!chunks.ok()) {
    std::fprintf(stderr, "error: %s\n", chunks.status().message().c_str());
    std::exit(1);
  }
  Streams s;
  for (auto& [process, list] : *chunks) {
    std::vector<std::vector<uint8_t>> frames(1);
    live::Hello h;
    h.protocol = live::kProtocol;
    h.token = kToken;
    h.format_major = 1;
    h.pid = 1000 + process;
    const std::string hello = live::HelloJson(h);
    live::AppendFrame(live::FrameKind::kHello, hello.data(), hello.size(), &frames[0]);
    for (const auto& c : list) {
      plx::format::ChunkHeader header;
      plx::format::ParseChunkHeader(c.data(), &header);
      if (header.type == plx::format::ChunkType::kEvents) s.records += header.record_count;
      frames.emplace_back();
      live::AppendFrame(live::FrameKind::kChunk, c.data(), c.size(), &frames.back());
      s.bytes += c.size();
    }
    live::End e;
    e.finished = true;
    const std::string end = live::EndJson(e);
    frames.emplace_back();
    live::AppendFrame(live::FrameKind::kEnd, end.data(), end.size(), &frames.back());
    s.frames.push_back(std::move(frames));
  }
  return s;
}

live::LiveOptions Options() {
  live::LiveOptions o;
  o.token = kToken;
  o.window_seconds = 3600;  // keep everything: the snapshot holds the whole run
  o.window_bytes = uint64_t{8} << 30;
  return o;
}

// Round-robin over the processes, one frame each, as interleaved streams arrive.
template <typename Send>
void RoundRobin(const Streams& s, Send send) {
  for (size_t i = 0;; ++i) {
    bool any = false;
    for (size_t p = 0; p < s.frames.size(); ++p)
      if (i < s.frames[p].size()) send(p, s.frames[p][i]), any = true;
    if (!any) return;
  }
}

void IngestOneThread(const Streams& s, uint64_t events) {
  live::LiveTrace trace(Options());
  std::vector<std::unique_ptr<live::LiveSession>> sessions;
  for (size_t p = 0; p < s.frames.size(); ++p)
    sessions.push_back(std::make_unique<live::LiveSession>(trace, "bench"));
  const auto start = Clock::now();
  RoundRobin(
      s, [&](size_t p, const std::vector<uint8_t>& f) { sessions[p]->Feed(f.data(), f.size()); });
  for (auto& session : sessions)
    session->Close();
  trace.FlushIfStalled(Clock::now());
  const double secs = Seconds(Clock::now() - start).count();
  const LiveStatus st = trace.Status(Clock::now(), false);
  const plx::time::ConsistentRunStats run = trace.RunStats();
  std::printf(
      "%-10llu ingest, 1 thread (sessions)  %8.3f s  %6.2f M events/s  %7.1f MB/s  "
      "applied %llu/%llu, forced %llu, run max held %zu\n",
      static_cast<unsigned long long>(events), secs, st.applied / secs / 1e6, s.bytes / secs / 1e6,
      static_cast<unsigned long long>(st.applied), static_cast<unsigned long long>(st.received),
      static_cast<unsigned long long>(st.forced), run.max_buffered);
}

void IngestSockets(const Streams& s, uint64_t events) {
  live::LiveTrace trace(Options());
  TraceStore store;
  live::LivePublisher publisher(trace, store, nullptr);
  live::LiveListener listener(trace, "127.0.0.1", 0);
  if (!listener.Start().ok()) std::exit(1);
  std::vector<int> fds;
  for (size_t p = 0; p < s.frames.size(); ++p) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(listener.port());
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) std::exit(1);
    fds.push_back(fd);
  }
  const auto start = Clock::now();
  RoundRobin(s, [&](size_t p, const std::vector<uint8_t>& f) {
    for (size_t done = 0; done < f.size();) {
      const ssize_t n = ::send(fds[p], f.data() + done, f.size() - done, MSG_NOSIGNAL);
      if (n <= 0) std::exit(1);
      done += static_cast<size_t>(n);
    }
  });
  for (int fd : fds)
    ::close(fd);
  while (trace.Status(Clock::now(), false).applied < s.records)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  const double secs = Seconds(Clock::now() - start).count();
  std::printf("%-10llu ingest, sockets (16 conns)   %8.3f s  %6.2f M events/s  %7.1f MB/s\n",
              static_cast<unsigned long long>(events), secs, s.records / secs / 1e6,
              s.bytes / secs / 1e6);

  // Snapshot of the whole run: the first build, then one after nothing changed
  // but the version (the build a viewer waits for each update).
  const auto t0 = Clock::now();
  publisher.UpdateNow();
  const double build = Seconds(Clock::now() - t0).count();
  const LiveStatus st = publisher.status();
  std::printf(
      "%-10llu snapshot build (image, load, repair, index)  %8.3f s  "
      "(%llu records applied, %.1f MB of chunks, lag of that update %.0f ms)\n",
      static_cast<unsigned long long>(events), build, static_cast<unsigned long long>(st.applied),
      s.bytes / 1e6, st.lag_ms);
  publisher.Stop();
  listener.Stop();
}

}  // namespace

int main() {
  for (uint64_t events : Sizes()) {
    const std::string path = plx::bench::CachedMpiTrace(events);
    const Streams s = Prepare(path);
    IngestOneThread(s, events);
    IngestSockets(s, events);
  }
  return 0;
}
