// PLX_LIVE: a traced child streams its chunks over a real TCP connection to a
// receiver in this test (docs/live.md). The stream carries exactly the chunks
// of the file; a receiver that closes, never reads or is absent never harms the
// program or its file; PLX_OUTPUT=- streams without a file; a crash sends END.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "capture/check_pattern.h"
#include "format/layout.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

constexpr uint8_t kHello = 1;
constexpr uint8_t kChunk = 2;
constexpr uint8_t kEnd = 3;
constexpr uint32_t kMaxFrame = (64u << 20) + 1024;
constexpr uint32_t kThreads = 4;

using Bytes = std::vector<uint8_t>;

struct Frame {
  uint8_t kind = 0;
  Bytes payload;
  std::string text() const { return std::string(payload.begin(), payload.end()); }
};

// Listens on 127.0.0.1 (a free port) and takes one connection; reads its
// frames on a thread as the mode says.
class Receiver {
 public:
  enum class Mode {
    kRead,              // read everything
    kResetAfterChunk,   // close with a reset after the first CHUNK frame
    kReadWhenReleased,  // accept, then read nothing until Release()
  };

  explicit Receiver(Mode mode) : mode_(mode) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (mode == Mode::kReadWhenReleased) {
      int small = 4096;  // inherited by the accepted socket: the sender fills it soon
      ::setsockopt(listen_fd_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(listen_fd_, 4) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      error_ = std::string("listen: ") + std::strerror(errno);
      return;
    }
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { Run(); });
  }
  ~Receiver() {
    stop_ = true;
    released_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(listen_fd_);
  }

  std::string endpoint() const { return "127.0.0.1:" + std::to_string(port_); }
  void Release() { released_ = true; }
  /// Waits until the connection has ended (or 60 s passed); the frames read.
  const std::vector<Frame>& Wait() {
    released_ = true;
    if (thread_.joinable()) thread_.join();
    return frames_;
  }
  /// The connection ended between frames.
  bool ended_cleanly() const { return eof_ && !truncated_; }
  bool truncated() const { return truncated_; }
  const std::string& error() const { return error_; }

 private:
  // Reads n bytes unless the peer ends first or 60 s pass.
  bool ReadFull(int fd, uint8_t* p, size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (n > 0) {
      if (stop_ || std::chrono::steady_clock::now() > deadline) return false;
      pollfd pfd{fd, POLLIN, 0};
      if (::poll(&pfd, 1, 100) <= 0) continue;
      const ssize_t r = ::read(fd, p, n);
      if (r <= 0) return false;
      p += r;
      n -= static_cast<size_t>(r);
    }
    return true;
  }

  void Run() {
    int fd = -1;
    for (int waited = 0; fd < 0 && waited < 600 && !stop_; ++waited) {
      pollfd pfd{listen_fd_, POLLIN, 0};
      if (::poll(&pfd, 1, 100) > 0) fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    }
    if (fd < 0) {
      error_ = "no connection";
      return;
    }
    while (mode_ == Mode::kReadWhenReleased && !released_)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    for (;;) {
      uint8_t header[5];
      if (!ReadFull(fd, header, 1)) {
        eof_ = !stop_;
        break;
      }
      if (!ReadFull(fd, header + 1, 4)) {
        truncated_ = true;
        break;
      }
      uint32_t length = 0;
      std::memcpy(&length, header, 4);  // little-endian host
      if (length < 1 || length > kMaxFrame) {
        error_ = "bad frame length " + std::to_string(length);
        break;
      }
      Frame f;
      f.kind = header[4];
      f.payload.resize(length - 1);
      if (!ReadFull(fd, f.payload.data(), f.payload.size())) {
        truncated_ = true;
        break;
      }
      frames_.push_back(std::move(f));
      if (mode_ == Mode::kResetAfterChunk && frames_.back().kind == kChunk) {
        linger reset{1, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        break;
      }
    }
    ::close(fd);
  }

  Mode mode_;
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> released_{false};
  std::vector<Frame> frames_;
  bool eof_ = false;
  bool truncated_ = false;  // the connection ended inside a frame
  std::string error_;
};

// The value of "name" in a flat JSON object as raw text (quotes stripped), or "".
std::string JsonField(const std::string& json, const std::string& name) {
  const std::string key = "\"" + name + "\":";
  const size_t at = json.find(key);
  if (at == std::string::npos) return "";
  size_t begin = at + key.size();
  if (begin < json.size() && json[begin] == '"') {
    const size_t end = json.find('"', begin + 1);
    return end == std::string::npos ? "" : json.substr(begin + 1, end - begin - 1);
  }
  const size_t end = json.find_first_of(",}", begin);
  return json.substr(begin, end - begin);
}

