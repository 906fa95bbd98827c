// Live ingest over real sockets on 127.0.0.1: a test client replays the
// chunks of a .plx file as MPI ranks would stream them (receives arriving
// before their sends), and the live trace's final snapshot equals the model
// loaded from the file; applied order respects every message; bad input is
// one line and closes only its connection; the window drops old chunks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "format/trace_file.h"
#include "interop/trace_compare.h"
#include "live_test_client.h"
#include "model/load_trace.h"
#include "server/api/api_handlers.h"
#include "server/live/live_listener.h"
#include "server/live/live_publisher.h"
#include "server/live/live_replay.h"
#include "support/test_support.h"
#include "time/message_pairs.h"

namespace plx::server::live {
namespace {

using testing::LiveClient;
using testing::WaitUntil;

constexpr char kToken[] = "00112233445566778899aabbccddeeff";

model::Trace LoadFile(const std::string& path) {
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  auto trace = model::LoadTrace(**file);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return std::move(*trace);
}

// A live server without HTTP: trace, listener, publisher (updated by hand).
struct LiveServer {
  explicit LiveServer(LiveOptions o = {}) : trace((o.token = kToken, o)) {
    listener = std::make_unique<LiveListener>(trace, "127.0.0.1", 0);
    const plx::Status s = listener->Start();
    EXPECT_TRUE(s.ok()) << s.message();
    publisher = std::make_unique<LivePublisher>(trace, store, nullptr);
  }
  LiveStatus Status() { return trace.Status(Clock::now(), false); }

  LiveTrace trace;
  TraceStore store;
  std::unique_ptr<LiveListener> listener;
  std::unique_ptr<LivePublisher> publisher;
};

// Replays `file` with one connection per process: HELLO and DEFS first, then
// the EVENTS chunks of the highest rank whole, then the next lower one, ...
// so that every receive of the ring arrives before its send.
void ReplayReversed(LiveServer& server, const std::string& path) {
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok()) << chunks.status().message();
  std::map<uint32_t, std::unique_ptr<LiveClient>> clients;
  for (const auto& [process, list] : *chunks) {
    clients[process] = std::make_unique<LiveClient>(server.listener->port());
    ASSERT_TRUE(clients[process]->connected());
    clients[process]->Hello(kToken, 1000 + process);
  }
  uint64_t sent = 0;
  for (auto it = chunks->rbegin(); it != chunks->rend(); ++it) {
    for (const auto& c : it->second) {
      format::ChunkHeader h;
      ASSERT_EQ(format::ParseChunkHeader(c.data(), &h), nullptr);
      if (h.type == format::ChunkType::kEvents) sent += h.record_count;
      clients[it->first]->Chunk(c);
    }
    // Each rank's chunks arrive whole before the next rank starts.
    ASSERT_TRUE(WaitUntil([&] { return server.Status().received == sent; }));
  }
  for (auto& [process, client] : clients) {
    client->End(true);
    client->Close();
  }
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "finished"; }));
}

