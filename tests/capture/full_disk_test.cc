// A traced program whose trace outgrows the file size limit (ulimit -f) runs
// to its end: the runtime says so once, stops recording, and the trace so far
// opens with `parallax info`, which shows what was dropped.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

// thread_farm under `ulimit -f 512` (256 KiB in dash's 512-byte blocks, 512
// KiB in bash's): far less than its trace of about 1 MB.
RunResult FarmUnderSizeLimit(const std::string& trace, bool ignore_sigxfsz) {
  const std::string script =
      std::string("ulimit -f 512; ") + (ignore_sigxfsz ? "trap '' XFSZ; " : "") + "exec \"$@\"";
  return RunProgram({"/bin/sh", "-c", script, "sh", BuildPath("examples/thread_farm"), "--jobs",
                     "30000", "--work-us", "0"},
                    {"PLX_OUTPUT=" + trace});
}

void ExpectStoppedAndReadable(const std::string& trace, const RunResult& r) {
  EXPECT_EQ(r.signal, 0) << "killed by signal " << r.signal << "\n" << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Count(r.output, "parallax: cannot write the trace " + trace + ": File too large"), 1u)
      << r.output;
  EXPECT_EQ(Count(r.output, "parallax:"), 1u) << "one line, nothing more at exit\n" << r.output;

  struct stat st;
  ASSERT_EQ(::stat(trace.c_str(), &st), 0);
  EXPECT_LE(st.st_size, 512 * 1024);
  auto file = format::TraceFile::Open(trace);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index) << "the index fits in the room kept for it";
  EXPECT_EQ((*file)->report().damaged_chunks, 0u);
  EXPECT_GT((*file)->total_records(), 0u);

  RunResult info = RunProgram({BuildPath("src/cli/parallax"), "info", trace});
  EXPECT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("status      complete (ends with an index)"), std::string::npos)
      << info.output;
  const size_t row = info.output.find("\ndropped     ");
  ASSERT_NE(row, std::string::npos) << info.output;
  const std::string line = info.output.substr(row + 1, info.output.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find(" records, "), std::string::npos) << line;
  EXPECT_NE(line.find("File too large"), std::string::npos) << line;
  EXPECT_EQ(line.find("dropped     0 records"), std::string::npos) << line;

  RunResult json = RunProgram({BuildPath("src/cli/parallax"), "info", "--quick", "--json", trace});
  EXPECT_NE(json.output.find("\"dropped\": [\n    {\n      \"process\": 0,"), std::string::npos)
      << json.output;
}

TEST(FullDisk, SizeLimitWithSigxfszIgnored) {
  TempDir dir;
  const std::string trace = dir.File("farm.plx");
  ExpectStoppedAndReadable(trace, FarmUnderSizeLimit(trace, true));
}

TEST(FullDisk, SizeLimitNeverRaisesSigxfsz) {
  // The runtime stops short of the limit, so the default action of SIGXFSZ
  // (ending the program) never comes.
  TempDir dir;
  const std::string trace = dir.File("farm.plx");
  ExpectStoppedAndReadable(trace, FarmUnderSizeLimit(trace, false));
}

}  // namespace
}  // namespace plx::testing
