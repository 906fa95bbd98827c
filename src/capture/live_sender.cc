// LiveSender: the queue, the connection and the sender thread of the live stream.
#include "capture/live_sender.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "base/strings.h"
#include "capture/live_protocol.h"
#include "capture/ticks.h"

namespace plx::capture {

namespace {
constexpr uint64_t kConnectTimeoutNs = 2'000'000'000;
constexpr auto kFinishWait = std::chrono::seconds(2);
constexpr auto kAbortWait = std::chrono::milliseconds(500);
constexpr auto kIdleWait = std::chrono::milliseconds(50);
constexpr uint64_t kCrashWaitNs = 200'000'000;
}  // namespace

bool LiveSender::Start(const Config& config, int pid, const std::string& host,
                       const std::string& exe) {
  host_ = config.live_host;
  port_ = config.live_port;
  endpoint_ = (host_.find(':') != std::string::npos ? "[" + host_ + "]" : host_) + ":" +
              std::to_string(port_);
  if (!queue_.Init(config.live_buffer_bytes)) {
    std::fprintf(stderr,
                 "parallax: live stream to %s: cannot allocate its %s queue; no live stream\n",
                 endpoint_.c_str(), FormatBytes(config.live_buffer_bytes).c_str());
    return false;
  }
  started_ = true;
  accepting_.store(true);
  // Kept in the sender, not in the thread's closure: a forked child, where
  // the thread does not exist, still reaches it (no leak reported there).
  hello_ = HelloJson(config.live_token, pid, host, exe);
  thread_ = std::thread([this] { Run(); });
  return true;
}

void LiveSender::Offer(std::span<const uint8_t> chunk, bool definitions) {
  if (!accepting_.load(std::memory_order_relaxed)) {
    if (defs_lost_.load(std::memory_order_relaxed))
      dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // EVENTS chunks leave a quarter of the queue to definitions: without those
  // the receiver can decode nothing that follows.
  const size_t capacity = queue_.capacity();
  const size_t limit = definitions ? capacity : capacity - capacity / 4;
  if (!queue_.Push(kFrameChunk, chunk, limit)) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    if (definitions) {
      defs_lost_.store(true);
      accepting_.store(false);
      if (!reported_.exchange(true))
        std::fprintf(stderr,
                     "parallax: live stream to %s: the receiver fell behind and definitions could "
                     "not be queued; nothing more is streamed\n",
                     endpoint_.c_str());
    }
    return;
  }
  { std::lock_guard<std::mutex> guard(mutex_); }
  wake_.notify_one();
}

void LiveSender::Run() {
  const std::string& hello = hello_;
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals belong to the program's threads
  ::pthread_setname_np(::pthread_self(), "plx-live");
  bool ok = Connect();
  if (ok) {
    std::vector<uint8_t> frame(kFrameHeaderSize + hello.size());
    EncodeFrameHeader(kFrameHello, hello.size(), frame.data());
    std::memcpy(frame.data() + kFrameHeaderSize, hello.data(), hello.size());
    ok = SendAll(frame.data(), frame.size());
  }
  if (ok) wire_.store(kIdle, std::memory_order_release);
  while (ok && SendQueued()) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (abort_.load()) break;
    if (finishing_ && queue_.queued() == 0) {
      std::string end = end_;
      lock.unlock();
      std::vector<uint8_t> frame(kFrameHeaderSize + end.size());
      EncodeFrameHeader(kFrameEnd, end.size(), frame.data());
      std::memcpy(frame.data() + kFrameHeaderSize, end.data(), end.size());
      int idle = kIdle;
      if (wire_.compare_exchange_strong(idle, kBusy)) {
        SendAll(frame.data(), frame.size());
        wire_.store(kClosed);
      }
      break;
    }
    wake_.wait_for(lock, kIdleWait,
                   [this] { return finishing_ || abort_.load() || queue_.queued() > 0; });
  }
  accepting_.store(false);
  Close();
}

bool LiveSender::Connect() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const std::string port = std::to_string(port_);
  if (const int rc = ::getaddrinfo(host_.c_str(), port.c_str(), &hints, &list); rc != 0) {
    Report("cannot resolve the host", ::gai_strerror(rc));
    return false;
  }
  const uint64_t deadline = MonotonicNs() + kConnectTimeoutNs;
  int error = ETIMEDOUT;
  for (addrinfo* a = list; a != nullptr; a = a->ai_next) {
    const int fd =
        ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      error = errno;
      continue;
    }
    bool connected = ::connect(fd, a->ai_addr, a->ai_addrlen) == 0;
    const bool pending = !connected && errno == EINPROGRESS;
    error = pending ? ETIMEDOUT : errno;
    // Wait in short slices so that Finish can give up on a silent host.
    while (pending && !abort_.load() && MonotonicNs() < deadline) {
      pollfd p{fd, POLLOUT, 0};
      const int r = ::poll(&p, 1, 50);
      if (r < 0 && errno != EINTR) {
        error = errno;
        break;
      }
      if (r <= 0) continue;
      int so_error = 0;
      socklen_t len = sizeof so_error;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
      connected = so_error == 0;
      error = so_error;
      break;
    }
    if (connected) {
      ::fcntl(fd, F_SETFL,
              ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // blocking writes, on this thread only
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      {
        std::lock_guard<std::mutex> guard(mutex_);
        fd_.store(fd);
      }
      ::freeaddrinfo(list);
      return true;
    }
    ::close(fd);
  }
  ::freeaddrinfo(list);
  Report("connect", std::strerror(error));
  return false;
}

