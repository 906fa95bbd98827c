// A soak test of `parallax serve --listen` as a real process on 127.0.0.1:
// for PLX_SOAK_SECONDS (default 5; `make soak` runs 600) it serves HTTP
// clients on keep-alive connections, WebSocket viewers that never read,
// idle connections on both ports, malformed live peers (junk, wrong token,
// a declared 64 MiB chunk) and good live streams, one a second. It
// must stay up, keep answering, take every record of the good streams,
// keep its threads few, and end near the memory it started with.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <thread>
#include <vector>

#include "format/layout.h"
#include "live_test_client.h"
#include "server/live/live_replay.h"
#include "support/test_support.h"

namespace plx::server::live {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using testing::LiveClient;
using Clock = std::chrono::steady_clock;

using testing::kSanitized;

// A field of /proc/PID/status ("VmRSS:" in kB, "Threads:").
long ProcStatus(int pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  return -1;
}

// GET target on a fresh connection; the status and body (0 on failure).
std::pair<int, std::string> Get(uint16_t port, const std::string& target) {
  try {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    stream.expires_after(std::chrono::seconds(30));
    http::request<http::string_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return {res.result_int(), res.body()};
  } catch (const std::exception&) {
    return {0, ""};
  }
}

TEST(ServeSoakTest, StaysUpAnswersAndReturnsToItsMemory) {
  const char* env = std::getenv("PLX_SOAK_SECONDS");
  const int seconds = env != nullptr ? std::atoi(env) : 5;
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 2, 200, 512);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  uint64_t records_per_run = 0;
  for (const auto& [process, list] : *chunks)
    for (const auto& c : list) {
      format::ChunkHeader h;
      if (format::ParseChunkHeader(c.data(), &h) == nullptr && h.type == format::ChunkType::kEvents)
        records_per_run += h.record_count;
    }

  // Every good run replays the same recorded chunks, so their times never
  // move the window on: only --window-bytes bounds what it keeps (at the
  // default of 1G, ten minutes of runs grow the server by 250 MB, by design).
  testing::ChildProcess serve({testing::BuildPath("src/cli/parallax"), "serve", "--listen",
                               "127.0.0.1:0", "--no-browser", "--window", "2", "--window-bytes",
                               "1M"});
  ASSERT_TRUE(serve.started());
  std::string url, live;
  ASSERT_TRUE(serve.ReadLine(&url, 20000));
  ASSERT_TRUE(serve.ReadLine(&live, 20000));
  std::smatch m, l;
  ASSERT_TRUE(std::regex_search(url, m, std::regex(R"(:(\d+)/\?token=(\w+))"))) << url;
  ASSERT_TRUE(std::regex_search(live, l, std::regex(R"(PLX_LIVE=127\.0\.0\.1:(\d+))"))) << live;
  const auto http_port = static_cast<uint16_t>(std::stoi(m[1]));
  const std::string token = m[2];
  const auto live_port = static_cast<uint16_t>(std::stoi(l[1]));
  // The server's stderr lines (refused peers) must not fill the pipe.
  std::thread drain([&] {
    std::string line;
    while (serve.ReadLine(&line, 600000)) {
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const long rss_start = ProcStatus(serve.pid(), "VmRSS:");
  const long threads_start = ProcStatus(serve.pid(), "Threads:");

  const auto end = Clock::now() + std::chrono::seconds(seconds);
  std::atomic<uint64_t> answered{0}, failed{0}, runs{0};
  std::vector<std::thread> load;
  for (int i = 0; i < 4; ++i)  // API clients
    load.emplace_back([&] {
      while (Clock::now() < end) {
        const auto [status, body] = Get(http_port, "/api/v1/traces/live/live?token=" + token);
        (status == 200 ? answered : failed)++;
        Get(http_port, "/api/v1/traces?token=" + token + "&%zz");  // junk query
      }
    });
  load.emplace_back([&] {  // viewers that never read, flooding pings
    while (Clock::now() < end) {
      try {
        net::io_context ioc;
        beast::websocket::stream<tcp::socket> ws(ioc);
        ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), http_port));
        ws.handshake("127.0.0.1", "/api/v1/ws?token=" + token);
        for (int k = 0; k < 300 && Clock::now() < end; ++k)
          ws.write(net::buffer(std::string(R"({"type":"ping"})")));
      } catch (const std::exception&) {
      }
    }
  });
  load.emplace_back([&] {  // malformed live peers
    std::mt19937 rng(7);
    while (Clock::now() < end) {
      LiveClient peer(live_port);
      std::vector<uint8_t> junk(64 + rng() % 4096);
      for (auto& b : junk)
        b = static_cast<uint8_t>(rng());
      switch (rng() % 3) {
        case 0:
          peer.Raw(junk);
          break;
        case 1:
          peer.Hello("wrong", 1);
          break;
        default:
          peer.Raw({0x00, 0x00, 0x00, 0x04, 2});
          break;  // a 64 MiB chunk, no token
      }
    }
  });
  load.emplace_back([&] {  // good streams: a run every second (each adds two processes)
    for (auto next = Clock::now(); next < end; next += std::chrono::seconds(1)) {
      std::this_thread::sleep_until(next);
      std::vector<std::unique_ptr<LiveClient>> clients;
      for (const auto& [process, list] : *chunks) {
        clients.push_back(std::make_unique<LiveClient>(live_port));
        clients.back()->Hello(token, 900 + process);
      }
      size_t c = 0;
      for (const auto& [process, list] : *chunks) {
        for (const auto& chunk : list)
          clients[c]->Chunk(chunk);
        clients[c++]->End(true);
      }
      ++runs;
    }
  });
  std::vector<int> idle;  // held on both ports throughout
  for (int i = 0; i < 200; ++i) {
    LiveClient a(http_port), b(live_port);
    idle.push_back(::dup(a.fd()));
    idle.push_back(::dup(b.fd()));
  }
  for (auto& t : load)
    t.join();
  for (int fd : idle)
    ::close(fd);

