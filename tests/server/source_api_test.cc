// /source-files and /source, for a trace loaded into memory and served from
// its file: only the files the call sites name are read, relative names are
// found beside the trace or in --source-dir folders, the time at each line is
// the sum of its /stats?callsites=1 rows, and the access token is required.
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "server/api/api.h"
#include "server/http/http_server.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::server {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// solver.cc:42 on both ranks (one call site in the model), solver.cc:7 nested
// in it on rank 0, sub/kernel.h:3 on rank 1, and a file named by an absolute
// path (`absolute`) on rank 0.
std::string SourceScript(const std::string& absolute) {
  return testing::MpiScriptPreamble(2) +
         "state 0 10 setup\nstate 0 11 io\nstate 1 12 kernel\n"
         "callsite 0 1 solver.cc 42 function=solve\n"
         "callsite 0 2 solver.cc 7 function=setup\n"
         "callsite 0 3 " +
         absolute +
         " 2 function=io\n"
         "callsite 1 1 solver.cc 42 function=solve\n"
         "callsite 1 2 sub/kernel.h 3 function=kernel\n"
         "enter 0 0 t=1000 compute callsite=1\n"
         "enter 0 0 t=2000 setup callsite=2\n"
         "leave 0 0 t=3000 setup\n"
         "leave 0 0 t=10000 compute\n"
         "enter 0 0 t=10000 io callsite=3\n"
         "leave 0 0 t=11000 io\n"
         "enter 1 0 t=1000 compute callsite=1\n"
         "leave 1 0 t=5000 compute\n"
         "enter 1 0 t=5000 kernel callsite=2\n"
         "leave 1 0 t=6000 kernel\n"
         "enter 1 0 t=6000 compute callsite=1\n"
         "leave 1 0 t=8000 compute\n";
}

void WriteLines(const std::string& path, int lines, const std::string& tag) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path);
  for (int i = 1; i <= lines; ++i)
    out << tag << " line " << i << "\r\n";
}

class SourceApiTest : public ::testing::TestWithParam<bool> {
 protected:
  SourceApiTest() {
    absolute_ = other_.File("abs/io.c");
    WriteLines(absolute_, 3, "io");
    WriteLines(dir_.File("solver.cc"), 50, "solver");
    const std::string path = dir_.File("t.plx");
    const Status written = testing::WriteTraceScript(SourceScript(absolute_), path);
    EXPECT_TRUE(written.ok()) << written.message();
    ServedTrace& t = store_.Add(path);
    if (GetParam()) {  // served from its file, as a trace over the memory budget
      StoreServing serving;
      serving.index.dir = dir_.path();
      t.ServeLargeFromFile(serving, 0);
    }
    t.Load({});
    EXPECT_TRUE(t.ready()) << t.progress().error;
    EXPECT_EQ(t.from_store(), GetParam());
  }

  json Get(std::string_view path, std::string_view query = "") {
    const ApiResponse r = api_.Handle(path, query);
    EXPECT_EQ(r.status, 200) << path << "?" << query << ": " << r.body;
    return json::parse(r.body);
  }
  std::pair<int, std::string> Fail(std::string_view query) {
    const ApiResponse r = api_.Handle("/traces/t/source", query);
    return {r.status, json::parse(r.body).value("error", "")};
  }
  // The line's annotation in a /source answer (null when it has none).
  static json LineOf(const json& source, int line) {
    for (const json& l : source["lines"])
      if (l["line"] == line) return l;
    return nullptr;
  }

  testing::TempDir dir_, other_;
  std::string absolute_;
  TraceStore store_;
  Api api_{store_};
};

TEST_P(SourceApiTest, ListsTheFilesOfTheCallSites) {
  const json j = Get("/traces/t/source-files");
  ASSERT_EQ(j["files"].size(), 3u);
  // By name: the absolute path first.
  EXPECT_EQ(j["files"][0]["file"], absolute_);
  EXPECT_EQ(j["files"][1]["file"], "solver.cc");
  EXPECT_EQ(j["files"][2]["file"], "sub/kernel.h");
  EXPECT_TRUE(j["files"][0]["found"]);
  EXPECT_TRUE(j["files"][1]["found"]);
  EXPECT_FALSE(j["files"][2]["found"]);  // nowhere on this machine
  EXPECT_EQ(j["files"][1]["index"], 1);
  EXPECT_EQ(j["files"][1]["count"], 4);  // compute twice on rank 1, once on rank 0; setup
}

