// `parallax convert` as a program: formats by extension and by option, the
// summary line, progress per step, gzip output, --force, and one-line errors
// with exit status 1 (bad input, an existing output, an empty input) or 2
// (bad usage).
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "command_test.h"
#include "interop/import_counters.gen.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

class ConvertCmdTest : public CommandTest {
 protected:
  ConvertCmdTest() : CommandTest("convert") {}
  void SetUp() override {
    path_ = dir_.File("t.plx");
    const Status s =
        testing::WriteTraceScript(testing::MpiScriptPreamble(2) +
                                      "enter 0 0 t=1000 MPI_Send\n"
                                      "send 0 0 t=1100 comm=world peer=1 tag=5 bytes=64\n"
                                      "leave 0 0 t=1200 MPI_Send\n"
                                      "enter 1 0 t=1000 MPI_Recv\n"
                                      "recv 1 0 t=1300 comm=world peer=0 tag=5 bytes=64\n"
                                      "leave 1 0 t=1400 MPI_Recv\n",
                                  path_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
};

TEST_F(ConvertCmdTest, ConvertsByExtensionAndBack) {
  const testing::RunResult to_json = Run({dir_.File("t.json")});
  ASSERT_EQ(to_json.exit_code, 0) << to_json.output;
  EXPECT_EQ(
      to_json.output.rfind(
          "wrote " + dir_.File("t.json") + " (json): 6 events from " + path_ + " (plx) in ", 0),
      0u)
      << to_json.output;
  const testing::RunResult back = RunOn(dir_.File("t.json"), {dir_.File("back.plx")});
  ASSERT_EQ(back.exit_code, 0) << back.output;
  EXPECT_NE(back.output.find("(plx): 6 events from"), std::string::npos) << back.output;
  // The round trip kept the states: `parallax stats` sees both calls.
  const testing::RunResult stats =
      testing::RunProgram({testing::BuildPath("src/cli/parallax"), "stats", dir_.File("back.plx")});
  EXPECT_NE(stats.output.find("MPI_Send"), std::string::npos) << stats.output;
  EXPECT_NE(stats.output.find("MPI_Recv"), std::string::npos) << stats.output;
}

TEST_F(ConvertCmdTest, ImportCountersInTheSummaryAndInInfo) {
  FILE* f = std::fopen(dir_.File("e.json").c_str(), "w");
  std::fputs(R"([{"ph":"B","name":"a","pid":1,"tid":1,"ts":1},)"
             R"({"ph":"E","pid":1,"tid":1,"ts":2},{"ph":"E","pid":1,"tid":1,"ts":5}])",
             f);
  std::fclose(f);
  const testing::RunResult r = RunOn(dir_.File("e.json"), {dir_.File("e.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the importer skipped or repaired:\n  chrome.unmatched_end"),
            std::string::npos)
      << r.output;
  const testing::RunResult info =
      testing::RunProgram({testing::BuildPath("src/cli/parallax"), "info", dir_.File("e.plx")});
  EXPECT_NE(info.output.find("imported (what the importer skipped or repaired"), std::string::npos)
      << info.output;
  // Each counter with its count, severity and what it means (spec/import_counters.toml).
  const interop::ImportCounterInfo& end =
      interop::InfoOf(interop::ImportCounter::kChromeUnmatchedEnd);
  EXPECT_NE(info.output.find(
                fmt::format("chrome.unmatched_end      1  data_loss  {}\n", end.description)),
            std::string::npos)
      << info.output;
  const testing::RunResult json = testing::RunProgram(
      {testing::BuildPath("src/cli/parallax"), "info", dir_.File("e.plx"), "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const nlohmann::json j = nlohmann::json::parse(json.output, nullptr, false);
  ASSERT_TRUE(j.contains("imported")) << json.output;
  EXPECT_EQ(j["imported"],
            nlohmann::json::parse(fmt::format(R"([{{"name": "chrome.unmatched_end", "count": 1, )"
                                              R"("severity": "data_loss", "description": {}}}])",
                                              nlohmann::json(end.description).dump())))
      << json.output;
}

// Every command opens a file of another format as the trace its import
// makes, imported once into a copy kept in the cache and made again when
// the file changes; what the import dropped is told at every open.
TEST_F(ConvertCmdTest, CommandsOpenOtherFormatsThroughAKeptImport) {
  const std::string json = dir_.File("e.json"), plx = dir_.File("e.plx");
  const auto write = [&](const char* text) {
    FILE* f = std::fopen(json.c_str(), "w");
    std::fputs(text, f);
    std::fclose(f);
  };
  write(R"([{"ph":"B","name":"a","pid":1,"tid":1,"ts":1},)"
        R"({"ph":"E","pid":1,"tid":1,"ts":2},{"ph":"E","pid":1,"tid":1,"ts":5}])");
  ASSERT_EQ(RunOn(json, {plx}).exit_code, 0);
  // stdout apart from stderr, with the cache in the test's directory.
  const auto run = [&](const std::string& command, const std::string& trace) {
    testing::RunResult r = testing::RunProgram(
        {"/bin/sh", "-c", "\"$0\" \"$1\" --json \"$2\" > \"$3\"",
         testing::BuildPath("src/cli/parallax"), command, trace, dir_.File("out.json")},
        {"XDG_CACHE_HOME=" + dir_.File("cache")});
    r.output += "\n---\n" + testing::ReadFile(dir_.File("out.json"));
    return r;
  };
  const std::string warning =
      "parallax: warning: " + json + ": the import dropped 1 x chrome.unmatched_end";
  for (const char* command : {"stats", "report", "info"}) {
    testing::RunResult from_json = run(command, json);
    testing::RunResult from_plx = run(command, plx);
    EXPECT_EQ(from_json.exit_code, 0) << command << ": " << from_json.output;
    EXPECT_NE(from_json.output.find(warning), std::string::npos) << from_json.output;
    const std::string a = from_json.output.substr(from_json.output.find("\n---\n"));
    std::string b = from_plx.output.substr(from_plx.output.find("\n---\n"));
    for (size_t at = b.find(plx); at != std::string::npos; at = b.find(plx, at))
      b.replace(at, plx.size(), json);
    EXPECT_EQ(a, b) << command;
  }
  std::vector<std::filesystem::path> kept;
  for (const auto& e : std::filesystem::directory_iterator(dir_.File("cache/parallax")))
    if (e.path().string().ends_with("e.json.plx")) kept.push_back(e.path());
  ASSERT_EQ(kept.size(), 1u);
  const auto made = std::filesystem::last_write_time(kept[0]);
  EXPECT_EQ(run("stats", json).exit_code, 0);
  EXPECT_EQ(std::filesystem::last_write_time(kept[0]), made);  // reused
  write(R"([{"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":3}])");
  testing::RunResult again = run("stats", json);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(again.output.find(warning), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("\"b\""), std::string::npos) << again.output;
  EXPECT_NE(std::filesystem::last_write_time(kept[0]), made);
}

// A file from another version may carry counters this one does not know:
// listed all the same, with no severity or description.
TEST_F(ConvertCmdTest, InfoListsImportCountersItDoesNotKnow) {
  const std::string path = dir_.File("future.plx");
  ASSERT_TRUE(testing::WriteTraceScript(testing::MpiScriptPreamble(1) +
                                            "attribute 0 import.chrome.from_the_future 7\n"
                                            "attribute 0 import.paje.bad_colors 2\n"
                                            "enter 0 0 t=1000 MPI_Send\n"
                                            "leave 0 0 t=1200 MPI_Send\n",
                                        path)
                  .ok());
  const testing::RunResult info =
      testing::RunProgram({testing::BuildPath("src/cli/parallax"), "info", path});
  ASSERT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("  chrome.from_the_future      7\n"), std::string::npos)
      << info.output;
  EXPECT_NE(info.output.find(
                fmt::format("  paje.bad_colors             2  data_loss  {}\n",
                            interop::InfoOf(interop::ImportCounter::kPajeBadColors).description)),
            std::string::npos)
      << info.output;
  const testing::RunResult json =
      testing::RunProgram({testing::BuildPath("src/cli/parallax"), "info", path, "--json"});
  const nlohmann::json j = nlohmann::json::parse(json.output, nullptr, false);
  ASSERT_EQ(j["imported"].size(), 2u) << json.output;
  EXPECT_EQ(j["imported"][0], nlohmann::json::parse(R"({"name": "chrome.from_the_future",
      "count": 7, "severity": "", "description": ""})"));
  EXPECT_EQ(j["imported"][1]["severity"], "data_loss");
}

TEST_F(ConvertCmdTest, FormatsByOptionAndProgressPerStep) {
  const testing::RunResult r = Run({dir_.File("t.txt"), "--to", "paje", "--progress"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("parallax: loading 100%"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("parallax: writing 100% (6 of 6 events)"), std::string::npos) << r.output;
  const testing::RunResult back =
      RunOn(dir_.File("t.txt"), {dir_.File("b.plx"), "--from", "paje", "--progress"});
  ASSERT_EQ(back.exit_code, 0) << back.output;
  EXPECT_NE(back.output.find("parallax: reading 100%"), std::string::npos) << back.output;
}

TEST_F(ConvertCmdTest, BadUsageAndBadInput) {
  testing::RunResult r = Run({dir_.File("t.xyz")});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("t.xyz: cannot tell its format from the name"), std::string::npos)
      << r.output;
  r = Run({dir_.File("t.json"), "--to", "vampir"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown format \"vampir\""), std::string::npos) << r.output;
  r = RunOn(dir_.File("missing.json"), {dir_.File("m.plx")});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("missing.json"), std::string::npos) << r.output;
  // A line of garbage in a Paje file: file and line in one line.
  FILE* f = std::fopen(dir_.File("bad.paje").c_str(), "w");
  std::fputs(
      "%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n"
      "%EndEventDef\n0 P 0 Process\nnonsense here\n",
      f);
  std::fclose(f);
  r = RunOn(dir_.File("bad.paje"), {dir_.File("bad.plx")});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("parallax: error: " + dir_.File("bad.paje") + ":7: "), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
}

TEST_F(ConvertCmdTest, GzipOutputExistingOutputAndEmptyInput) {
  const std::string gz = dir_.File("t.json.gz");
  testing::RunResult r = Run({gz});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(testing::RunProgram({"/bin/sh", "-c", "gzip -t " + gz}).exit_code, 0);
  r = RunOn(gz, {dir_.File("x.plx")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(plx): 6 events from"), std::string::npos) << r.output;

  for (const std::string& out : {gz, dir_.File("x.plx")}) {
    const std::string before = testing::ReadFile(out);
    r = out == gz ? Run({gz}) : RunOn(gz, {out});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(r.output,
              "parallax: error: " + out + ": already exists (give --force to overwrite it)\n");
    EXPECT_EQ(testing::ReadFile(out), before);
  }
  r = RunOn(gz, {dir_.File("x.plx"), "--force"});
  EXPECT_EQ(r.exit_code, 0) << r.output;

  for (const char* name : {"empty.picl", "empty.paje"}) {
    std::fclose(std::fopen(dir_.File(name).c_str(), "w"));
    r = RunOn(dir_.File(name), {dir_.File(std::string(name) + ".plx")});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(r.output.rfind("parallax: error: " + dir_.File(name) + ": empty input", 0), 0u)
        << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  }
}

}  // namespace
}  // namespace plx::cli
