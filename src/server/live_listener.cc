// LiveListener: poll() on the listening socket and a wake-up pipe; a thread
// per connection reading 256 KiB at a time into its LiveSession. Stop() shuts
// the sockets down, which ends the blocking reads.
#include "server/live_listener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "base/strings.h"
#include "server/live_session.h"

namespace plx::server::live {

namespace {

std::string PeerName(const sockaddr_storage& a) {
  char host[INET6_ADDRSTRLEN] = "?";
  uint16_t port = 0;
  if (a.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
    inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
    port = ntohs(v4->sin_port);
    return StrFormat("%s:%u", host, port);
  }
  if (a.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
    inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
    port = ntohs(v6->sin6_port);
  }
  return StrFormat("[%s]:%u", host, port);
}

}  // namespace

LiveListener::LiveListener(LiveTrace& trace, std::string host, uint16_t port)
    : trace_(trace), host_(std::move(host)), port_(port) {}

LiveListener::~LiveListener() {
  Stop();
}

std::string LiveListener::Endpoint() const {
  std::string host = host_ == "0.0.0.0" || host_.empty() ? "127.0.0.1" : host_;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return host + ":" + std::to_string(port_);
}

Status LiveListener::Start() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(port_);
  const std::string where = "--listen " + host_ + ":" + port;
  if (const int e = getaddrinfo(host_.c_str(), port.c_str(), &hints, &found); e != 0)
    return InvalidArgument(where + ": " + gai_strerror(e));
  Status result = IoError(where + ": no usable address");
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      result = ErrnoError(where, errno);
      continue;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 128) != 0) {
      result = ErrnoError(where, errno);
      ::close(fd);
      continue;
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
    port_ =
        ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6*>(&bound)->sin6_port
                                          : reinterpret_cast<const sockaddr_in*>(&bound)->sin_port);
    listen_fd_ = fd;
    result = Status::Ok();
    break;
  }
  freeaddrinfo(found);
  PLX_RETURN_IF_ERROR(result);
  if (::pipe2(wake_, O_CLOEXEC) != 0) return ErrnoError("pipe", errno);
  accept_thread_ = std::thread([this] { Accept(); });
  return Status::Ok();
}

void LiveListener::Accept() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, 1000) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    Reap(false);
    if ((fds[0].revents & POLLIN) == 0) continue;
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard lock(mu_);
    if (stopping_ || conns_.size() >= kMaxConnections) {
      ::close(fd);
      continue;
    }
    auto conn = std::make_unique<Conn>();
    conn->fd = fd;
    Conn* c = conn.get();
    conns_.push_back(std::move(conn));
    c->thread = std::thread([this, c, name = PeerName(peer)] { Serve(c, name); });
  }
}

void LiveListener::Serve(Conn* conn, std::string peer) {
  {
    LiveSession session(trace_, peer);
    std::vector<uint8_t> buffer(256 << 10);
    for (;;) {
      const ssize_t n = ::recv(conn->fd, buffer.data(), buffer.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      if (!session.Feed(buffer.data(), static_cast<size_t>(n))) break;
    }
    session.Close();
  }
  ::shutdown(conn->fd, SHUT_RDWR);
  conn->done.store(true, std::memory_order_release);
}

void LiveListener::Reap(bool all) {
  std::list<std::unique_ptr<Conn>> finished;
  {
    std::lock_guard lock(mu_);
    for (auto it = conns_.begin(); it != conns_.end();) {
      if (all || (*it)->done.load(std::memory_order_acquire)) {
        finished.push_back(std::move(*it));
        it = conns_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& c : finished) {
    if (c->thread.joinable()) c->thread.join();
    ::close(c->fd);
  }
}

void LiveListener::Stop() {
  if (listen_fd_ < 0) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (auto& c : conns_)
      ::shutdown(c->fd, SHUT_RDWR);  // wakes the blocking reads
  }
  const char byte = 0;
  (void)!::write(wake_[1], &byte, 1);
  if (accept_thread_.joinable()) accept_thread_.join();
  Reap(true);
  ::close(listen_fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
  listen_fd_ = -1;
}

}  // namespace plx::server::live
