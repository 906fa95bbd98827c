// LiveClient and the replayed traces of the live tests.
#include "live_test_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

#include "support/trace_script.h"

namespace plx::testing {

LiveClient::LiveClient(uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) Close();
}

LiveClient::~LiveClient() {
  Close();
}

void LiveClient::Raw(const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (fd_ >= 0 && done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;  // the server closed it
    done += static_cast<size_t>(n);
  }
}

void LiveClient::Hello(const std::string& token, int64_t pid) {
  server::live::Hello h;
  h.protocol = server::live::kProtocol;
  h.token = token;
  h.format_major = 1;
  h.format_minor = 1;
  h.pid = pid;
  h.host = "testhost";
  h.executable = "/bin/ring";
  const std::string json = server::live::HelloJson(h);
  std::vector<uint8_t> frame;
  server::live::AppendFrame(server::live::FrameKind::kHello, json.data(), json.size(), &frame);
  Raw(frame);
}

void LiveClient::Chunk(const std::vector<uint8_t>& chunk) {
  std::vector<uint8_t> frame;
  server::live::AppendFrame(server::live::FrameKind::kChunk, chunk.data(), chunk.size(), &frame);
  Raw(frame);
}

void LiveClient::End(bool finished, uint64_t records) {
  server::live::End e;
  e.finished = finished;
  e.signal = finished ? 0 : 11;
  e.records = records;
  const std::string json = server::live::EndJson(e);
  std::vector<uint8_t> frame;
  server::live::AppendFrame(server::live::FrameKind::kEnd, json.data(), json.size(), &frame);
  Raw(frame);
}

void LiveClient::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string WriteRingTrace(const std::string& dir, int ranks, int iterations, int chunk) {
  std::string s = "option chunk=" + std::to_string(chunk) + " zstd=0\n" + MpiScriptPreamble(ranks);
  for (int i = 0; i < iterations; ++i) {
    const int64_t base = 1000 + int64_t{i} * 1000;
    for (int r = 0; r < ranks; ++r) {
      const std::string p = std::to_string(r) + " 0 t=";
      const int next = (r + 1) % ranks, prev = (r + ranks - 1) % ranks;
      const auto t = [&](int64_t dt) { return std::to_string(base + dt + r * 7); };
      s += "enter " + p + t(0) + " compute\nleave " + p + t(100 + (i * r) % 50) + " compute\n";
      s += "enter " + p + t(200) + " MPI_Send\n";
      s += "send " + p + t(210) + " comm=world peer=" + std::to_string(next) +
           " tag=5 bytes=64 match=" + std::to_string(2 * i + 1) + "\n";
      s += "leave " + p + t(220) + " MPI_Send\nenter " + p + t(300) + " MPI_Recv\n";
      s += "recv " + p + t(600) + " comm=world peer=" + std::to_string(prev) +
           " tag=5 bytes=64 match=" + std::to_string(2 * i + 2) + "\n";
      s += "leave " + p + t(610) + " MPI_Recv\n";
    }
  }
  const std::string path = dir + "/ring.plx";
  const Status st = WriteTraceScript(s, path);
  return st.ok() ? path : "";
}

std::string WriteLongTrace(const std::string& dir, int slices, int64_t step_ns, int chunk) {
  std::string s = "option chunk=" + std::to_string(chunk) + " zstd=1\n";
  s += "process 0 pid=42\nthread 0 0\nstate 0 9 compute\n";
  for (int i = 0; i < slices; ++i) {
    const int64_t t = 1000 + i * step_ns;
    s += "enter 0 0 t=" + std::to_string(t) +
         " compute\nleave 0 0 t=" + std::to_string(t + step_ns / 2) + " compute\n";
  }
  const std::string path = dir + "/long.plx";
  const Status st = WriteTraceScript(s, path);
  return st.ok() ? path : "";
}

std::vector<uint8_t> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool WaitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return done();
}

}  // namespace plx::testing
