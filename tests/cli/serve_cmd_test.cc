// `parallax serve` and `parallax view` run for real: the URL line, the token
// on a real request over 127.0.0.1, Ctrl-C ending the server with status 0,
// and clear errors for a missing file or an address that cannot be bound;
// what a live peer sends is printed with its control characters escaped.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "server/api_test_trace.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::testing {
namespace {

// The status line and body of GET `target` on 127.0.0.1:port (HTTP/1.0, so
// the server closes the connection after its answer).
// Reads the child's lines until one matches `re`: the match and its groups
// (none when no line matched within 20 s); the other lines go to `*before`.
std::vector<std::string> AwaitLine(ChildProcess* p, const std::regex& re, std::string* before) {
  std::string line;
  std::smatch m;
  while (p->ReadLine(&line, 20000)) {
    if (std::regex_search(line, m, re)) return std::vector<std::string>(m.begin(), m.end());
    *before += line + "\n";
  }
  return {};
}

std::string HttpGet(int port, const std::string& target) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "connect failed";
  }
  const std::string request = "GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return "write failed";
  }
  std::string answer;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;)
    answer.append(buffer, static_cast<size_t>(n));
  close(fd);
  return answer;
}

// Reads the server's lines until its URL line: the port and the token.
void AwaitUrl(ChildProcess* server, int* port, std::string* token) {
  std::string all;
  const std::vector<std::string> m =
      AwaitLine(server, std::regex(R"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))"), &all);
  ASSERT_FALSE(m.empty()) << "no URL line in:\n" << all;
  *port = std::stoi(m[1]);
  *token = m[2];
}

TEST(ServeCmdTest, PrintsATokenUrlServesWithItAndStopsOnCtrlC) {
  TempDir dir;
  const std::string trace = dir.File("run.plx");
  ASSERT_TRUE(WriteTraceScript(ApiTestScript(), trace).ok());
  ChildProcess server({BuildPath("src/cli/parallax"), "serve", trace, "--no-browser"});
  int port = 0;
  std::string token;
  ASSERT_NO_FATAL_FAILURE(AwaitUrl(&server, &port, &token));

  EXPECT_NE(HttpGet(port, "/api/v1/traces").find("401"), std::string::npos);
  std::string answer;
  for (int i = 0; i < 100; ++i) {  // the trace loads in the background
    answer = HttpGet(port, "/api/v1/traces/run/summary?token=" + token);
    if (answer.find(" 503 ") == std::string::npos) break;
    usleep(50000);
  }
  EXPECT_NE(answer.find("HTTP/1.0 200"), std::string::npos) << answer;
  EXPECT_NE(answer.find("\"name\":\"run.plx\""), std::string::npos) << answer;

  server.Signal(SIGINT);
  const RunResult r = server.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("run.plx: ready"), std::string::npos) << r.output;
}