TEST(LiveIngestTest, FinalSnapshotEqualsTheFileAndReceivesFollowSends) {
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 4, 300, 512);
  ASSERT_FALSE(path.empty());
  const model::Trace expected = LoadFile(path);
  ASSERT_GT(expected.messages.size(), 2000u);

  LiveServer server;
  // The batch each chunk was applied in, by (rank, stream, first_index).
  std::mutex mu;
  std::map<std::tuple<int64_t, uint32_t, uint64_t>, uint64_t> applied_in;
  std::map<std::pair<int64_t, uint32_t>, std::vector<format::ChunkHeader>> by_stream;
  server.trace.SetApplyObserver(
      [&](uint32_t, int64_t rank, const format::ChunkHeader& h, uint64_t batch) {
        std::lock_guard lock(mu);
        applied_in[{rank, h.stream, h.first_index}] = batch;
        by_stream[{rank, h.stream}].push_back(h);
      });
  ReplayReversed(server, path);
  server.publisher->UpdateNow();

  const LiveStatus status = server.publisher->status();
  EXPECT_EQ(status.program, "finished");
  EXPECT_EQ(status.received, status.applied);
  EXPECT_EQ(status.forced, 0u);
  EXPECT_EQ(status.missing, 0u);
  EXPECT_EQ(status.bad_input, 0u) << status.last_bad_input;
  EXPECT_GE(status.generation, 1u);
  const time::ConsistentRunStats run = server.trace.RunStats();
  EXPECT_GT(run.max_buffered, 100u);  // receives really waited for their sends

  auto snapshot = server.store.Find("live");
  ASSERT_NE(snapshot, nullptr);
  ASSERT_TRUE(snapshot->ready()) << snapshot->progress().error;
  const model::Trace& actual = snapshot->trace();
  EXPECT_EQ(testing::CompareTraces(expected, actual), std::vector<std::string>{});
  EXPECT_EQ(actual.slices.size(), expected.slices.size());
  EXPECT_EQ(snapshot->pairs().pairs.size(), time::MatchMessages(expected).pairs.size());
  EXPECT_EQ(status.clock, static_cast<double>(expected.end_ns - expected.begin_ns));

  // Every message's send chunk was applied before its receive chunk or with it
  // (a snapshot sees whole batches, so none shows a receive without its send;
  // the oracle: the file's own matching, chunks found by record time).
  const auto chunk_of = [&](const model::Trace& t, uint32_t row) {
    const model::Thread& th = t.threads[t.messages.thread[row]];
    const int64_t rank = t.processes[th.process].rank;
    for (const format::ChunkHeader& h : by_stream[{rank, th.file_stream}])
      if (static_cast<int64_t>(h.tick_begin) <= t.messages.time[row] &&
          t.messages.time[row] <= static_cast<int64_t>(h.tick_end))
        return applied_in.at({rank, th.file_stream, h.first_index});
    ADD_FAILURE() << "no chunk holds message row " << row;
    return uint64_t{0};
  };
  const time::MessagePairs pairs = time::MatchMessages(expected);
  size_t checked = 0;
  std::set<uint64_t> batches;
  for (const time::MessagePair& p : pairs.pairs) {
    ASSERT_LE(chunk_of(expected, p.send), chunk_of(expected, p.recv));
    batches.insert(chunk_of(expected, p.recv));
    ++checked;
  }
  EXPECT_EQ(checked, expected.messages.size() / 2);
  EXPECT_GT(batches.size(), 1u);
}

TEST(LiveIngestTest, BadTokenAndBadChunkCloseOnlyTheirConnection) {
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 2, 50, 256);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  LiveServer server;

  LiveClient intruder(server.listener->port());
  intruder.Hello("ffffffffffffffffffffffffffffffff", 7);
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == 1; }));
  EXPECT_NE(server.Status().last_bad_input.find("wrong token"), std::string::npos)
      << server.Status().last_bad_input;
  EXPECT_EQ(server.Status().processes, 0u);

  // Rank 1 sends its DEFS and two EVENTS chunks, then one with a damaged payload.
  const auto& rank1 = chunks->at(1);
  LiveClient damaged(server.listener->port());
  damaged.Hello(kToken, 101);
  size_t i = 0, events = 0;
  uint64_t good_records = 0;
  for (; i < rank1.size() && events < 2; ++i) {
    format::ChunkHeader h;
    ASSERT_EQ(format::ParseChunkHeader(rank1[i].data(), &h), nullptr);
    if (h.type == format::ChunkType::kEvents) ++events, good_records += h.record_count;
    damaged.Chunk(rank1[i]);
  }
  std::vector<uint8_t> bad = rank1[i];
  bad.back() ^= 0x55;
  damaged.Chunk(bad);
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == 2; }));
  const std::string line = server.Status().last_bad_input;
  EXPECT_NE(line.find("live: connection"), std::string::npos) << line;
  EXPECT_NE(line.find("(pid 101, testhost)"), std::string::npos) << line;
  EXPECT_NE(line.find("offset "), std::string::npos) << line;
  EXPECT_NE(line.find("payload checksum mismatch"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);

  // Rank 0 streams everything; it is unaffected.
  LiveClient good(server.listener->port());
  good.Hello(kToken, 100);
  uint64_t rank0_records = 0;
  for (const auto& c : chunks->at(0)) {
    format::ChunkHeader h;
    ASSERT_EQ(format::ParseChunkHeader(c.data(), &h), nullptr);
    if (h.type == format::ChunkType::kEvents) rank0_records += h.record_count;
    good.Chunk(c);
  }
  good.End(true);
  good.Close();
  damaged.Close();
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "finished"; }));
  server.publisher->UpdateNow();  // flushes what waits for rank 1's lost sends
  const LiveStatus s = server.publisher->status();
  EXPECT_EQ(s.received, rank0_records + good_records);
  EXPECT_EQ(s.applied, s.received);  // what the damaged connection sent before stays
  EXPECT_EQ(s.bad_input, 2u);
  EXPECT_EQ(s.processes, 2u);
  auto snapshot = server.store.Find("live");
  ASSERT_TRUE(snapshot->ready());
  EXPECT_EQ(snapshot->trace().processes.size(), 2u);
  EXPECT_EQ(snapshot->trace().stats.records, s.applied);
}

