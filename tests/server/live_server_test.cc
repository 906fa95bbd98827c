// The live trace behind the HTTP server, on real sockets: viewers get `live`
// WebSocket messages with increasing generations while a program streams; a
// WebSocket client that never reads stalls neither ingest nor other viewers;
// /live and TraceEntry.live; and `parallax serve --listen` end to end.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "live_test_client.h"
#include "server/http/http_server.h"
#include "server/live/live_listener.h"
#include "server/live/live_publisher.h"
#include "server/live/live_replay.h"
#include "support/test_support.h"

namespace plx::server::live {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using testing::LiveClient;
using testing::WaitUntil;

constexpr char kToken[] = "0123456789abcdef0123456789abcdef";

std::pair<int, std::string> Get(uint16_t port, const std::string& target) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::authorization, std::string("Bearer ") + kToken);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return {static_cast<int>(res.result_int()), res.body()};
}

// Streams `chunks` (process -> chunks) over one connection per process,
// round-robin, pausing every second round (`pause`, else 40 ms) so several
// snapshots happen.
void Stream(uint16_t port, const std::map<uint32_t, std::vector<std::vector<uint8_t>>>& chunks,
            const std::string& token, const std::function<void()>& pause = {}) {
  std::vector<std::unique_ptr<LiveClient>> clients;
  for (const auto& [process, list] : chunks) {
    clients.push_back(std::make_unique<LiveClient>(port));
    clients.back()->Hello(token, 500 + process);
  }
  for (size_t i = 0;; ++i) {
    bool any = false;
    size_t c = 0;
    for (const auto& [process, list] : chunks) {
      if (i < list.size()) clients[c]->Chunk(list[i]), any = true;
      ++c;
    }
    if (!any) break;
    if (i % 2 == 1) pause ? pause() : std::this_thread::sleep_for(std::chrono::milliseconds(40));
  }
  for (auto& c : clients)
    c->End(true);
}

uint64_t EventRecords(const std::map<uint32_t, std::vector<std::vector<uint8_t>>>& chunks) {
  uint64_t n = 0;
  for (const auto& [process, list] : chunks)
    for (const auto& c : list) {
      format::ChunkHeader h;
      if (format::ParseChunkHeader(c.data(), &h) == nullptr && h.type == format::ChunkType::kEvents)
        n += h.record_count;
    }
  return n;
}