// The DEFS and EVENTS chunks of a .plx file, in file order, as bytes.
std::vector<Bytes> FileChunks(const std::string& path) {
  const std::string bytes = ReadFile(path);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  std::vector<Bytes> chunks;
  size_t at = format::kFileHeaderSize;
  while (at + format::kChunkHeaderSize <= bytes.size()) {
    format::ChunkHeader h;
    if (format::ParseChunkHeader(p + at, &h) != nullptr || h.type == format::ChunkType::kIndex)
      break;
    const size_t n = format::kChunkHeaderSize + h.stored_size;
    if (at + n > bytes.size()) break;
    chunks.emplace_back(p + at, p + at + n);
    at += n;
  }
  return chunks;
}

std::vector<Bytes> StreamChunks(const std::vector<Frame>& frames) {
  std::vector<Bytes> chunks;
  for (const Frame& f : frames)
    if (f.kind == kChunk) chunks.push_back(f.payload);
  return chunks;
}

// Every streamed chunk is a chunk of the file, in the file's order.
bool IsSubsequence(const std::vector<Bytes>& part, const std::vector<Bytes>& whole) {
  size_t k = 0;
  for (const Bytes& c : part) {
    while (k < whole.size() && whole[k] != c)
      ++k;
    if (k == whole.size()) return false;
    ++k;
  }
  return true;
}

std::string Child() {
  return BuildPath("tests/capture/capture_child");
}

// The file (or a stream written out as one) holds each thread's whole pattern.
void ExpectWholePattern(const format::TraceFile& file, uint64_t iterations) {
  PatternResult result = CheckPattern(file, kThreads, iterations);
  EXPECT_TRUE(result.error.empty()) << result.error;
  ASSERT_EQ(result.threads.size(), kThreads);
  for (const auto& [t, c] : result.threads) {
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_EQ(c.pattern_records, iterations * kRecordsPerIteration);
    EXPECT_EQ(c.checksum, PatternThreadChecksum(t, kThreads, iterations));
  }
}

void ExpectCompleteFile(const std::string& path, uint64_t iterations) {
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index);
  EXPECT_TRUE((*file)->report().problems.empty()) << (*file)->report().problems.front();
  ExpectWholePattern(**file, iterations);
}

