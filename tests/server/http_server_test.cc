// The HTTP + WebSocket server on real sockets on 127.0.0.1: the token is
// required everywhere, bad queries get a 400 without disturbing anyone, the
// viewer's files are served, and the WebSocket says hello and answers pings.
#include "server/http/http_server.h"

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/api_test_trace.h"

namespace plx::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

constexpr char kToken[] = "0123456789abcdef0123456789abcdef";

struct Reply {
  int status = 0;
  std::string body;
  std::string content_type;
  std::string set_cookie;
  std::string content_length;
};

// One keep-alive HTTP connection to the server under test.
class Client {
 public:
  explicit Client(uint16_t port) : stream_(ioc_) {
    stream_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  }

  Reply Get(const std::string& target,
            const std::vector<std::pair<http::field, std::string>>& headers = {},
            http::verb method = http::verb::get) {
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(true);
    for (const auto& [field, value] : headers)
      req.set(field, value);
    http::write(stream_, req);
    // The answer to HEAD has no body, whatever its Content-Length says.
    http::response_parser<http::string_body> parser;
    parser.skip(method == http::verb::head);
    http::read(stream_, buffer_, parser);
    const auto& res = parser.get();
    return {static_cast<int>(res.result_int()), res.body(),
            std::string(res[http::field::content_type]), std::string(res[http::field::set_cookie]),
            std::string(res[http::field::content_length])};
  }

 private:
  net::io_context ioc_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
};

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = testing::LoadedApiTestStore(dir_);
    std::filesystem::create_directories(dir_.File("web/assets"));
    std::ofstream(dir_.File("web/index.html")) << "<!doctype html><title>Parallax</title>";
    std::ofstream(dir_.File("web/assets/app.js")) << "console.log('parallax');";
    ServerOptions options;
    options.token = kToken;
    options.web_root = dir_.File("web");
    server_ = std::make_unique<HttpServer>(*store_, options);
    const Status started = server_->Start();
    ASSERT_TRUE(started.ok()) << started.message();
    ASSERT_NE(server_->port(), 0);
  }

  std::string WithToken(const std::string& target) {
    return target + (target.find('?') == std::string::npos ? "?" : "&") + "token=" + kToken;
  }

  testing::TempDir dir_;
  std::unique_ptr<TraceStore> store_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerTest, ListensOnLoopbackAndPrintsATokenUrl) {
  EXPECT_EQ(server_->Url(),
            "http://127.0.0.1:" + std::to_string(server_->port()) + "/?token=" + kToken);
}

TEST_F(HttpServerTest, RequestsWithoutTheTokenAreRefused) {
  Client c(server_->port());
  for (const std::string target :
       {"/api/v1/traces", "/", "/assets/app.js", "/api/v1/traces/t/summary"}) {
    const Reply r = c.Get(target);
    EXPECT_EQ(r.status, 401) << target;
    EXPECT_NE(json::parse(r.body)["error"].get<std::string>().find("token"), std::string::npos);
    EXPECT_TRUE(r.set_cookie.empty());
  }
  EXPECT_EQ(c.Get("/api/v1/traces?token=wrong").status, 401);
  EXPECT_EQ(c.Get("/api/v1/traces", {{http::field::authorization, "Bearer wrong"}}).status, 401);
}

TEST_F(HttpServerTest, TheTokenWorksInQueryHeaderAndCookie) {
  Client c(server_->port());
  const Reply q = c.Get(WithToken("/api/v1/traces"));
  EXPECT_EQ(q.status, 200);
  EXPECT_EQ(q.content_type, "application/json");
  EXPECT_EQ(json::parse(q.body)["traces"][0]["id"], "t");
  EXPECT_NE(q.set_cookie.find(std::string("plx_token=") + kToken), std::string::npos);
  EXPECT_EQ(c.Get("/api/v1/traces", {{http::field::authorization, std::string("Bearer ") + kToken}})
                .status,
            200);
  const Reply cookie =
      c.Get("/api/v1/traces", {{http::field::cookie, std::string("a=b; plx_token=") + kToken}});
  EXPECT_EQ(cookie.status, 200);
  EXPECT_TRUE(cookie.set_cookie.empty());  // it has the cookie already
}

TEST_F(HttpServerTest, AMalformedQueryGets400AndTheServerGoesOn) {
  Client a(server_->port()), b(server_->port());
  const Reply bad = a.Get(WithToken("/api/v1/traces/t/tile?rows=x&from=0&to=1&width=5"));
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(json::parse(bad.body)["error"].get<std::string>().find("parameter 'rows'"),
            std::string::npos);
  // The same connection and another one are still served.
  EXPECT_EQ(a.Get(WithToken("/api/v1/traces/t/summary")).status, 200);
  const Reply tile = b.Get(WithToken("/api/v1/traces/t/tile?rows=0,1&from=0&to=11000&width=100"));
  EXPECT_EQ(tile.status, 200);
  EXPECT_EQ(tile.content_type, "application/octet-stream");
  EXPECT_EQ(a.Get(WithToken("/api/v1/nothing")).status, 404);
  EXPECT_EQ(a.Get(WithToken("/api/v1/traces"), {}, http::verb::post).status, 405);
}

