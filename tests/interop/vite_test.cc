// ViTE (the trace explorer) reads our OTF2 and Paje exports: it parses them
// without an error or a warning and draws them (its SVG export, headless).
// Skipped with a message where ViTE is not installed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "interop/otf2/otf2.h"
#include "interop/paje/paje.h"
#include "interop_test_trace.h"
#include "support/test_support.h"

namespace plx::interop {
namespace {

constexpr const char* kVite = "/usr/bin/vite";

// Runs ViTE on `trace` in `dir` (it writes log.txt to its working directory)
// exporting `svg`; returns its output.
testing::RunResult RunVite(const std::string& dir, const std::string& trace,
                           const std::string& svg) {
  return testing::RunProgram(
      {"/bin/sh", "-c",
       "cd '" + dir + "' && exec " + kVite + " -f '" + trace + "' -e '" + svg + "'"},
      {"QT_QPA_PLATFORM=offscreen", "XDG_RUNTIME_DIR=" + dir});
}

off_t SizeOf(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

class ViteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access(kVite, X_OK) != 0) GTEST_SKIP() << "ViTE is not installed (" << kVite << ")";
    testing::WriteInteropTestTrace(dir_.File("t.plx"), &trace_);
  }
  testing::TempDir dir_;
  model::Trace trace_;
};

TEST_F(ViteTest, ReadsOurOtf2) {
  ASSERT_TRUE(ExportOtf2(trace_, dir_.File("t.otf2")).ok());
  const testing::RunResult r = RunVite(dir_.path(), dir_.File("t.otf2"), dir_.File("t.svg"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0 errors and 0 warnings"), std::string::npos) << r.output;
  EXPECT_GT(SizeOf(dir_.File("t.svg")), 1000) << r.output;
}

TEST_F(ViteTest, ReadsOurPaje) {
  ASSERT_TRUE(ExportPaje(trace_, dir_.File("t.paje")).ok());
  const testing::RunResult r = RunVite(dir_.path(), dir_.File("t.paje"), dir_.File("t.svg"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0 errors and 0 warnings"), std::string::npos) << r.output;
  EXPECT_GT(SizeOf(dir_.File("t.svg")), 1000) << r.output;
}

}  // namespace
}  // namespace plx::interop
