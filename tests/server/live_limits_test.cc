// The live port's bounds on real sockets on 127.0.0.1: a peer costs nothing
// before its HELLO proved the token, then only the bytes it sent; peers
// without a HELLO are closed after the deadline, and the oldest when too
// many wait; threads do not grow with connections; a real stream still
// works after a flood.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "format/layout.h"
#include "live_test_client.h"
#include "server/live/live_listener.h"
#include "server/live/live_replay.h"
#include "support/test_support.h"

namespace plx::server::live {
namespace {

using testing::LiveClient;
using testing::WaitUntil;

constexpr char kToken[] = "00112233445566778899aabbccddeeff";

// A field of /proc/self/status ("VmRSS:" in kB, "Threads:").
long ProcStatus(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  return -1;
}

// A frame header declaring `length` bytes of kind `kind`, and no payload.
std::vector<uint8_t> Header(uint32_t length, FrameKind kind) {
  return {static_cast<uint8_t>(length), static_cast<uint8_t>(length >> 8),
          static_cast<uint8_t>(length >> 16), static_cast<uint8_t>(length >> 24),
          static_cast<uint8_t>(kind)};
}

// A HELLO frame with `token`.
std::vector<uint8_t> HelloFrame(const std::string& token) {
  Hello h;
  h.protocol = kProtocol;
  h.token = token;
  h.format_major = 1;
  h.pid = 1;
  const std::string json = HelloJson(h);
  std::vector<uint8_t> out;
  AppendFrame(FrameKind::kHello, json.data(), json.size(), &out);
  return out;
}

// True once the server closed `fd` (a read sees the end), within the wait.
bool ClosedByServer(int fd) {
  return WaitUntil([fd] {
    char byte;
    const ssize_t n = ::recv(fd, &byte, 1, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  });
}

// Raises the soft descriptor limit so one process can hold both ends of
// `connections` sockets; returns how many it can hold.
size_t AllowDescriptors(size_t connections) {
  rlimit r{};
  getrlimit(RLIMIT_NOFILE, &r);
  const rlim_t want = 2 * connections + 256;
  if (r.rlim_cur < want) {
    r.rlim_cur = std::min(want, r.rlim_max);
    setrlimit(RLIMIT_NOFILE, &r);
    getrlimit(RLIMIT_NOFILE, &r);
  }
  return std::min<size_t>(connections, (r.rlim_cur - 256) / 2);
}

struct Server {
  explicit Server(LiveOptions o) : trace((o.token = kToken, o)), listener(trace, "127.0.0.1", 0) {
    const plx::Status s = listener.Start();
    EXPECT_TRUE(s.ok()) << s.message();
  }
  LiveStatus Status() { return trace.Status(Clock::now(), false); }
  LiveTrace trace;
  LiveListener listener;
};

TEST(LiveLimitsTest, DeclaredChunksCostNothingWithoutTheToken) {
  Server server(LiveOptions{});
  const long rss_before = ProcStatus("VmRSS:");
  constexpr uint32_t k64MiB = 64u << 20;
  // 16 peers declare a 64 MiB chunk: 8 as their first frame, 8 right after
  // a HELLO with a wrong token, in the same write.
  std::vector<std::unique_ptr<LiveClient>> peers;
  for (int i = 0; i < 16; ++i) {
    peers.push_back(std::make_unique<LiveClient>(server.listener.port()));
    std::vector<uint8_t> bytes = i < 8 ? std::vector<uint8_t>{} : HelloFrame("wrong");
    const std::vector<uint8_t> header = Header(k64MiB, FrameKind::kChunk);
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.resize(bytes.size() + 4096, 0x5a);
    peers.back()->Raw(bytes);
  }
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == 16; }))
      << server.Status().bad_input << " " << server.Status().last_bad_input;
  for (const auto& p : peers)
    EXPECT_TRUE(ClosedByServer(p->fd()));
  EXPECT_LT(ProcStatus("VmRSS:") - rss_before, 32 << 10);  // kB: far below one chunk
  EXPECT_EQ(server.Status().processes, 0u);

