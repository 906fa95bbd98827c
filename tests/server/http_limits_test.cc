// The HTTP server's connection bounds on real sockets on 127.0.0.1: out of
// file descriptors it neither spins nor stops answering once connections
// close; past its connection cap new connections wait in the listen queue
// and are served when one closes; a WebSocket message above the limit
// closes the socket.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/http/http_server.h"
#include "support/test_support.h"

namespace plx::server {
namespace {

constexpr char kToken[] = "0123456789abcdef0123456789abcdef";

// A blocking socket connected to 127.0.0.1:port (-1 if it failed).
int Connect(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Sends GET /api/v1/traces on `fd`; the answer's status line, or "" when
// none came within `timeout_ms`.
std::string StatusLine(int fd, int timeout_ms) {
  const std::string req = std::string("GET /api/v1/traces?token=") + kToken +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size()))
    return "";
  std::string got;
  char buf[4096];
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (got.find("\r\n") == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return "";
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return "";
    got.append(buf, static_cast<size_t>(n));
  }
  return got.substr(0, got.find("\r\n"));
}

// CPU seconds (user and system) a process used so far.
double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i)
    if (i == 14 || i == 15) ticks += std::stod(f);  // utime, stime
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Sanitizers' runtime checks need descriptors of their own (UBSan's vptr
// check probes memory through a pipe): out of descriptors, they report
// errors that are not there.
using testing::kSanitized;

TEST(HttpLimitsTest, OutOfDescriptorsTheServerWaitsAndAnswersLater) {
  if (kSanitized) GTEST_SKIP() << "sanitizer runtimes need descriptors of their own";
  int ports[2];
  ASSERT_EQ(::pipe(ports), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // A server allowed 40 descriptors and no cap of its own.
    rlimit r{40, 40};
    setrlimit(RLIMIT_NOFILE, &r);
    TraceStore store;
    ServerOptions options;
    options.token = kToken;
    options.max_connections = 100000;
    HttpServer server(store, options);
    uint16_t port = 0;
    if (server.Start().ok()) port = server.port();
    (void)!::write(ports[1], &port, sizeof port);
    for (;;)
      ::pause();
  }
  ::close(ports[1]);
  uint16_t port = 0;
  ASSERT_EQ(::read(ports[0], &port, sizeof port), static_cast<ssize_t>(sizeof port));
  ::close(ports[0]);
  ASSERT_NE(port, 0);

  // More idle connections than the server has descriptors for.
  std::vector<int> idle;
  for (int i = 0; i < 60; ++i)
    idle.push_back(Connect(port));
  const double cpu_before = CpuSeconds(child);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const double cpu = CpuSeconds(child) - cpu_before;
  // Spinning on accept() takes the whole 2 s on each I/O thread.
  EXPECT_LT(cpu, 0.5) << "CPU seconds in 2 s with no descriptor left";

  for (int fd : idle)
    ::close(fd);
  const int fd = Connect(port);
  EXPECT_EQ(StatusLine(fd, 20000), "HTTP/1.1 200 OK");
  ::close(fd);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

TEST(HttpLimitsTest, PastTheCapConnectionsWaitUntilOneCloses) {
  TraceStore store;
  ServerOptions options;
  options.token = kToken;
  options.max_connections = 4;
  HttpServer server(store, options);
  ASSERT_TRUE(server.Start().ok());
  // Four idle connections (accepted in order) take the four slots.
  std::vector<int> held;
  for (int i = 0; i < 4; ++i)
    held.push_back(Connect(server.port()));
  const int waiting = Connect(server.port());
  ASSERT_GE(waiting, 0);
  EXPECT_EQ(StatusLine(waiting, 500), "");  // not accepted while four are open
  ::close(held.back());
  held.pop_back();
  char buf[4096];
  pollfd p{waiting, POLLIN, 0};
  ASSERT_GT(::poll(&p, 1, 20000), 0);
  const ssize_t n = ::recv(waiting, buf, sizeof buf, 0);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, static_cast<size_t>(n)).substr(0, 12), "HTTP/1.1 200");
  ::close(waiting);
  for (int fd : held)
    ::close(fd);
  server.Stop();
}

TEST(HttpLimitsTest, AWebSocketMessageAboveTheLimitClosesTheSocket) {
  namespace beast = boost::beast;
  namespace net = boost::asio;
  TraceStore store;
  ServerOptions options;
  options.token = kToken;
  HttpServer server(store, options);
  ASSERT_TRUE(server.Start().ok());
  net::io_context ioc;
  beast::websocket::stream<beast::tcp_stream> ws(ioc);
  ws.next_layer().connect({net::ip::make_address("127.0.0.1"), server.port()});
  ws.handshake("127.0.0.1", std::string("/api/v1/ws?token=") + kToken);
  beast::flat_buffer buffer;
  // Reads one message, waiting at most 5 s (then beast::error::timeout).
  const auto read = [&] {
    beast::error_code ec;
    buffer.clear();
    ws.next_layer().expires_after(std::chrono::seconds(5));
    ws.async_read(buffer, [&](beast::error_code e, size_t) { ec = e; });
    ioc.restart();
    ioc.run();
    return ec;
  };
  ASSERT_FALSE(read());  // hello
  // A ping within the limit is answered; one of 100 KiB ends the socket.
  ws.write(net::buffer(std::string(R"({"type":"ping"})")));
  while (beast::buffers_to_string(buffer.data()).find("pong") == std::string::npos)
    ASSERT_FALSE(read());
  const std::string big = R"({"type":"ping","pad":")" + std::string(100 << 10, 'x') + R"("})";
  beast::error_code ec;
  ws.write(net::buffer(big), ec);
  while (!ec)
    ec = read();  // anything still queued, then the end
  // The server ended it (closed, reset, or our write broke), not a timeout.
  EXPECT_NE(ec, beast::error::timeout) << "the server took a message above the limit";
  server.Stop();
}

}  // namespace
}  // namespace plx::server
