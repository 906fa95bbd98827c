// The conversion pipeline: formats by name and extension, every pair of
// formats through .plx, and the errors a user meets.
#include "interop/convert.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interop_test_trace.h"
#include "support/test_support.h"
#include "trace_compare.h"

namespace plx::interop {
namespace {

using testing::TempDir;

TEST(ConvertTest, TellsFormatsByNameAndExtension) {
  EXPECT_EQ(*FormatOfPath("a/run.plx"), Format::kPlx);
  EXPECT_EQ(*FormatOfPath("scorep/traces.otf2"), Format::kOtf2);
  EXPECT_EQ(*FormatOfPath("RUN.JSON"), Format::kChromeJson);
  EXPECT_EQ(*FormatOfPath("run.json.gz"), Format::kChromeJson);
  EXPECT_EQ(*FormatOfPath("run.paje"), Format::kPaje);
  EXPECT_EQ(*FormatOfPath("run.trf"), Format::kPicl);
  EXPECT_EQ(*FormatOfPath("run.csv"), Format::kCsv);
  const auto unknown = FormatOfPath("run.xyz");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "run.xyz: cannot tell its format from the name; give it with --from or --to (one "
            "of: plx, otf2, json, paje, picl, csv)");
  // A Score-P experiment directory.
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.File("scorep-run").c_str(), 0755), 0);
  EXPECT_FALSE(FormatOfPath(dir.File("scorep-run")).ok());
  ::close(::creat(dir.File("scorep-run/traces.otf2").c_str(), 0644));
  EXPECT_EQ(*FormatOfPath(dir.File("scorep-run")), Format::kOtf2);

  EXPECT_EQ(*FormatNamed("Perfetto"), Format::kChromeJson);
  EXPECT_EQ(*FormatNamed("otf2"), Format::kOtf2);
  EXPECT_FALSE(FormatNamed("vampir").ok());
}

// .plx → FORMAT → .plx keeps what the format carries, through Convert.
class ConvertRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(ConvertRoundTrip, KeepsStatesMessagesAndCounters) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  const std::string middle = dir.File(std::string("mid.") + GetParam());
  std::vector<std::string> steps;
  ConvertOptions options;
  options.progress = [&](std::string_view step, uint64_t, uint64_t) {
    if (steps.empty() || steps.back() != step) steps.emplace_back(step);
  };
  auto out = Convert(dir.File("in.plx"), middle, options);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->to, *FormatOfPath(middle));
  EXPECT_EQ(steps, (std::vector<std::string>{"loading", "writing"}));
  steps.clear();
  auto back = Convert(middle, dir.File("back.plx"), options);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(steps, std::vector<std::string>{"reading"});
  EXPECT_GT(back->events, 0u);
  model::Trace copy;
  testing::LoadPlx(dir.File("back.plx"), &copy);
  testing::CompareOptions what;
  what.process_names = false;  // PICL has no names; each format's own test checks them
  if (std::string(GetParam()) == "picl") {
    // PICL has one thread per process: the worker thread's message and task differ.
    EXPECT_EQ(copy.processes.size(), original.processes.size());
    return;
  }
  EXPECT_EQ(testing::CompareTraces(original, copy, what), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Formats, ConvertRoundTrip,
                         ::testing::Values("otf2", "json", "paje", "picl"));

TEST(ConvertTest, OtherFormatsGoThroughATemporaryPlx) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  ASSERT_TRUE(Convert(dir.File("in.plx"), dir.File("a.json")).ok());
  auto csv = Convert(dir.File("a.json"), dir.File("a.csv"));
  ASSERT_TRUE(csv.ok()) << csv.status().message();
  EXPECT_EQ(csv->from, Format::kChromeJson);
  EXPECT_FALSE(testing::ReadFile(dir.File("a.states.csv")).empty());
  // Nothing is left beside the output but the three tables.
  EXPECT_EQ(testing::RunProgram({"/bin/sh", "-c", "ls " + dir.path() + " | tr '\\n' ' '"}).output,
            "a.counters.csv a.json a.messages.csv a.states.csv in.plx ");
}

TEST(ConvertTest, RefusesWhatCannotBeDone) {
  TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &t);
  auto both = Convert(dir.File("in.plx"), dir.File("out.plx"));
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.status().message().find("both .plx"), std::string::npos);
  ::close(::creat(dir.File("x.csv").c_str(), 0644));
  auto csv = Convert(dir.File("x.csv"), dir.File("out.plx"));
  ASSERT_FALSE(csv.ok());
  EXPECT_NE(csv.status().message().find("csv can be written, not read"), std::string::npos);
  auto missing = Convert(dir.File("nothing.json"), dir.File("out.plx"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nothing.json"), std::string::npos);
}

TEST(ConvertTest, KeepsWhatWasReadBeforeABadLine) {
  TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &t);
  ASSERT_TRUE(Convert(dir.File("in.plx"), dir.File("a.json")).ok());
  std::string text = testing::ReadFile(dir.File("a.json"));
  text.resize(text.size() * 2 / 3);  // cut inside the events
  FILE* f = std::fopen(dir.File("cut.json").c_str(), "w");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  auto cut = Convert(dir.File("cut.json"), dir.File("cut.plx"));
  ASSERT_FALSE(cut.ok());
  const std::string& m = cut.status().message();
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_EQ(m.find(dir.File("cut.json")), 0u) << m;
  EXPECT_NE(m.find("cut.plx holds the"), std::string::npos) << m;
  model::Trace partial;
  testing::LoadPlx(dir.File("cut.plx"), &partial);
}

}  // namespace
}  // namespace plx::interop