int CountLines(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST(Live, StreamCarriesExactlyTheChunksOfTheFile) {
  TempDir dir;
  const std::string path = dir.File("live.plx");
  constexpr uint64_t kIterations = 20000;
  Receiver receiver(Receiver::Mode::kRead);
  ASSERT_TRUE(receiver.error().empty()) << receiver.error();
  RunResult r =
      RunProgram({Child(), "stress", std::to_string(kThreads), std::to_string(kIterations)},
                 {"PLX_OUTPUT=" + path, "PLX_LIVE=" + receiver.endpoint(),
                  "PLX_LIVE_TOKEN=secret-42", "PLX_BUFFER=256K"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("parallax:"), std::string::npos) << r.output;
  const std::vector<Frame>& frames = receiver.Wait();
  EXPECT_TRUE(receiver.error().empty()) << receiver.error();
  EXPECT_TRUE(receiver.ended_cleanly());
  ASSERT_GE(frames.size(), 3u);

  ASSERT_EQ(frames.front().kind, kHello);
  const std::string hello = frames.front().text();
  EXPECT_EQ(JsonField(hello, "protocol"), "1") << hello;
  EXPECT_EQ(JsonField(hello, "token"), "secret-42") << hello;
  EXPECT_EQ(JsonField(hello, "format"),
            std::to_string(format::kVersionMajor) + "." + std::to_string(format::kVersionMinor));
  EXPECT_GT(std::stoll(JsonField(hello, "pid")), 0);
  EXPECT_FALSE(JsonField(hello, "host").empty());
  EXPECT_NE(JsonField(hello, "executable").find("capture_child"), std::string::npos) << hello;

  ASSERT_EQ(frames.back().kind, kEnd);
  const std::string end = frames.back().text();
  for (size_t i = 1; i + 1 < frames.size(); ++i)
    ASSERT_EQ(frames[i].kind, kChunk) << "frame " << i;

  // Byte for byte the file's chunks, in the same order, none left out.
  const std::vector<Bytes> file_chunks = FileChunks(path);
  const std::vector<Bytes> streamed = StreamChunks(frames);
  EXPECT_GT(streamed.size(), 10u);
  EXPECT_EQ(streamed.size(), file_chunks.size());
  EXPECT_TRUE(streamed == file_chunks);

  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index);
  ExpectWholePattern(**file, kIterations);
  EXPECT_EQ(JsonField(end, "status"), "finished") << end;
  EXPECT_EQ(JsonField(end, "records"), std::to_string((*file)->total_records())) << end;
  EXPECT_EQ(JsonField(end, "dropped_chunks"), "0") << end;
}

TEST(Live, ForkedChildLeavesTheStreamToItsParent) {
  // The child records into a part of its own and never touches the parent's
  // connection (its sender thread is not in the child): both end.
  TempDir dir;
  const std::string path = dir.File("fork.plx");
  Receiver receiver(Receiver::Mode::kRead);
  ASSERT_TRUE(receiver.error().empty()) << receiver.error();
  RunResult r = RunProgram({Child(), "fork", std::to_string(kThreads), "2000"},
                           {"PLX_OUTPUT=" + path, "PLX_LIVE=" + receiver.endpoint()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<Frame>& frames = receiver.Wait();
  EXPECT_TRUE(receiver.ended_cleanly());
  ASSERT_GE(frames.size(), 3u);
  EXPECT_EQ(frames.back().kind, kEnd);
  EXPECT_EQ(StreamChunks(frames).size(), FileChunks(path).size());
  EXPECT_TRUE(std::filesystem::exists(path + ".parts"));
}

TEST(Live, ReceiverThatHangsUpHarmsNothing) {
  TempDir dir;
  const std::string path = dir.File("hangup.plx");
  constexpr uint64_t kIterations = 150000;  // ~12 MB: far more than the socket buffers hold
  Receiver receiver(Receiver::Mode::kResetAfterChunk);
  RunResult r =
      RunProgram({Child(), "stress", std::to_string(kThreads), std::to_string(kIterations)},
                 {"PLX_OUTPUT=" + path, "PLX_LIVE=" + receiver.endpoint()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CountLines(r.output, "parallax: live stream to " + receiver.endpoint() + ": "), 1)
      << r.output;
  EXPECT_EQ(CountLines(r.output, "parallax:"), 1) << r.output;
  const std::vector<Frame>& frames = receiver.Wait();
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].kind, kChunk);
  ExpectCompleteFile(path, kIterations);
}

TEST(Live, ReceiverThatNeverReadsHarmsNothing) {
  TempDir dir;
  const std::string path = dir.File("stuck.plx");
  constexpr uint64_t kIterations = 150000;
  Receiver receiver(Receiver::Mode::kReadWhenReleased);
  ChildProcess child(
      {Child(), "stress", std::to_string(kThreads), std::to_string(kIterations)},
      {"PLX_OUTPUT=" + path, "PLX_LIVE=" + receiver.endpoint(), "PLX_LIVE_BUFFER=64K"});
  ASSERT_TRUE(child.started());
  // A hang guard, not a timing goal: the program must end on its own.
  for (int waited = 0; child.Running() && waited < 1200; ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_FALSE(child.Running()) << "the traced program waits for the receiver";
  RunResult r = child.Wait();
  ASSERT_EQ(r.exit_code, 0) << r.output;

  receiver.Release();
  const std::vector<Frame>& frames = receiver.Wait();
  EXPECT_TRUE(receiver.error().empty()) << receiver.error();
  ASSERT_GE(frames.size(), 1u);
  EXPECT_EQ(frames.front().kind, kHello);
  // Either END (which fit in the socket buffers) counts the chunks left out,
  // or the connection was dropped at exit, perhaps inside a frame, with one line.
  const int lines = CountLines(r.output, "parallax: live stream to " + receiver.endpoint() + ": ");
  if (frames.back().kind == kEnd) {
    EXPECT_FALSE(receiver.truncated());
    EXPECT_GT(std::stoll(JsonField(frames.back().text(), "dropped_chunks")), 0)
        << frames.back().text();
    EXPECT_EQ(lines, 0) << r.output;
  } else {
    EXPECT_EQ(lines, 1) << r.output;
  }
  const std::vector<Bytes> file_chunks = FileChunks(path);
  const std::vector<Bytes> streamed = StreamChunks(frames);
  EXPECT_LT(streamed.size(), file_chunks.size());
  EXPECT_TRUE(IsSubsequence(streamed, file_chunks));
  ExpectCompleteFile(path, kIterations);
}

TEST(Live, NothingListening) {
  TempDir dir;
  const std::string path = dir.File("alone.plx");
  constexpr uint64_t kIterations = 5000;
  // A bound socket that does not listen: connections to its port are refused.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string endpoint = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  RunResult r =
      RunProgram({Child(), "stress", std::to_string(kThreads), std::to_string(kIterations)},
                 {"PLX_OUTPUT=" + path, "PLX_LIVE=" + endpoint});
  ::close(fd);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CountLines(r.output, "parallax: live stream to " + endpoint + ": connect: "), 1)
      << r.output;
  EXPECT_EQ(CountLines(r.output, "parallax:"), 1) << r.output;
  ExpectCompleteFile(path, kIterations);
}

TEST(Live, WithoutFile) {
  TempDir dir;
  constexpr uint64_t kIterations = 20000;
  Receiver receiver(Receiver::Mode::kRead);
  RunResult r =
      RunProgram({"/bin/sh", "-c", "cd '" + dir.path() + "' && exec \"$0\" \"$@\"", Child(),
                  "stress", std::to_string(kThreads), std::to_string(kIterations)},
                 {"PLX_OUTPUT=-", "PLX_LIVE=" + receiver.endpoint()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("parallax:"), std::string::npos) << r.output;
  EXPECT_TRUE(ReadFile(dir.File("-")).empty());
  EXPECT_EQ(::access(dir.File("-").c_str(), F_OK), -1) << "a file named - was written";
  EXPECT_EQ(::access(dir.File("capture_child.plx").c_str(), F_OK), -1);

  const std::vector<Frame>& frames = receiver.Wait();
  EXPECT_TRUE(receiver.ended_cleanly()) << receiver.error();
  ASSERT_GE(frames.size(), 3u);
  ASSERT_EQ(frames.back().kind, kEnd);
  EXPECT_EQ(JsonField(frames.back().text(), "status"), "finished");
  // The stream alone is the whole trace: written out as a file, it reads back complete.
  Bytes bytes(format::kFileHeaderSize);
  format::EncodeFileHeader(bytes.data());
  for (const Bytes& c : StreamChunks(frames))
    bytes.insert(bytes.end(), c.begin(), c.end());
  auto file = format::TraceFile::FromBytes("stream", std::move(bytes));
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ((*file)->report().damaged_chunks, 0u);
  ExpectWholePattern(**file, kIterations);
  EXPECT_EQ(JsonField(frames.back().text(), "records"), std::to_string((*file)->total_records()));
  EXPECT_EQ(JsonField(frames.back().text(), "dropped_chunks"), "0");
}

TEST(Live, CrashSendsEnd) {
  TempDir dir;
  const std::string path = dir.File("crash.plx");
  constexpr uint64_t kIterations = 3000;
  Receiver receiver(Receiver::Mode::kRead);
  RunResult r = RunProgram(
      {Child(), "abort", std::to_string(kThreads), std::to_string(kIterations)},
      {"PLX_OUTPUT=" + path, "PLX_LIVE=" + receiver.endpoint(),
       "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:detect_leaks=0"});
  ASSERT_EQ(r.signal, SIGABRT) << "exit " << r.exit_code << ": " << r.output;
  const std::vector<Frame>& frames = receiver.Wait();
  EXPECT_TRUE(receiver.ended_cleanly()) << receiver.error();
  ASSERT_GE(frames.size(), 2u);
  EXPECT_EQ(frames.front().kind, kHello);
  ASSERT_EQ(frames.back().kind, kEnd);
  const std::string end = frames.back().text();
  EXPECT_EQ(JsonField(end, "status"), "crashed") << end;
  EXPECT_EQ(JsonField(end, "signal"), std::to_string(SIGABRT)) << end;

  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_FALSE((*file)->report().truncated);
  ExpectWholePattern(**file, kIterations);
  EXPECT_EQ(JsonField(end, "records"), std::to_string((*file)->total_records())) << end;
  // What was streamed before the crash is the file's chunks; the crash flush is in the file only.
  EXPECT_TRUE(IsSubsequence(StreamChunks(frames), FileChunks(path)));
}

}  // namespace
}  // namespace plx::testing