  // With the token, a declared chunk costs the bytes that came, not its length.
  std::vector<std::unique_ptr<LiveClient>> holders;
  for (int i = 0; i < 16; ++i) {
    holders.push_back(std::make_unique<LiveClient>(server.listener.port()));
    std::vector<uint8_t> bytes = HelloFrame(kToken);
    const std::vector<uint8_t> header = Header(k64MiB, FrameKind::kChunk);
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.resize(bytes.size() + 1024, 0x5a);
    holders.back()->Raw(bytes);
  }
  ASSERT_TRUE(WaitUntil([&] { return server.Status().connections == 16; }));
  EXPECT_LT(ProcStatus("VmRSS:") - rss_before, 32 << 10);
}

TEST(LiveLimitsTest, IdlePeersAreClosedAndThreadsStayFew) {
  const size_t n = AllowDescriptors(2000);
  LiveOptions o;
  o.hello_timeout = std::chrono::milliseconds(500);
  o.max_unauthenticated = n;  // only the deadline closes them here
  Server server(o);
  const long threads_before = ProcStatus("Threads:");
  std::vector<std::unique_ptr<LiveClient>> idle;
  for (size_t i = 0; i < n; ++i) {
    idle.push_back(std::make_unique<LiveClient>(server.listener.port()));
    ASSERT_TRUE(idle.back()->connected()) << i;
  }
  // A connection is accepted, held, then closed after the deadline.
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input > 0; }));
  EXPECT_LE(ProcStatus("Threads:"), threads_before + 1);  // no thread per connection
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == n; }))
      << server.Status().bad_input << " of " << n;
  EXPECT_NE(server.Status().last_bad_input.find("no valid HELLO within 500 ms"), std::string::npos)
      << server.Status().last_bad_input;
  for (const auto& c : idle)
    EXPECT_TRUE(ClosedByServer(c->fd()));
  EXPECT_TRUE(WaitUntil([&] { return server.listener.connections() == 0; }));
  idle.clear();

  // A real stream still works.
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 1, 50, 256);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  LiveClient good(server.listener.port());
  good.Hello(kToken, 100);
  uint64_t records = 0;
  for (const auto& c : chunks->at(0)) {
    format::ChunkHeader h;
    ASSERT_EQ(format::ParseChunkHeader(c.data(), &h), nullptr);
    if (h.type == format::ChunkType::kEvents) records += h.record_count;
    good.Chunk(c);
  }
  good.End(true);
  good.Close();
  ASSERT_TRUE(WaitUntil([&] { return server.Status().program == "finished"; }));
  EXPECT_EQ(server.Status().received, records);
  EXPECT_EQ(server.Status().bad_input, n);
}

TEST(LiveLimitsTest, TooManyPeersWithoutHelloCloseTheOldest) {
  LiveOptions o;
  o.max_unauthenticated = 8;
  o.reader_threads = 2;
  Server server(o);
  std::vector<std::unique_ptr<LiveClient>> idle;
  for (int i = 0; i < 40; ++i)
    idle.push_back(std::make_unique<LiveClient>(server.listener.port()));
  ASSERT_TRUE(WaitUntil([&] { return server.Status().bad_input == 32; }))
      << server.Status().bad_input;
  EXPECT_NE(server.Status().last_bad_input.find("too many connections without a HELLO"),
            std::string::npos)
      << server.Status().last_bad_input;
  EXPECT_TRUE(ClosedByServer(idle.front()->fd()));  // the oldest went first
  EXPECT_EQ(server.listener.connections(), 8u);
  // One that proves the token joins. Its reader, one over its share, may
  // close its oldest waiting peer first (when the HELLO was not there yet
  // as the connection was taken): every peer is one or the other.
  LiveClient good(server.listener.port());
  good.Hello(kToken, 7);
  ASSERT_TRUE(WaitUntil([&] { return server.Status().connections == 1; }));
  const uint64_t refused = server.Status().bad_input;
  EXPECT_TRUE(refused == 32 || refused == 33) << refused;
  EXPECT_EQ(server.listener.connections() + refused, 41u);
}

}  // namespace
}  // namespace plx::server::live