TEST_F(HttpServerTest, ManyClientsAtOnce) {
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      Client c(server_->port());
      for (int j = 0; j < 10; ++j) {
        const std::string target =
            (i + j) % 3 == 0   ? "/api/v1/traces/t/tile?rows=0,1&from=0&to=11000&width=64"
            : (i + j) % 3 == 1 ? "/api/v1/traces/t/stats"
                               : "/api/v1/traces/t/details?kind=slice&id=99";  // a 404
        const int expected = (i + j) % 3 == 2 ? 404 : 200;
        if (c.Get(WithToken(target)).status == expected) ++ok;
      }
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(ok.load(), 80);
}

TEST_F(HttpServerTest, ServesTheViewerFiles) {
  Client c(server_->port());
  const Reply page = c.Get(WithToken("/"));
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<title>Parallax</title>"), std::string::npos);
  const Reply js =
      c.Get("/assets/app.js", {{http::field::cookie, std::string("plx_token=") + kToken}});
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(c.Get(WithToken("/missing.js")).status, 404);
  EXPECT_NE(c.Get(WithToken("/../web/index.html")).status, 200);
}

TEST_F(HttpServerTest, ADirectoryIsNotAFile) {
  Client c(server_->port());
  for (const std::string target : {"/assets", "/assets/", "/assets/."}) {
    const Reply r = c.Get(WithToken(target));
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_NE(r.body.find("no such file"), std::string::npos) << target;
  }
  EXPECT_EQ(c.Get(WithToken("/assets/app.js")).status, 200);
}

TEST_F(HttpServerTest, SymbolicLinksOutOfTheWebFolderAreNotFollowed) {
  std::ofstream(dir_.File("secret.txt")) << "not for the browser";
  std::filesystem::create_directories(dir_.File("outside"));
  std::ofstream(dir_.File("outside/secret.txt")) << "not for the browser";
  std::filesystem::create_symlink("../secret.txt", dir_.File("web/leak.txt"));
  std::filesystem::create_directory_symlink(dir_.File("outside"), dir_.File("web/outside"));
  std::filesystem::create_symlink("/etc/hostname", dir_.File("web/assets/hostname.txt"));
  // A link that stays inside the folder is served.
  std::filesystem::create_symlink("assets/app.js", dir_.File("web/app.js"));
  Client c(server_->port());
  for (const std::string target : {"/leak.txt", "/outside/secret.txt", "/assets/hostname.txt"}) {
    const Reply r = c.Get(WithToken(target));
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(r.body.find("not for the browser"), std::string::npos) << target;
  }
  const Reply inside = c.Get(WithToken("/app.js"));
  EXPECT_EQ(inside.status, 200);
  EXPECT_EQ(inside.body, "console.log('parallax');");
}

TEST_F(HttpServerTest, HeadAnswersTheHeadersOfGetWithoutABody) {
  // HEAD then GET on one keep-alive connection: a body after the HEAD's
  // headers would be read as the start of the GET's answer.
  Client c(server_->port());
  const std::vector<std::pair<http::field, std::string>> cookie = {
      {http::field::cookie, std::string("plx_token=") + kToken}};
  for (const std::string target :
       {"/api/v1/traces", "/api/v1/traces/t/summary", "/api/v1/traces/t/stats", "/api/v1/nothing",
        "/", "/assets/app.js", "/missing.js"}) {
    const Reply head = c.Get(target, cookie, http::verb::head);
    const Reply get = c.Get(target, cookie);
    EXPECT_EQ(head.status, get.status) << target;
    EXPECT_TRUE(head.body.empty()) << target;
    EXPECT_FALSE(get.body.empty()) << target;
    EXPECT_EQ(head.content_length, std::to_string(get.body.size())) << target;
    EXPECT_EQ(head.content_type, get.content_type) << target;
  }
  // Refused requests too: 401 without the token, 405 for other methods.
  Client bare(server_->port());
  const Reply head = bare.Get("/api/v1/traces", {}, http::verb::head);
  EXPECT_EQ(head.status, 401);
  EXPECT_NE(head.content_length, "0");
  EXPECT_EQ(bare.Get(WithToken("/api/v1/traces")).status, 200);
}