  ASSERT_TRUE(serve.Running()) << "the server died";
  EXPECT_GT(answered.load(), 0u);
  EXPECT_EQ(failed.load(), 0u);
  // Every record of every good run arrives.
  json status;
  EXPECT_TRUE(testing::WaitUntil([&] {
    const auto [code, body] = Get(http_port, "/api/v1/traces/live/live?token=" + token);
    if (code != 200) return false;
    status = json::parse(body, nullptr, false);
    return status.is_object() && status.value("received", 0ull) == runs * records_per_run;
  })) << status.dump()
      << " runs " << runs.load();
  EXPECT_GT(status.value("bad_input", 0ull), 0u);
  EXPECT_LE(ProcStatus(serve.pid(), "Threads:"), threads_start + 2);
  // Memory: what the window holds (at most 1 MiB of chunks), not what the
  // peers sent or declared; jemalloc gives pages back within seconds. (ASan keeps
  // freed memory in its quarantine: not measured there.)
  long rss_end = 0;
  if (!kSanitized) {
    EXPECT_TRUE(testing::WaitUntil(
        [&] { return (rss_end = ProcStatus(serve.pid(), "VmRSS:")) < rss_start + 64 * 1024; },
        std::chrono::seconds(30)))
        << "RSS " << rss_start / 1024 << " MB at the start, " << rss_end / 1024 << " MB at the end";
  }
  std::printf(
      "soak %d s: %llu API answers, %llu peers refused, %llu good runs; "
      "threads %ld -> %ld, RSS %ld -> %ld MB\n",
      seconds, static_cast<unsigned long long>(answered.load()),
      static_cast<unsigned long long>(status.value("bad_input", 0ull)),
      static_cast<unsigned long long>(runs.load()), threads_start,
      ProcStatus(serve.pid(), "Threads:"), rss_start / 1024, rss_end / 1024);
  serve.Signal(SIGINT);
  drain.join();  // the output's end
  serve.Wait();
}

}  // namespace
}  // namespace plx::server::live
