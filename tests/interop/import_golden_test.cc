// Golden tests of the importers: each tests/interop/golden/<format>/<case>.<ext>
// is a small input that the built `parallax` converts to .plx and dumps; the
// output must equal <case>.dump beside it (Perfetto's diff tests are the
// model: one input, one expected output, per case).
//
// A .dump file holds, for an input that imports, what `parallax convert`
// printed after its summary line (the importer's counters, when it counted
// anything), the process and thread tables of `parallax info`, and then
// `parallax dump` of the result; for an input that does not, `exit N` and
// the one-line error convert printed on stderr.
// PLX_UPDATE_GOLDEN=1 writes the .dump files from the actual output (review
// the diff!); a new case is an input file, run once that way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace plx::testing {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string format;  // folder under golden/
  std::string input;   // file name in it
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.format << "/" << c.input;
}

fs::path GoldenDir() {
  return fs::path(PLX_IMPORT_GOLDEN_DIR);
}

fs::path ExpectedPath(const Case& c) {
  std::string stem = c.input;
  stem = stem.substr(0, stem.find('.'));
  return GoldenDir() / c.format / (stem + ".dump");
}

// Runs the built parallax with `args` in `dir`; stdout in `out`, stderr in
// `err`, the exit status returned.
int Parallax(const TempDir& dir, const std::vector<std::string>& args, std::string* out,
             std::string* err) {
  std::vector<std::string> argv = {
      "/bin/sh", "-c",       R"(cd "$1" && shift && exec "$@" 2>.stderr)",
      "sh",      dir.path(), BuildPath("src/cli/parallax")};
  argv.insert(argv.end(), args.begin(), args.end());
  const RunResult r = RunProgram(argv);
  *out = r.output;
  *err = ReadFile(dir.File(".stderr"));
  fs::remove(dir.File(".stderr"));
  return r.signal ? 128 + r.signal : r.exit_code;
}

// What the .dump file of `c` should hold.
std::string Actual(const Case& c) {
  TempDir dir;
  fs::copy_file(GoldenDir() / c.format / c.input, dir.File(c.input));
  std::string out, err;
  const int code = Parallax(dir, {"convert", c.input, "t.plx"}, &out, &err);
  if (code != 0) return "exit " + std::to_string(code) + "\n" + err;
  // The summary line names the time taken: keep what follows it.
  const size_t eol = out.find('\n');
  std::string text = eol == std::string::npos ? "" : out.substr(eol + 1);
  // Names, ranks and pids: the process and thread tables of `parallax info`
  // (the rest of it names file sizes, which change with the format).
  std::string info;
  if (Parallax(dir, {"info", "t.plx"}, &info, &err) != 0) return "info: failed\n" + err;
  const size_t from = info.find("processes (");
  const size_t to = info.find("\ndefinitions", from);
  if (from == std::string::npos || to == std::string::npos) return "info: no tables\n" + info;
  text += info.substr(from, to + 1 - from);  // ends with a blank line
  std::string dump;
  if (Parallax(dir, {"dump", "t.plx"}, &dump, &err) != 0) return "dump: failed\n" + err;
  return text + dump;
}

class ImportGoldenTest : public ::testing::TestWithParam<Case> {};

TEST_P(ImportGoldenTest, DumpMatches) {
  const Case& c = GetParam();
  const std::string actual = Actual(c);
  const fs::path expected = ExpectedPath(c);
  if (std::getenv("PLX_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(expected, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(expected))
      << expected << " is missing: run with PLX_UPDATE_GOLDEN=1 to write it";
  EXPECT_EQ(actual, ReadFile(expected.string())) << c.format << "/" << c.input;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const auto& format : fs::directory_iterator(GoldenDir())) {
    if (!format.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(format.path()))
      if (e.path().extension() != ".dump")
        cases.push_back({format.path().filename().string(), e.path().filename().string()});
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) {
    return a.format != b.format ? a.format < b.format : a.input < b.input;
  });
  return cases;
}

// A .dump left behind by a renamed or removed input would never be checked.
TEST(ImportGoldenFilesTest, EveryDumpHasAnInput) {
  std::vector<fs::path> expected;
  for (const Case& c : Cases())
    expected.push_back(ExpectedPath(c));
  for (const auto& format : fs::directory_iterator(GoldenDir())) {
    if (!format.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(format.path())) {
      if (e.path().extension() != ".dump") continue;
      EXPECT_NE(std::find(expected.begin(), expected.end(), e.path()), expected.end())
          << e.path() << " belongs to no input";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Importers, ImportGoldenTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           std::string n = param.param.format + "_" + param.param.input;
                           std::replace_if(
                               n.begin(), n.end(),
                               [](char ch) {
                                 return !std::isalnum(static_cast<unsigned char>(ch));
                               },
                               '_');
                           return n;
                         });

}  // namespace
}  // namespace plx::testing