bool LiveSender::SendAll(const uint8_t* p, size_t n) {
  const int fd = fd_.load();
  while (n > 0) {
    const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      Report("send", std::strerror(w < 0 ? errno : EPIPE));
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool LiveSender::SendQueued() {
  const int fd = fd_.load();
  for (;;) {
    const std::span<const uint8_t> front = queue_.Front();
    if (front.empty()) return true;
    int idle = kIdle;
    if (!wire_.compare_exchange_strong(idle, kBusy)) return false;  // a crash handler has it
    const ssize_t w = ::send(fd, front.data(), front.size(), MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) {
      wire_.store(kIdle, std::memory_order_release);
      continue;
    }
    if (w <= 0) {
      Report("send", std::strerror(w < 0 ? errno : EPIPE));
      wire_.store(kClosed);
      return false;
    }
    // Frame lengths are read before Pop, while the producer cannot reuse the bytes.
    const uint64_t sent = queue_.read_position() + static_cast<uint64_t>(w);
    while (next_boundary_ < sent)
      next_boundary_ += queue_.FrameBytesAt(next_boundary_);
    queue_.Pop(static_cast<size_t>(w));
    at_frame_boundary_.store(next_boundary_ == sent, std::memory_order_relaxed);
    wire_.store(kIdle, std::memory_order_release);
  }
}

void LiveSender::Report(const char* what, const char* why) {
  accepting_.store(false);
  if (reported_.exchange(true)) return;
  if (abort_.load()) {
    std::fprintf(stderr,
                 "parallax: live stream to %s: the receiver did not take the last %s within 2 s "
                 "(%llu chunks had been left out); closed without END\n",
                 endpoint_.c_str(), FormatBytes(queue_.queued()).c_str(),
                 static_cast<unsigned long long>(dropped_chunks()));
  } else {
    std::fprintf(stderr, "parallax: live stream to %s: %s: %s; streaming stops\n",
                 endpoint_.c_str(), what, why);
  }
}

void LiveSender::Close() {
  std::lock_guard<std::mutex> guard(mutex_);
  // After a crash handler took the connection it may still be writing END.
  if (wire_.load() != kCrashed) {
    const int fd = fd_.exchange(-1);
    if (fd >= 0) {
      ::shutdown(fd, SHUT_WR);  // FIN now, even if a forked child holds the descriptor
      ::close(fd);
    }
  }
  done_ = true;
  done_cv_.notify_all();
}

void LiveSender::Finish(uint64_t records) {
  if (!started_) return;
  started_ = false;
  std::unique_lock<std::mutex> lock(mutex_);
  finishing_ = true;
  end_ = EndFinishedJson(records, dropped_chunks());
  wake_.notify_all();
  if (!done_cv_.wait_for(lock, kFinishWait, [this] { return done_; })) {
    abort_.store(true);
    wake_.notify_all();
    if (const int fd = fd_.load(); fd >= 0) ::shutdown(fd, SHUT_RDWR);  // ends a blocked send
    done_cv_.wait_for(lock, kAbortWait, [this] { return done_; });
  }
  const bool done = done_;
  lock.unlock();
  if (done) {
    thread_.join();
  } else {
    thread_.detach();  // still resolving the host name: the process ends without it
  }
}

void LiveSender::CrashEnd(int signal, uint64_t records) {
  if (!started_) return;
  // The sender thread takes no signals: give it a moment to send what is queued.
  const uint64_t deadline = MonotonicNs() + kCrashWaitNs;
  while (queue_.queued() > 0 && wire_.load() != kClosed && MonotonicNs() < deadline) {
    struct timespec pause = {0, 1'000'000};
    ::nanosleep(&pause, nullptr);
  }
  int idle = kIdle;
  if (!wire_.compare_exchange_strong(idle, kCrashed)) return;  // not connected, or mid-write
  if (!at_frame_boundary_.load(std::memory_order_relaxed)) return;
  const int fd = fd_.load();
  if (fd < 0) return;
  uint8_t frame[192];
  const size_t n = EncodeCrashEndFrame(signal, records, dropped_chunks(), frame, sizeof frame);
  if (n > 0) (void)::send(fd, frame, n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace plx::capture
