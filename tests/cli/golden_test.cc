// Golden tests of the `parallax` program: each tests/cli/golden/<name>.test
// holds trace scripts, command lines and their exact expected output (in the
// spirit of DuckDB's .test files and Perfetto's diff tests).
//
// File format, line by line:
//   # ...                 comment
//   trace NAME            a trace script (tests/support/trace_script.h) up to a
//   ...                   line `end`, written to NAME in the test's directory
//   end
//   file NAME             raw text up to `end`, written to NAME
//   truncate NAME N       keep the first N bytes of NAME (N < 0: drop -N bytes at the end)
//   corrupt NAME K        flip a payload byte of the K-th EVENTS chunk (0-based, reader order)
//   run ARGS...           run the built parallax with ARGS in the test's directory;
//   exit N                (optional, default 0) its expected exit code;
//   ----                  then its exact stdout,
//   ...
//   ---- stderr           (optional) its exact stderr,
//   ...
//   ====                  end of the expected output.
// PLX_UPDATE_GOLDEN=1 rewrites the files with the actual output (review the diff!).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "format/trace_file.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::testing {
namespace {

struct RunBlock {
  std::vector<std::string> args;
  int exit_code = 0;
  std::string out, err;
};

// A parsed .test file: verbatim lines, with run blocks in between.
struct GoldenFile {
  struct Item {
    std::vector<std::string> lines;  // verbatim (directives and comments)
    bool is_run = false;
    RunBlock run;
  };
  std::vector<Item> items;
};

std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any) words.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any) words.push_back(word);
  return words;
}

bool Parse(const std::string& text, GoldenFile* out, std::string* error) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l != "run" && l.rfind("run ", 0) != 0) {
      if (out->items.empty() || out->items.back().is_run) out->items.emplace_back();
      out->items.back().lines.push_back(l);
      continue;
    }
    GoldenFile::Item item;
    item.is_run = true;
    item.run.args = Words(l.substr(3));
    size_t j = i + 1;
    if (j < lines.size() && lines[j].rfind("exit ", 0) == 0)
      item.run.exit_code = std::stoi(lines[j++].substr(5));
    if (j >= lines.size() || lines[j] != "----") {
      *error = "line " + std::to_string(j + 1) + ": expected ---- after run";
      return false;
    }
    std::string* target = &item.run.out;
    for (++j; j < lines.size() && lines[j] != "===="; ++j) {
      if (lines[j] == "---- stderr") {
        target = &item.run.err;
        continue;
      }
      *target += lines[j] + "\n";
    }
    if (j >= lines.size()) {
      *error = "line " + std::to_string(i + 1) + ": run block without ====";
      return false;
    }
    out->items.push_back(std::move(item));
    i = j;
  }
  return true;
}

std::string Render(const GoldenFile& f) {
  std::string s;
  for (const GoldenFile::Item& item : f.items) {
    if (!item.is_run) {
      for (const std::string& l : item.lines)
        s += l + "\n";
      continue;
    }
    s += "run";
    for (const std::string& a : item.run.args)
      s += " " + (a.find(' ') != std::string::npos || a.empty() ? "\"" + a + "\"" : a);
    s += "\n";
    if (item.run.exit_code != 0) s += "exit " + std::to_string(item.run.exit_code) + "\n";
    s += "----\n" + item.run.out;
    if (!item.run.err.empty()) s += "---- stderr\n" + item.run.err;
    s += "====\n";
  }
  return s;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs a directive block (trace/file/truncate/corrupt lines and comments).
void RunDirectives(const std::vector<std::string>& lines, const TempDir& dir) {
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<std::string> w = Words(lines[i]);
    if (w.empty() || w[0][0] == '#') continue;
    if ((w[0] == "trace" || w[0] == "file") && w.size() == 2) {
      std::string body;
      for (++i; i < lines.size() && lines[i] != "end"; ++i)
        body += lines[i] + "\n";
      ASSERT_LT(i, lines.size()) << w[0] << " " << w[1] << " without end";
      if (w[0] == "file") {
        WriteText(dir.File(w[1]), body);
      } else {
        Status s = WriteTraceScript(body, dir.File(w[1]));
        ASSERT_TRUE(s.ok()) << s.message();
      }
    } else if (w[0] == "truncate" && w.size() == 3) {
      const std::string path = dir.File(w[1]);
      const auto size = static_cast<int64_t>(std::filesystem::file_size(path));
      const int64_t n = std::stoll(w[2]);
      std::filesystem::resize_file(path, static_cast<uintmax_t>(n >= 0 ? n : size + n));
    } else if (w[0] == "corrupt" && w.size() == 3) {
      const std::string path = dir.File(w[1]);
      uint64_t offset = 0;
      {
        auto file = format::TraceFile::Open(path);
        ASSERT_TRUE(file.ok()) << file.status().message();
        const size_t k = std::stoul(w[2]);
        ASSERT_LT(k, (*file)->event_chunks().size());
        offset = (*file)->event_chunks()[k].offset + format::kChunkHeaderSize;
      }
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(static_cast<std::streamoff>(offset));
      const char c = static_cast<char>(f.get());
      f.seekp(static_cast<std::streamoff>(offset));
      f.put(static_cast<char>(c ^ 0x5a));
    } else {
      FAIL() << "unknown directive: " << lines[i];
    }
  }
}

RunBlock Execute(const RunBlock& expected, const TempDir& dir) {
  // A shell puts the program in the test's directory (so file names in the
  // output are the short ones) and its stderr in a file of its own.
  std::vector<std::string> argv = {
      "/bin/sh", "-c",       R"(cd "$1" && shift && exec "$@" 2>.stderr)",
      "sh",      dir.path(), BuildPath("src/cli/parallax")};
  for (const std::string& a : expected.args)
    argv.push_back(a);
  RunResult r = RunProgram(argv, {"COLUMNS=100"});
  RunBlock actual;
  actual.args = expected.args;
  actual.exit_code = r.signal ? 128 + r.signal : r.exit_code;
  actual.out = r.output;
  actual.err = ReadFile(dir.File(".stderr"));
  std::filesystem::remove(dir.File(".stderr"));
  return actual;
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, Matches) {
  const std::string path = std::string(PLX_GOLDEN_DIR) + "/" + GetParam() + ".test";
  GoldenFile golden;
  std::string error;
  ASSERT_TRUE(Parse(ReadFile(path), &golden, &error)) << path << ": " << error;
  TempDir dir;
  const bool update = std::getenv("PLX_UPDATE_GOLDEN") != nullptr;
  for (GoldenFile::Item& item : golden.items) {
    if (!item.is_run) {
      RunDirectives(item.lines, dir);
      if (::testing::Test::HasFatalFailure()) return;
      continue;
    }
    RunBlock actual = Execute(item.run, dir);
    std::string command = "parallax";
    for (const std::string& a : item.run.args)
      command += " " + a;
    if (update) {
      item.run = actual;
      continue;
    }
    EXPECT_EQ(actual.exit_code, item.run.exit_code) << command;
    EXPECT_EQ(actual.out, item.run.out) << command << " (stdout)";
    EXPECT_EQ(actual.err, item.run.err) << command << " (stderr)";
  }
  if (update) WriteText(path, Render(golden));
}

std::vector<std::string> GoldenNames() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(PLX_GOLDEN_DIR))
    if (e.path().extension() == ".test") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Cli, GoldenTest, ::testing::ValuesIn(GoldenNames()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string n = param.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace plx::testing
