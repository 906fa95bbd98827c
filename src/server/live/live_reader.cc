// LiveReader: epoll (level-triggered) over the reader's sockets and an
// eventfd; one recv of up to 256 KiB per ready socket per round, so a fast
// peer does not starve the others; deadlines checked every round.
#include "server/live/live_reader.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/strings.h"
#include "server/live/live_session.h"

namespace plx::server::live {

namespace {

constexpr uint64_t kWakeId = 0;
constexpr size_t kReadSize = 256 << 10;

}  // namespace

LiveReader::LiveReader(LiveTrace& trace, size_t max_unauthenticated, std::atomic<size_t>* open)
    : trace_(trace), max_unauthenticated_(std::max<size_t>(1, max_unauthenticated)), open_(*open) {}

LiveReader::~LiveReader() {
  Stop();
  if (epoll_ >= 0) ::close(epoll_);  // Start failed before the thread ran
  if (wake_ >= 0) ::close(wake_);
}

Status LiveReader::Start() {
  epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_ < 0) return ErrnoError("epoll_create1", errno);
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_ < 0) return ErrnoError("eventfd", errno);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kWakeId;
  if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev) != 0) return ErrnoError("epoll_ctl", errno);
  buffer_.resize(kReadSize);
  thread_ = std::thread([this] { Run(); });
  return Status::Ok();
}

void LiveReader::Add(int fd, std::string peer) {
  {
    std::lock_guard lock(mu_);
    incoming_.emplace_back(fd, std::move(peer));
  }
  const uint64_t one = 1;
  (void)!::write(wake_, &one, sizeof one);
}

void LiveReader::Stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  const uint64_t one = 1;
  (void)!::write(wake_, &one, sizeof one);
  thread_.join();
  ::close(epoll_);
  ::close(wake_);
  epoll_ = wake_ = -1;
}

void LiveReader::Run() {
  std::vector<epoll_event> events(64);
  int timeout = 1000;
  for (;;) {
    const int n = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout);
    if (n < 0 && errno != EINTR) break;
    bool stop = false;
    for (int i = 0; i < n; ++i) {
      const uint64_t id = events[i].data.u64;
      if (id == kWakeId) {
        uint64_t count;
        (void)!::read(wake_, &count, sizeof count);
        std::lock_guard lock(mu_);
        stop = stopping_;
        continue;
      }
      const auto it = peers_.find(id);
      if (it != peers_.end() && !Read(it->second)) Drop(id);
    }
    if (stop) break;
    Adopt();
    // After the reads: a peer whose HELLO had arrived is not closed as one
    // that sent none.
    timeout = Expire(Clock::now());
  }
  while (!peers_.empty())
    Drop(peers_.begin()->first);
  std::lock_guard lock(mu_);
  for (const auto& [fd, peer] : incoming_) {
    ::close(fd);
    open_.fetch_sub(1);
  }
  incoming_.clear();
}

void LiveReader::Adopt() {
  std::vector<std::pair<int, std::string>> incoming;
  {
    std::lock_guard lock(mu_);
    incoming.swap(incoming_);
  }
  const Clock::time_point deadline = Clock::now() + trace_.options().hello_timeout;
  for (auto& [fd, name] : incoming) {
    const uint64_t id = next_id_++;
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.u64 = id;
    if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      ::close(fd);
      open_.fetch_sub(1);
      continue;
    }
    Peer& p = peers_[id];
    p.fd = fd;
    p.session = std::make_unique<LiveSession>(trace_, std::move(name));
    p.deadline = deadline;
    waiting_.push_back(id);
    ++unauthenticated_;
    // What it sent already (its HELLO, usually) is read at once, so that
    // under a flood it is not closed as a peer without a HELLO.
    if (!Read(p)) Drop(id);
  }
}

bool LiveReader::Read(Peer& peer) {
  const ssize_t n = ::recv(peer.fd, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
  if (n <= 0) return false;
  const bool was = peer.session->authenticated();
  const bool ok = peer.session->Feed(buffer_.data(), static_cast<size_t>(n));
  if (!was && peer.session->authenticated()) --unauthenticated_;
  return ok;
}

void LiveReader::Drop(uint64_t id) {
  const auto it = peers_.find(id);
  if (it == peers_.end()) return;
  Peer& p = it->second;
  ::epoll_ctl(epoll_, EPOLL_CTL_DEL, p.fd, nullptr);
  if (!p.session->authenticated()) --unauthenticated_;
  p.session->Close();
  ::shutdown(p.fd, SHUT_RDWR);
  ::close(p.fd);
  peers_.erase(it);
  open_.fetch_sub(1);
}

int LiveReader::Expire(Clock::time_point now) {
  while (!waiting_.empty()) {
    const uint64_t id = waiting_.front();
    const auto it = peers_.find(id);
    if (it == peers_.end() || it->second.session->authenticated()) {
      waiting_.pop_front();
      continue;
    }
    const bool late = it->second.deadline <= now;
    if (!late && unauthenticated_ <= max_unauthenticated_) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(it->second.deadline - now);
      return static_cast<int>(std::min<int64_t>(left.count(), 1000));
    }
    const long long ms = trace_.options().hello_timeout.count();
    it->second.session->Refuse(
        late ? StrFormat("no valid HELLO within %lld ms; closed", ms)
             : std::string("too many connections without a HELLO; the oldest is closed"));
    waiting_.pop_front();
    Drop(id);
  }
  return 1000;
}

}  // namespace plx::server::live
