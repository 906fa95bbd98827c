// LiveListener: poll() on the listening socket and a wake-up pipe; accepted
// sockets go round-robin to the readers. When the process is out of file
// descriptors accept() fails at once: the loop then waits before trying
// again instead of spinning.
#include "server/live/live_listener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "base/strings.h"
#include "server/live/live_session.h"

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
    const int fd =
        ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      result = ErrnoError(where, errno);
      continue;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
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
  const LiveOptions& o = trace_.options();
  unsigned threads = o.reader_threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
  for (unsigned i = 0; i < threads; ++i) {
    readers_.push_back(std::make_unique<LiveReader>(
        trace_, (o.max_unauthenticated + threads - 1) / threads, &open_));
    PLX_RETURN_IF_ERROR(readers_.back()->Start());
  }
  accept_thread_ = std::thread([this] { Accept(); });
  return Status::Ok();
}

void LiveListener::Accept() {
  const size_t max_connections = trace_.options().max_connections;
  bool backoff = false;
  for (;;) {
    // Out of descriptors, or at the connection cap: the wake pipe alone, for
    // a while (new connections wait in the listen queue meanwhile).
    const bool full = open_.load() >= max_connections;
    pollfd fds[2] = {{wake_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
    const int ready = ::poll(fds, backoff || full ? 1 : 2, backoff ? 100 : full ? 20 : 1000);
    if (ready < 0 && errno != EINTR) return;
    if (fds[0].revents != 0) return;
    backoff = false;
    if (ready <= 0 || (fds[1].revents & POLLIN) == 0) continue;
    // Everything waiting, up to a bound (the wake pipe is checked between).
    for (int i = 0; i < 256 && open_.load() < max_connections; ++i) {
      sockaddr_storage peer{};
      socklen_t len = sizeof peer;
      const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
      if (fd < 0) {
        backoff = errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM;
        break;
      }
      open_.fetch_add(1);
      readers_[next_reader_++ % readers_.size()]->Add(fd, PeerName(peer));
    }
  }
}

void LiveListener::Stop() {
  if (listen_fd_ < 0) return;
  const char byte = 0;
  (void)!::write(wake_[1], &byte, 1);
  if (accept_thread_.joinable()) accept_thread_.join();
  for (auto& r : readers_)
    r->Stop();  // closes their connections
  readers_.clear();
  ::close(listen_fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
  listen_fd_ = -1;
}

}  // namespace plx::server::live
