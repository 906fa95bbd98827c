// LiveReader: one of the live listener's few reading threads. It owns a set
// of connections (an epoll set of non-blocking sockets), reads whatever
// arrived into one buffer of its own and feeds each connection's
// LiveSession; it closes the peers that send no valid HELLO in time, and the
// oldest such peer when too many wait. Threads do not grow with connections.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "server/live/live_trace.h"

namespace plx::server::live {

class LiveSession;

class LiveReader {
 public:
  /// `open` counts the listener's connections; a closed one decrements it.
  /// At most `max_unauthenticated` of this reader's peers wait for their HELLO.
  LiveReader(LiveTrace& trace, size_t max_unauthenticated, std::atomic<size_t>* open);
  /// Stops.
  ~LiveReader();
  LiveReader(const LiveReader&) = delete;
  LiveReader& operator=(const LiveReader&) = delete;

  /// Creates the epoll set and starts the thread.
  Status Start();
  /// Hands over an accepted socket (any thread); the reader closes it.
  void Add(int fd, std::string peer);
  /// Closes every connection (their sessions see the close) and joins.
  void Stop();

 private:
  struct Peer {
    int fd = -1;
    std::unique_ptr<LiveSession> session;
    Clock::time_point deadline;  // for its HELLO
  };
  void Run();
  void Adopt();
  // Reads once from a ready peer; false when it is closed.
  bool Read(Peer& peer);
  void Drop(uint64_t id);
  // Closes the peers whose HELLO is late, and the oldest waiting ones
  // beyond the bound; returns the epoll timeout until the next deadline.
  int Expire(Clock::time_point now);

  LiveTrace& trace_;
  const size_t max_unauthenticated_;
  std::atomic<size_t>& open_;
  int epoll_ = -1;
  int wake_ = -1;  // an eventfd: new sockets, or stop
  std::thread thread_;
  std::mutex mu_;
  std::vector<std::pair<int, std::string>> incoming_;
  bool stopping_ = false;
  // Reader thread only.
  std::unordered_map<uint64_t, Peer> peers_;
  std::deque<uint64_t> waiting_;  // peers without HELLO, oldest first (ids may be stale)
  size_t unauthenticated_ = 0;
  uint64_t next_id_ = 1;
  std::vector<uint8_t> buffer_;
};

}  // namespace plx::server::live