TEST(LiveIngestTest, BadFramesAreOneLineAndNeverCrash) {
  LiveServer server;
  const std::vector<std::vector<uint8_t>> junk = {
      {0xff, 0xff, 0xff, 0xff, 2},  // length beyond the bound
      {3, 0, 0, 0, 9, 1, 2},        // unknown kind
      {1, 0, 0, 0, 2},              // CHUNK before HELLO
  };
  uint64_t bad = 0;
  for (const auto& bytes : junk) {
    LiveClient c(server.listener->port());
    c.Raw(bytes);
    ++bad;
    ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == bad; }))
        << server.Status().last_bad_input;
    EXPECT_NE(server.Status().last_bad_input.find("offset 0"), std::string::npos)
        << server.Status().last_bad_input;
  }
  // A HELLO then a chunk with a bad header magic.
  LiveClient c(server.listener->port());
  c.Hello(kToken, 5);
  c.Chunk(std::vector<uint8_t>(64, 0x11));
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == bad + 1; }));
  EXPECT_NE(server.Status().last_bad_input.find("chunk header: bad chunk magic"), std::string::npos)
      << server.Status().last_bad_input;
}

TEST(LiveIngestTest, WindowDropsOldChunksAndKeepsTraceTime) {
  testing::TempDir dir;
  // 20000 slices, one every 1 ms: 20 s of trace time.
  const std::string path = testing::WriteLongTrace(dir.path(), 20000, 1'000'000, 2048);
  ASSERT_FALSE(path.empty());
  const model::Trace full = LoadFile(path);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());

  LiveOptions o;
  o.window_seconds = 2;
  LiveServer server(o);
  LiveClient client(server.listener->port());
  client.Hello(kToken, 42);
  uint64_t records = 0;
  for (const auto& c : chunks->at(0)) {
    format::ChunkHeader h;
    ASSERT_EQ(format::ParseChunkHeader(c.data(), &h), nullptr);
    if (h.type == format::ChunkType::kEvents) records += h.record_count;
    client.Chunk(c);
  }
  client.End(true);
  client.Close();
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "finished"; }));
  server.publisher->UpdateNow();
  const LiveStatus s = server.publisher->status();
  EXPECT_EQ(s.applied, records);
  EXPECT_GT(s.dropped, records * 3 / 4);
  EXPECT_LT(s.dropped, records);
  const double duration = static_cast<double>(full.end_ns - full.begin_ns);
  EXPECT_GT(s.window_from, duration - 2.5e9);
  EXPECT_LT(s.window_from, duration - 1.9e9);
  EXPECT_EQ(s.clock, duration);  // trace time still starts at the run's start

  auto snapshot = server.store.Find("live");
  ASSERT_TRUE(snapshot->ready());
  const model::Trace& t = snapshot->trace();
  EXPECT_EQ(t.begin_ns, full.begin_ns);
  EXPECT_EQ(t.end_ns, full.end_ns);
  EXPECT_LT(t.slices.size(), full.slices.size() / 4);
  EXPECT_GT(t.slices.size(), 1500u);
  for (size_t i = 0; i < t.slices.size(); ++i)
    ASSERT_GE(t.slices.begin[i], full.end_ns - 2'600'000'000) << i;
  EXPECT_EQ(server.trace.DroppedByConnection().begin()->second, s.dropped);

  // The dropped slices are the stream's first ones: those that ended in
  // dropped chunks. One that began in them and ends in the window is in
  // neither (the snapshot sees its leave without its enter).
  const WindowDropped* d = snapshot->dropped();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->records, s.dropped);
  ASSERT_EQ(d->states.size(), 1u);
  const WindowDropped::State& compute = d->states.at("compute");
  EXPECT_EQ(compute.count + t.slices.size() + t.stats.leave_without_enter, full.slices.size());
  EXPECT_GT(compute.count, full.slices.size() * 3 / 4);
  int64_t total = 0;
  for (size_t i = 0; i < compute.count; ++i)
    total += full.slices.end[i] - full.slices.begin[i];
  EXPECT_EQ(compute.total_ns, total);
  EXPECT_EQ(d->sends + d->receives, 0u);
}

