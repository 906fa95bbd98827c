// HttpServer: HTTP + WebSocket (Boost.Beast) in front of the API. Every
// request needs the access token; /api/v1/... goes to Api, /api/v1/ws
// upgrades to the progress WebSocket, anything else is a viewer file.
// Boost is only included by http_server.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "server/api/api.h"

namespace plx::server {

struct ServerState;  // http_server.cc

struct ServerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 0;     // 0: a free port
  std::string token;     // empty: a new random one
  std::string web_root;  // empty: FindWebRoot("")
  int io_threads = 2;    // sockets and files
  int api_threads = 2;   // threads of each API pool (analyses; the timeline's requests)
  /// HTTP and WebSocket connections at once (0: half the descriptor limit,
  /// at most 1024); more wait in the listen queue until one closes.
  size_t max_connections = 0;
};

class HttpServer {
 public:
  HttpServer(TraceStore& store, ServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds and listens; the threads start serving at once.
  Status Start();
  uint16_t port() const;
  const std::string& token() const;
  /// Where the viewer's files are served from ("" = not built).
  const std::string& web_root() const;
  /// http://ADDRESS:PORT/?token=TOKEN
  std::string Url() const;
  /// Sends a text message to every open WebSocket (any thread). A
  /// `latest_only` message replaces one still queued for a slow reader (live
  /// updates: only the newest matters). A socket that lets kMaxQueuedMessages
  /// pile up is closed; the viewer reconnects and gets the current state.
  void Broadcast(const std::string& message, bool latest_only = false);
  static constexpr size_t kMaxQueuedMessages = 1024;
  /// Stops accepting, closes connections, joins the threads.
  void Stop();

 private:
  std::unique_ptr<ServerState> impl_;
};

}  // namespace plx::server
