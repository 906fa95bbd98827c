// LiveListener: the TCP side of `parallax serve --listen`. Accepts live
// connections (docs/live.md) and hands each to one of a few LiveReaders
// (threads do not grow with connections), whose LiveSessions check and
// decode before the shared LiveTrace sees anything. The bounds are
// LiveOptions' (connections, peers without HELLO, HELLO deadline). Plain
// sockets; no Boost.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "server/live/live_reader.h"
#include "server/live/live_trace.h"

namespace plx::server::live {

class LiveListener {
 public:
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
  /// Connections open now.
  size_t connections() const { return open_.load(); }

 private:
  void Accept();

  LiveTrace& trace_;
  std::string host_;
  uint16_t port_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};  // a pipe that interrupts the accept loop
  std::thread accept_thread_;
  std::atomic<size_t> open_{0};
  std::vector<std::unique_ptr<LiveReader>> readers_;
  size_t next_reader_ = 0;
};

}  // namespace plx::server::live