TEST_F(HttpServerTest, WebSocketSaysHelloReportsTracesAndAnswersPings) {
  net::io_context ioc;
  websocket::stream<tcp::socket> ws(ioc);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  ws.handshake("127.0.0.1", std::string("/api/v1/ws?token=") + kToken);
  auto read = [&] {
    beast::flat_buffer buffer;
    ws.read(buffer);
    return json::parse(beast::buffers_to_string(buffer.data()));
  };
  const json hello = read();
  EXPECT_EQ(hello["type"], "hello");
  EXPECT_EQ(hello["api_version"], 1);
  const json ready = read();
  EXPECT_EQ(ready["type"], "ready");
  EXPECT_EQ(ready["trace"], "t");
  ws.write(net::buffer(std::string(R"({"type":"ping"})")));
  EXPECT_EQ(read()["type"], "pong");
  ws.write(net::buffer(std::string("nonsense")));
  EXPECT_EQ(read()["type"], "error");
  server_->Broadcast(R"({"type":"progress","trace":"t","phase":"load","done":1,"total":2})");
  EXPECT_EQ(read()["phase"], "load");
  ws.close(websocket::close_code::normal);
}

// `n` client text frames `{"type":"ping"}` back to back, masked as a
// client must mask them (RFC 6455, 5.3).
std::string PingFrames(int n) {
  const std::string payload = R"({"type":"ping"})";
  const uint8_t mask[4] = {0x12, 0x34, 0x56, 0x78};
  std::string frame;
  frame.push_back(static_cast<char>(0x81));  // FIN, text
  frame.push_back(static_cast<char>(0x80 | payload.size()));
  for (uint8_t m : mask)
    frame.push_back(static_cast<char>(m));
  for (size_t i = 0; i < payload.size(); ++i)
    frame.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
  std::string all;
  for (int i = 0; i < n; ++i)
    all += frame;
  return all;
}

