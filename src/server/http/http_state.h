// The inside of HttpServer shared by http_server.cc and ws_session.cc: the
// server's state (Asio context, acceptor, pools, open WebSockets) and the
// count of open connections. Boost.Beast; include only from those files.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "server/api/api.h"
#include "server/http/http_server.h"

namespace plx::server {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// Counts one open connection (HTTP, then maybe WebSocket) while it lives.
class ConnectionSlot {
 public:
  explicit ConnectionSlot(std::atomic<size_t>& open) : open_(open) { open_.fetch_add(1); }
  ~ConnectionSlot() { open_.fetch_sub(1); }
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;

 private:
  std::atomic<size_t>& open_;
};

class WsSession;

struct ServerState {
  ServerState(TraceStore& s, ServerOptions o) : store(s), api(s), options(std::move(o)) {}

  TraceStore& store;
  Api api;
  ServerOptions options;
  net::io_context ioc;
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<net::steady_timer> accept_timer;
  std::atomic<size_t> connections{0};
  // Two pools: analyses may take seconds on a big trace the first time they
  // are asked for, and must never hold up the timeline's tiles and details.
  std::unique_ptr<net::thread_pool> api_pool;       // analyses
  std::unique_ptr<net::thread_pool> timeline_pool;  // traces, summary, tile, details, search
  std::vector<std::thread> threads;
  uint16_t port = 0;
  bool stopped = false;

  std::mutex ws_mu;
  std::vector<std::weak_ptr<WsSession>> sockets;

  void Accept();
  void AcceptLater(std::chrono::milliseconds wait);
  void AddSocket(const std::shared_ptr<WsSession>& s) {
    std::lock_guard lock(ws_mu);
    std::erase_if(sockets, [](const auto& w) { return w.expired(); });
    sockets.push_back(s);
  }
};

}  // namespace plx::server