TEST(LiveIngestTest, WindowSummarisesWhatItDropsPerStateAndMessages) {
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 4, 300, 512);
  ASSERT_FALSE(path.empty());
  const model::Trace full = LoadFile(path);
  LiveOptions o;
  o.window_bytes = 16 << 10;
  LiveServer server(o);
  ReplayReversed(server, path);
  server.publisher->UpdateNow();
  auto snapshot = server.store.Find("live");
  ASSERT_TRUE(snapshot->ready()) << snapshot->progress().error;
  const model::Trace& t = snapshot->trace();
  const WindowDropped* d = snapshot->dropped();
  ASSERT_NE(d, nullptr);
  ASSERT_GT(d->records, 0u);
  EXPECT_EQ(d->records, server.publisher->status().dropped);

  // Per state: what was dropped, plus what the window holds, plus the slices
  // cut by its edge (a leave without its enter) is everything.
  std::map<std::string, uint64_t> full_count, kept_count;
  std::map<std::string, int64_t> full_total;
  for (size_t i = 0; i < full.slices.size(); ++i) {
    ++full_count[full.states[full.slices.state[i]].name];
    full_total[full.states[full.slices.state[i]].name] += full.slices.end[i] - full.slices.begin[i];
  }
  for (size_t i = 0; i < t.slices.size(); ++i)
    ++kept_count[t.states[t.slices.state[i]].name];
  uint64_t dropped_slices = 0;
  for (const auto& [name, state] : d->states) {
    ASSERT_TRUE(full_count.contains(name)) << name;
    EXPECT_LE(state.count + kept_count[name], full_count[name]) << name;
    EXPECT_GE(state.count + kept_count[name] + t.stats.leave_without_enter, full_count[name]);
    EXPECT_LT(state.total_ns, full_total[name]) << name;
    EXPECT_GT(state.total_ns, 0) << name;
    dropped_slices += state.count;
  }
  EXPECT_EQ(d->states.size(), 3u);  // compute, MPI_Send, MPI_Recv
  EXPECT_EQ(dropped_slices + t.slices.size() + t.stats.leave_without_enter, full.slices.size());
  // Every send and receive is either dropped or in the window.
  uint64_t sends = 0, receives = 0, bytes = 0, full_bytes = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    (t.messages.is_send[i] ? sends : receives) += 1;
    if (t.messages.is_send[i]) bytes += t.messages.bytes[i];
  }
  for (size_t i = 0; i < full.messages.size(); ++i)
    if (full.messages.is_send[i]) full_bytes += full.messages.bytes[i];
  EXPECT_EQ(d->sends + sends, full.messages.size() / 2);
  EXPECT_EQ(d->receives + receives, full.messages.size() / 2);
  EXPECT_EQ(d->bytes_sent + bytes, full_bytes);
  EXPECT_GT(d->sends, 0u);

  // GET /stats of the live trace carries it (scope all only).
  auto all = handlers::Stats(*snapshot, *QueryParams::Parse(""));
  ASSERT_EQ(all.status, 200) << all.body;
  const handlers::Json body = handlers::Json::parse(all.body);
  EXPECT_EQ(body["dropped"]["records"], d->records);
  EXPECT_EQ(body["dropped"]["states"].size(), 3u);
  EXPECT_EQ(body["dropped"]["sends"], d->sends);
  auto one = handlers::Stats(*snapshot, *QueryParams::Parse("process=0"));
  EXPECT_TRUE(handlers::Json::parse(one.body)["dropped"].is_null());
}