TEST_P(SourceApiTest, LineTimesAreTheSumsOfTheCallSiteStatistics) {
  const json stats = Get("/traces/t/stats", "callsites=1");
  const json source = Get("/traces/t/source", "file=solver.cc");
  EXPECT_EQ(source["file"], "solver.cc");
  EXPECT_EQ(source["path"], dir_.File("solver.cc"));
  ASSERT_EQ(source["text"].size(), 50u);
  EXPECT_EQ(source["text"][41], "solver line 42");  // without the "\r"
  for (int line : {7, 42}) {
    int64_t total = 0, self = 0, count = 0;
    for (const json& row : stats["rows"]) {
      if (row["callsite"].is_null() || row["callsite"]["file"] != "solver.cc" ||
          row["callsite"]["line"] != line)
        continue;
      total += row["total"].get<int64_t>();
      self += row["self"].get<int64_t>();
      count += row["count"].get<int64_t>();
    }
    const json l = LineOf(source, line);
    ASSERT_FALSE(l.is_null()) << line;
    EXPECT_GT(count, 0);
    EXPECT_EQ(l["total"], total) << line;
    EXPECT_EQ(l["self"], self) << line;
    EXPECT_EQ(l["count"], count) << line;
  }
  // compute at line 42: [1000, 10000) on rank 0, [1000, 5000) and [6000, 8000) on rank 1.
  EXPECT_EQ(LineOf(source, 42)["total"], 9000 + 4000 + 2000);
  EXPECT_EQ(LineOf(source, 42)["self"], 9000 - 1000 + 4000 + 2000);
  EXPECT_EQ(LineOf(source, 42)["states"][0]["name"], "compute");
  EXPECT_TRUE(LineOf(source, 1).is_null());
  // The file's own total, by index as well as by name.
  EXPECT_EQ(Get("/traces/t/source", "file=1")["total"], source["total"]);
}

TEST_P(SourceApiTest, ReadsOnlyTheFilesTheTraceNames) {
  const std::string escape = "../" + fs::path(dir_.path()).filename().string() + "/solver.cc";
  for (const std::string& file :
       {std::string("/etc/passwd"), std::string("t.plx"), std::string("./solver.cc"), escape,
        dir_.File("solver.cc"), std::string("3"), std::string("-1")}) {
    const auto [status, error] = Fail("file=" + file);
    EXPECT_EQ(status, 404) << file;
    EXPECT_NE(error.find("not a source file of this trace"), std::string::npos) << error;
  }
  EXPECT_EQ(Fail("").first, 400);  // no file
}

TEST_P(SourceApiTest, AbsoluteNamesAreReadWhereTheyAre) {
  const json j = Get("/traces/t/source", "file=0");
  EXPECT_EQ(j["path"], absolute_);
  EXPECT_EQ(j["text"][1], "io line 2");
  EXPECT_EQ(LineOf(j, 2)["total"], 1000);
}

TEST_P(SourceApiTest, RelativeNamesAreFoundInSourceDirsFirst) {
  // Not on this machine: a 404 that says where it looked.
  auto [status, error] = Fail("file=sub/kernel.h");
  EXPECT_EQ(status, 404);
  EXPECT_NE(error.find("is not on this machine"), std::string::npos) << error;
  EXPECT_NE(error.find(dir_.path()), std::string::npos) << error;
  WriteLines(other_.File("src/sub/kernel.h"), 5, "kernel");
  WriteLines(other_.File("src/solver.cc"), 60, "other solver");
  store_.SetSourceDirs({other_.File("nothing"), other_.File("src")});
  json j = Get("/traces/t/source", "file=sub/kernel.h");
  EXPECT_EQ(j["path"], other_.File("src/sub/kernel.h"));
  EXPECT_EQ(j["text"][2], "kernel line 3");
  EXPECT_EQ(LineOf(j, 3)["total"], 1000);
  // A --source-dir comes before the trace file's folder.
  EXPECT_EQ(Get("/traces/t/source", "file=solver.cc")["text"][0], "other solver line 1");
  EXPECT_TRUE(Get("/traces/t/source-files")["files"][2]["found"]);
}

TEST_P(SourceApiTest, LargeFilesAreRefused) {
  std::ofstream(dir_.File("solver.cc")) << std::string((4 << 20) + 1, 'x');
  const auto [status, error] = Fail("file=solver.cc");
  EXPECT_EQ(status, 413);
  EXPECT_NE(error.find("over the limit"), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndFromFile, SourceApiTest, ::testing::Bool());

// Over HTTP, /source answers only with the access token.
TEST(SourceHttpTest, TheTokenIsRequired) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  namespace net = boost::asio;
  testing::TempDir dir;
  WriteLines(dir.File("solver.cc"), 50, "solver");
  const std::string path = dir.File("t.plx");
  ASSERT_TRUE(testing::WriteTraceScript(SourceScript("/nowhere/io.c"), path).ok());
  TraceStore store;
  store.Add(path).Load({});
  ServerOptions options;
  options.token = "0123456789abcdef0123456789abcdef";
  HttpServer server(store, options);
  ASSERT_TRUE(server.Start().ok());
  const auto get = [&](const std::string& target) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), server.port()));
    http::request<http::string_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return std::pair<int, std::string>(res.result_int(), res.body());
  };
  const std::string target = "/api/v1/traces/t/source?file=solver.cc";
  EXPECT_EQ(get(target).first, 401);
  EXPECT_EQ(get(target + "&token=wrong").first, 401);
  const auto [status, body] = get(target + "&token=" + options.token);
  EXPECT_EQ(status, 200) << body;
  EXPECT_EQ(json::parse(body)["text"][41], "solver line 42");
  server.Stop();
}

}  // namespace
}  // namespace plx::server