TEST(LiveServerTest, LiveMessagesReachViewersAndASlowOneStallsNothing) {
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 2, 400, 512);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  const uint64_t records = EventRecords(*chunks);

  TraceStore store;
  ServedTrace& file = store.Add(path);
  file.Load({});
  ASSERT_TRUE(file.ready());
  ServerOptions options;
  options.token = kToken;
  HttpServer server(store, options);
  LiveOptions lo;
  lo.token = kToken;
  LiveTrace trace(lo);
  LivePublisher publisher(
      trace, store, [&](const std::string& m) { server.Broadcast(m, true); },
      std::chrono::milliseconds(20));
  LiveListener listener(trace, "127.0.0.1", 0);
  ASSERT_TRUE(listener.Start().ok());
  ASSERT_TRUE(server.Start().ok());
  publisher.Start();

  // A viewer that never reads after the handshake.
  net::io_context slow_ioc;
  websocket::stream<tcp::socket> slow(slow_ioc);
  slow.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server.port()));
  slow.handshake("127.0.0.1", std::string("/api/v1/ws?token=") + kToken);

  // A viewer that reads everything.
  std::atomic<bool> done{false};
  std::vector<json> live_messages;
  std::mutex mu;
  std::thread reader([&] {
    net::io_context ioc;
    websocket::stream<tcp::socket> ws(ioc);
    ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server.port()));
    ws.handshake("127.0.0.1", std::string("/api/v1/ws?token=") + kToken);
    beast::flat_buffer buffer;
    while (!done) {
      beast::error_code ec;
      ws.read(buffer, ec);
      if (ec) return;
      const json j = json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
      buffer.consume(buffer.size());
      if (j.is_object() && j.value("type", "") == "live") {
        std::lock_guard lock(mu);
        live_messages.push_back(j);
        if (j["program"] == "finished" && j["applied"] == records) return;
      }
    }
  });
  // Fill the slow viewer's socket: megabytes it will never read.
  const std::string big = R"({"type":"padding","text":")" + std::string(1 << 20, 'x') + "\"}";
  for (int i = 0; i < 8; ++i)
    server.Broadcast(big);

  // Each pause lasts until a new snapshot is out (however long builds take).
  Stream(listener.port(), *chunks, kToken, [&] {
    const uint64_t g = publisher.status().generation;
    WaitUntil([&] { return publisher.status().generation > g; }, std::chrono::seconds(5));
  });
  // Ingest finishes although one viewer never reads (a stall would never end).
  ASSERT_TRUE(WaitUntil([&] {
    return publisher.status().program == "finished" && publisher.status().applied == records;
  }));
  reader.join();
  done = true;

  {
    std::lock_guard lock(mu);
    ASSERT_GE(live_messages.size(), 3u);
    uint64_t last = 0, distinct = 0;
    for (const json& m : live_messages) {
      const uint64_t g = m["generation"];
      EXPECT_GE(g, last);
      distinct += g > last;
      last = g;
      EXPECT_EQ(m["trace"], "live");
      for (const char* field :
           {"program", "connections", "processes", "received", "applied", "forced", "missing",
            "clock", "lag_ms", "window_from", "dropped", "bad_input", "last_bad_input"})
        EXPECT_TRUE(m.contains(field)) << field;
    }
    EXPECT_GE(distinct, 3u);  // snapshots while the program streamed
    // A new snapshot's message carries its summary, whose duration is the
    // message's clock (a status-only message, e.g. at finish, has none).
    uint64_t with_summary = 0;
    for (const json& m : live_messages) {
      if (!m.contains("summary")) continue;
      ++with_summary;
      ASSERT_TRUE(m["summary"].is_object());
      EXPECT_EQ(m["summary"]["id"], "live");
      EXPECT_EQ(m["summary"]["duration"], m["clock"]);
    }
    EXPECT_GE(with_summary, 3u);
    EXPECT_EQ(live_messages.back()["program"], "finished");
    EXPECT_EQ(live_messages.back()["received"], records);
  }

  auto [status, body] = Get(server.port(), "/api/v1/traces/live/live");
  EXPECT_EQ(status, 200) << body;
  const json live = json::parse(body);
  EXPECT_EQ(live["program"], "finished");
  EXPECT_EQ(live["applied"], records);
  EXPECT_GE(live["generation"].get<uint64_t>(), 3u);

  std::tie(status, body) = Get(server.port(), "/api/v1/traces/ring/live");
  EXPECT_EQ(status, 404) << body;
  std::tie(status, body) = Get(server.port(), "/api/v1/traces");
  ASSERT_EQ(status, 200);
  const json list = json::parse(body);
  ASSERT_EQ(list["traces"].size(), 2u);
  EXPECT_EQ(list["traces"][0]["live"], false);
  EXPECT_EQ(list["traces"][1]["id"], "live");
  EXPECT_EQ(list["traces"][1]["live"], true);
  std::tie(status, body) = Get(server.port(), "/api/v1/traces/live/summary");
  ASSERT_EQ(status, 200) << body;
  {
    // The newest summary a message carried is the snapshot /summary serves.
    std::lock_guard lock(mu);
    const auto newest = std::find_if(live_messages.rbegin(), live_messages.rend(),
                                     [](const json& m) { return m.contains("summary"); });
    ASSERT_NE(newest, live_messages.rend());
    if ((*newest)["generation"] == live["generation"]) {
      EXPECT_EQ((*newest)["summary"], json::parse(body));
    }
  }
  EXPECT_EQ(json::parse(body)["processes"].size(), 2u);
  EXPECT_EQ(json::parse(body)["messages"], 800);

  publisher.Stop();
  listener.Stop();
  server.Stop();
}

TEST(LiveServerTest, ServeListenEndToEnd) {
  testing::TempDir dir;
  const std::string path = testing::WriteRingTrace(dir.path(), 3, 100, 512);
  auto chunks = ChunksByProcess(testing::ReadWholeFile(path));
  ASSERT_TRUE(chunks.ok());
  testing::ChildProcess serve({testing::BuildPath("src/cli/parallax"), "serve", "--listen",
                               "127.0.0.1:0", "--update-ms", "20", "--no-browser"});
  ASSERT_TRUE(serve.started());
  std::string url, live;
  ASSERT_TRUE(serve.ReadLine(&url, 20000));
  ASSERT_TRUE(serve.ReadLine(&live, 20000));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      url, m, std::regex(R"(serving 1 trace at http://127\.0\.0\.1:(\d+)/\?token=(\w+))")))
      << url;
  const auto http_port = static_cast<uint16_t>(std::stoi(m[1]));
  const std::string token = m[2];
  std::smatch l;
  ASSERT_TRUE(std::regex_search(
      live, l, std::regex(R"(PLX_LIVE=127\.0\.0\.1:(\d+) PLX_LIVE_TOKEN=(\w+) parallax record)")))
      << live;
  EXPECT_EQ(l[2], token);
  Stream(static_cast<uint16_t>(std::stoi(l[1])), *chunks, token);

  const uint64_t records = EventRecords(*chunks);
  json status;
  const auto get_live = [&] {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), http_port));
    http::request<http::string_body> req{http::verb::get, "/api/v1/traces/live/live?token=" + token,
                                         11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    status = json::parse(res.body(), nullptr, false);
    return status.is_object() && status.value("program", "") == "finished" &&
           status.value("applied", uint64_t{0}) == records;
  };
  EXPECT_TRUE(WaitUntil(get_live)) << status.dump();
  serve.Signal(SIGTERM);
  const testing::RunResult r = serve.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("live: connection"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace plx::server::live