TEST_F(HttpServerTest, WebSocketFloodedWithPingsByANonReaderLeavesTheServerUp) {
  // Pings arrive far faster than pongs leave: the pongs pile up until the
  // server gives up on the reader. Several such clients, to hit the moment a
  // pong is being written when the queue is dropped.
  for (int round = 0; round < 3; ++round) {
    net::io_context ioc;
    websocket::stream<tcp::socket> ws(ioc);
    ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
    ws.handshake("127.0.0.1", std::string("/api/v1/ws?token=") + kToken);
    net::write(ws.next_layer(), net::buffer(PingFrames(3000)));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  // The server still answers HTTP and a new WebSocket.
  Client c(server_->port());
  EXPECT_EQ(c.Get(WithToken("/api/v1/traces")).status, 200);
  net::io_context ioc;
  websocket::stream<tcp::socket> ws(ioc);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  ws.handshake("127.0.0.1", std::string("/api/v1/ws?token=") + kToken);
  ws.write(net::buffer(std::string(R"({"type":"ping"})")));
  std::string type;
  for (int i = 0; i < 10 && type != "pong"; ++i) {
    beast::flat_buffer buffer;
    ws.read(buffer);
    type = json::parse(beast::buffers_to_string(buffer.data()))["type"];
  }
  EXPECT_EQ(type, "pong");
  ws.close(websocket::close_code::normal);
}

TEST_F(HttpServerTest, WebSocketWithoutTheTokenIsRefused) {
  net::io_context ioc;
  websocket::stream<tcp::socket> ws(ioc);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  beast::error_code ec;
  ws.handshake("127.0.0.1", "/api/v1/ws", ec);
  EXPECT_TRUE(ec) << "the handshake succeeded without a token";
}

// The status of a WebSocket handshake with `host`, `origin` (none when
// empty) and the token in the cookie, as a browser page would make it.
int WebSocketHandshake(uint16_t port, const std::string& host, const std::string& origin) {
  std::vector<std::pair<http::field, std::string>> headers = {
      {http::field::host, host},
      {http::field::connection, "Upgrade"},
      {http::field::upgrade, "websocket"},
      {http::field::sec_websocket_version, "13"},
      {http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ=="},
      {http::field::cookie, std::string("plx_token=") + kToken}};
  if (!origin.empty()) headers.emplace_back(http::field::origin, origin);
  return Client(port).Get("/api/v1/ws", headers).status;
}

TEST_F(HttpServerTest, AHostNameOtherThanLoopbackIsRefused) {
  // A page of evil.example whose name was made to resolve to 127.0.0.1 sends
  // its own name as Host; the token does not help it.
  Client c(server_->port());
  const std::string port = std::to_string(server_->port());
  for (const std::string& host :
       std::vector<std::string>{"evil.example", "evil.example:" + port, "localhost.evil.example",
                                "127.0.0.1.evil.example:" + port, "127.0.0.2:" + port})
    for (const std::string target : {"/api/v1/traces", "/", "/assets/app.js"}) {
      const Reply r = c.Get(WithToken(target), {{http::field::host, host}});
      EXPECT_EQ(r.status, 403) << host << " " << target;
      EXPECT_NE(json::parse(r.body)["error"].get<std::string>().find("Host"), std::string::npos);
      EXPECT_TRUE(r.set_cookie.empty());
    }
  EXPECT_EQ(WebSocketHandshake(server_->port(), "evil.example:" + port, ""), 403);
  for (const std::string& host : std::vector<std::string>{
           "127.0.0.1", "127.0.0.1:" + port, "localhost", "localhost:" + port, "[::1]:" + port})
    EXPECT_EQ(c.Get(WithToken("/api/v1/traces"), {{http::field::host, host}}).status, 200) << host;
  // HTTP/1.1 requires a Host header.
  EXPECT_EQ(c.Get(WithToken("/api/v1/traces"), {{http::field::host, ""}}).status, 400);
}

TEST_F(HttpServerTest, APageOfAnotherOriginCannotOpenTheWebSocket) {
  const std::string port = std::to_string(server_->port());
  for (const std::string& origin :
       std::vector<std::string>{"http://evil.example", "http://evil.example:" + port,
                                "http://127.0.0.1:1", "null", "http://localhost:" + port})
    EXPECT_EQ(WebSocketHandshake(server_->port(), "127.0.0.1:" + port, origin), 403) << origin;
  // The viewer's own page, and clients that send no Origin (not browsers).
  EXPECT_EQ(WebSocketHandshake(server_->port(), "127.0.0.1:" + port, "http://127.0.0.1:" + port),
            101);
  EXPECT_EQ(WebSocketHandshake(server_->port(), "localhost:" + port, "http://localhost:" + port),
            101);
  EXPECT_EQ(WebSocketHandshake(server_->port(), "127.0.0.1:" + port, ""), 101);
}

TEST_F(HttpServerTest, APageOfAnotherOriginCannotSendAnythingButGet) {
  Client c(server_->port());
  const std::string own = "http://127.0.0.1:" + std::to_string(server_->port());
  const std::vector<std::pair<http::field, std::string>> own_page = {
      {http::field::host, "127.0.0.1:" + std::to_string(server_->port())},
      {http::field::origin, own},
      {http::field::cookie, std::string("plx_token=") + kToken}};
  auto foreign_page = own_page;
  foreign_page[1].second = "http://evil.example";
  for (http::verb method : {http::verb::post, http::verb::put, http::verb::delete_})
    EXPECT_EQ(c.Get("/api/v1/traces", foreign_page, method).status, 403);
  EXPECT_EQ(c.Get("/api/v1/traces", own_page, http::verb::post).status, 405);
  // The viewer's own requests go through.
  EXPECT_EQ(c.Get("/api/v1/traces", own_page).status, 200);
  EXPECT_EQ(c.Get("/assets/app.js", own_page).status, 200);
}

TEST(HttpServerHostTest, AServerOnEveryInterfaceAnswersToTheAddressItWasReachedOn) {
  TraceStore store;
  ServerOptions options;
  options.bind = "0.0.0.0";
  options.token = kToken;
  HttpServer server(store, options);
  ASSERT_TRUE(server.Start().ok());
  const std::string port = std::to_string(server.port());
  auto get = [&](const std::string& address, const std::string& host) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address(address), server.port()));
    http::request<http::string_body> req{http::verb::get, "/api/v1/traces", 11};
    req.set(http::field::host, host);
    req.set(http::field::authorization, std::string("Bearer ") + kToken);
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return static_cast<int>(res.result_int());
  };
  EXPECT_EQ(get("127.0.0.2", "127.0.0.2:" + port), 200);
  EXPECT_EQ(get("127.0.0.2", "127.0.0.3:" + port), 403);
  EXPECT_EQ(get("127.0.0.2", "localhost:" + port), 200);
  EXPECT_EQ(get("127.0.0.2", "evil.example:" + port), 403);
}

TEST(HttpServerStartTest, ABadBindAddressOrBusyPortIsAnError) {
  TraceStore store;
  ServerOptions bad;
  bad.bind = "not-an-address";
  HttpServer a(store, bad);
  const Status s = a.Start();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--bind"), std::string::npos);

  HttpServer first(store, ServerOptions{});
  ASSERT_TRUE(first.Start().ok());
  ServerOptions same;
  same.port = first.port();
  HttpServer second(store, same);
  const Status busy = second.Start();
  EXPECT_FALSE(busy.ok());
  EXPECT_NE(busy.message().find(std::to_string(first.port())), std::string::npos);
}

}  // namespace
}  // namespace plx::server