TEST(LiveIngestTest, WindowBytesBoundMemory) {
  testing::TempDir dir;
  const std::string path = testing::WriteLongTrace(dir.path(), 20000, 1000, 1024);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  LiveOptions o;
  o.window_bytes = 4 << 10;
  LiveServer server(o);
  LiveClient client(server.listener->port());
  client.Hello(kToken, 42);
  uint64_t bytes = 0, max_kept = 0;
  for (const auto& c : chunks->at(0)) {
    bytes += c.size();
    client.Chunk(c);
    max_kept = std::max(max_kept, server.trace.KeptBytes());
  }
  client.End(true);
  client.Close();
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "finished"; }));
  ASSERT_GT(bytes, 16u << 10);
  EXPECT_LE(server.trace.KeptBytes(), 4u << 10);
  EXPECT_LE(max_kept, 4u << 10);
  EXPECT_GT(server.Status().dropped, 0u);
}

TEST(LiveIngestTest, CompressedChunksAreKeptDecompressed) {
  testing::TempDir dir;
  const std::string path = testing::WriteLongTrace(dir.path(), 5000, 1000, 1024);
  const model::Trace expected = LoadFile(path);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  uint64_t compressed = 0, raw_bytes = 0;
  for (const auto& c : chunks->at(0)) {
    format::ChunkHeader h;
    ASSERT_EQ(format::ParseChunkHeader(c.data(), &h), nullptr);
    if (h.type != format::ChunkType::kEvents) continue;
    if (h.codec == format::Codec::kZstd) ++compressed;
    raw_bytes += format::kChunkHeaderSize + h.raw_size;
  }
  ASSERT_GT(compressed, 3u);

  LiveServer server;
  std::mutex mu;
  std::vector<format::ChunkHeader> applied;
  server.trace.SetApplyObserver([&](uint32_t, int64_t, const format::ChunkHeader& h, uint64_t) {
    std::lock_guard lock(mu);
    applied.push_back(h);
  });
  LiveClient client(server.listener->port());
  client.Hello(kToken, 42);
  for (const auto& c : chunks->at(0))
    client.Chunk(c);
  client.End(true);
  client.Close();
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "finished"; }));
  server.publisher->UpdateNow();

  // Applied and kept uncompressed, so no snapshot decompresses them again.
  std::lock_guard lock(mu);
  ASSERT_FALSE(applied.empty());
  for (const format::ChunkHeader& h : applied) {
    EXPECT_EQ(h.codec, format::Codec::kNone);
    EXPECT_EQ(h.stored_size, h.raw_size);
  }
  EXPECT_EQ(server.trace.KeptBytes(), raw_bytes);
  auto snapshot = server.store.Find("live");
  ASSERT_TRUE(snapshot->ready()) << snapshot->progress().error;
  EXPECT_EQ(testing::CompareTraces(expected, snapshot->trace()), std::vector<std::string>{});
  EXPECT_EQ(snapshot->trace().slices.size(), 5000u);
}

TEST(LiveIngestTest, ConnectionClosedWithoutEndIsACrash) {
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 2, 20, 256);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  LiveServer server;
  EXPECT_EQ(server.Status().program, "waiting");
  LiveClient a(server.listener->port()), b(server.listener->port());
  a.Hello(kToken, 1);
  b.Hello(kToken, 2);
  for (const auto& c : chunks->at(0))
    a.Chunk(c);
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "running"; }));
  a.End(true);
  a.Close();
  b.Close();  // no END: abnormal termination
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "crashed"; }));
}

}  // namespace
}  // namespace plx::server::live
