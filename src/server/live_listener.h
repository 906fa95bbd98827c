// LiveListener: the TCP side of `parallax serve --listen`. Accepts live
// connections (docs/live.md) and runs each on its own thread: blocking reads
// into a LiveSession, which checks and decodes before the shared LiveTrace
// sees anything. Plain sockets; no Boost.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/status.h"
#include "server/live_trace.h"

namespace plx::server::live {

class LiveListener {
 public:
  /// At most this many connections at once; more are refused (closed).
  static constexpr size_t kMaxConnections = 4096;

  LiveListener(LiveTrace& trace, std::string host, uint16_t port);
  /// Stops.
  ~LiveListener();
  LiveListener(const LiveListener&) = delete;
  LiveListener& operator=(const LiveListener&) = delete;

  /// Binds and listens (an IPv4 or IPv6 address, or "localhost"); the
  /// accepting thread starts at once.
  Status Start();
  /// The port listened on (the chosen one when 0 was asked for).
  uint16_t port() const { return port_; }
  /// "HOST:PORT" for PLX_LIVE.
  std::string Endpoint() const;
  /// Stops accepting, closes every connection, joins the threads.
  void Stop();

 private:
  struct Conn {
    int fd = -1;
    std::thread thread;
    std::atomic<bool> done{false};
  };
  void Accept();
  void Serve(Conn* conn, std::string peer);
  void Reap(bool all);

  LiveTrace& trace_;
  std::string host_;
  uint16_t port_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};  // a pipe that interrupts the accept loop
  std::thread accept_thread_;
  std::mutex mu_;
  std::list<std::unique_ptr<Conn>> conns_;
  bool stopping_ = false;
};

}  // namespace plx::server::live