TEST(ServeCmdTest, ServesAPartsDirectoryAsItsTrace) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("run.plx.parts"));
  for (int rank = 0; rank < 2; ++rank) {
    const std::string r = std::to_string(rank);
    ASSERT_TRUE(WriteTraceScript("process 0 pid=10" + r + " rank=" + r +
                                     "\nthread 0 1 tid=1 name=main\nstate 0 1 work\n"
                                     "enter 0 1 t=0 work\nleave 0 1 t=10 work\n",
                                 dir.File("run.plx.parts/rank-" + r + ".plx"))
                    .ok());
  }
  ChildProcess server(
      {BuildPath("src/cli/parallax"), "serve", dir.File("run.plx.parts"), "--no-browser"},
      {"XDG_CACHE_HOME=" + dir.File("cache")});
  int port = 0;
  std::string token;
  ASSERT_NO_FATAL_FAILURE(AwaitUrl(&server, &port, &token));
  std::string answer;
  for (int i = 0; i < 100; ++i) {
    answer = HttpGet(port, "/api/v1/traces?token=" + token);
    if (answer.find("\"status\":\"ready\"") != std::string::npos) break;
    usleep(50000);
  }
  EXPECT_NE(answer.find("\"name\":\"run.plx.parts\""), std::string::npos) << answer;
  std::smatch id;
  ASSERT_TRUE(std::regex_search(answer, id, std::regex(R"re("id":"([^"]+)")re"))) << answer;
  answer = HttpGet(port, "/api/v1/traces/" + id[1].str() + "/summary?token=" + token);
  EXPECT_NE(answer.find("HTTP/1.0 200"), std::string::npos) << answer;
  // Both parts' processes, as the merged file has them.
  EXPECT_NE(answer.find("\"rank\":1"), std::string::npos) << answer;
  server.Signal(SIGINT);
  EXPECT_EQ(server.Wait().exit_code, 0);
}

TEST(ServeCmdTest, ViewWithoutADisplayPrintsTheUrlAndSaysSo) {
  TempDir dir;
  const std::string trace = dir.File("run.plx");
  ASSERT_TRUE(WriteTraceScript(ApiTestScript(), trace).ok());
  ChildProcess server({"/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "-u", "BROWSER",
                       BuildPath("src/cli/parallax"), "view", trace});
  std::string line, all;
  bool said = false;
  for (int i = 0; i < 10 && !said && server.ReadLine(&line, 20000); ++i) {
    all += line + "\n";
    said = line.find("no display to open a browser on") != std::string::npos;
  }
  EXPECT_TRUE(said) << all;
  EXPECT_NE(all.find("http://127.0.0.1:"), std::string::npos) << all;
  server.Signal(SIGTERM);
  EXPECT_EQ(server.Wait().exit_code, 0);
}

// Sends one live-protocol HELLO frame (docs/live.md: length u32le of kind and
// payload, kind 1, JSON) to 127.0.0.1:port and keeps the connection open.
int SendLiveHello(int port, const std::string& json) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  const uint32_t length = static_cast<uint32_t>(json.size() + 1);
  std::string frame;
  for (int i = 0; i < 4; ++i)
    frame += static_cast<char>((length >> (8 * i)) & 0xff);
  frame += '\x01';
  frame += json;
  EXPECT_EQ(write(fd, frame.data(), frame.size()), static_cast<ssize_t>(frame.size()));
  return fd;
}

TEST(ServeCmdTest, LivePeerTextIsPrintedWithControlCharactersEscaped) {
  ChildProcess server(
      {BuildPath("src/cli/parallax"), "serve", "--listen", "127.0.0.1:0", "--no-browser"});
  std::string line, all;
  const std::vector<std::string> m = AwaitLine(
      &server, std::regex(R"(PLX_LIVE=127\.0\.0\.1:(\d+) PLX_LIVE_TOKEN=([0-9a-f]{32}))"), &all);
  ASSERT_FALSE(m.empty()) << "no PLX_LIVE line in:\n" << all;
  const int port = std::stoi(m[1]);
  const std::string token = m[2];

  // A host name that would end the line and turn the terminal red, an
  // executable that would set the window title; then a bad field.
  const int good = SendLiveHello(
      port, R"({"protocol":1,"token":")" + token +
                R"(","format":"1.1","pid":42,"host":"evil\nparallax: forged\u001b[31m",)"
                R"("executable":"/bin/x\u001b]0;owned\u0007\r"})");
  const int bad = SendLiveHello(
      port, R"({"protocol":1,"token":")" + token + R"(","format":"\u001b[2J\n","pid":43})");
  ASSERT_GE(good, 0);
  ASSERT_GE(bad, 0);
  std::string printed;
  bool connected = false, refused = false;
  while ((!connected || !refused) && server.ReadLine(&line, 20000)) {
    printed += line + "\n";
    connected = connected || line.find("connected") != std::string::npos;
    refused = refused || line.find("is not MAJOR.MINOR") != std::string::npos;
  }
  close(good);
  close(bad);
  server.Signal(SIGINT);
  printed += server.Wait().output;
  EXPECT_TRUE(connected && refused) << printed;
  EXPECT_NE(printed.find("(pid 42, evil\\nparallax: forged\\x1b[31m): connected "
                         "(/bin/x\\x1b]0;owned\\x07\\r)"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("format '\\x1b[2J\\n' is not MAJOR.MINOR"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("\nparallax: forged"), std::string::npos) << printed;
  for (const char c : printed)
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20)
        << "raw control character " << static_cast<int>(c) << " in:\n"
        << printed;
}

TEST(ServeCmdTest, MissingFilesAndBadAddressesAreErrors) {
  TempDir dir;
  const RunResult missing =
      RunProgram({BuildPath("src/cli/parallax"), "serve", dir.File("none.plx"), "--no-browser"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("none.plx: no such file"), std::string::npos) << missing.output;

  const std::string trace = dir.File("run.plx");
  ASSERT_TRUE(WriteTraceScript(ApiTestScript(), trace).ok());
  const RunResult bind = RunProgram(
      {BuildPath("src/cli/parallax"), "serve", trace, "--bind", "nowhere", "--no-browser"});
  EXPECT_EQ(bind.exit_code, 1);
  EXPECT_NE(bind.output.find("--bind: 'nowhere' is not an IP address"), std::string::npos)
      << bind.output;

  const RunResult usage = RunProgram({BuildPath("src/cli/parallax"), "view"});
  EXPECT_EQ(usage.exit_code, 2) << usage.output;
}

}  // namespace
}  // namespace plx::testing
