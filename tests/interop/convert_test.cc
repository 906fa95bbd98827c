// The conversion pipeline: formats by name and extension, every pair of
// formats through .plx, gzip for .json.gz, and the errors a user meets (an
// output that exists, an empty input).
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

TEST(ConvertTest, JsonGzOutputIsGzipAndReadsBack) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  ASSERT_TRUE(Convert(dir.File("in.plx"), dir.File("plain.json")).ok());
  auto gz = Convert(dir.File("in.plx"), dir.File("out.json.gz"));
  ASSERT_TRUE(gz.ok()) << gz.status().message();
  const std::string bytes = testing::ReadFile(dir.File("out.json.gz"));
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(bytes.substr(0, 2), "\x1f\x8b");  // the gzip magic
  EXPECT_LT(bytes.size(), testing::ReadFile(dir.File("plain.json")).size());
  const testing::RunResult check =
      testing::RunProgram({"/bin/sh", "-c",
                           "gzip -t " + dir.File("out.json.gz") + " && gzip -dc " +
                               dir.File("out.json.gz") + " | cmp - " + dir.File("plain.json")});
  EXPECT_EQ(check.exit_code, 0) << check.output;
  auto back = Convert(dir.File("out.json.gz"), dir.File("back.plx"));
  ASSERT_TRUE(back.ok()) << back.status().message();
  model::Trace copy;
  testing::LoadPlx(dir.File("back.plx"), &copy);
  testing::CompareOptions what;
  what.process_names = false;
  EXPECT_EQ(testing::CompareTraces(original, copy, what), std::vector<std::string>{});
}

// Every output format refuses to replace a file, naming it; --force replaces
// all of the output's files.
TEST(ConvertTest, RefusesAnExistingOutputUnlessForced) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  ASSERT_TRUE(Convert(dir.File("in.plx"), dir.File("in.json")).ok());
  struct Case {
    std::string in, out, existing;  // `existing` is the file made beforehand
  };
  const std::vector<Case> cases = {
      {"in.json", "o.plx", "o.plx"},        {"in.plx", "o.json", "o.json"},
      {"in.plx", "o.json.gz", "o.json.gz"}, {"in.plx", "o.paje", "o.paje"},
      {"in.plx", "o.picl", "o.picl"},       {"in.plx", "o.csv", "o.messages.csv"},
      {"in.plx", "o.otf2", "o.otf2"},
  };
  for (const Case& c : cases) {
    const std::string existing = dir.File(c.existing);
    FILE* f = std::fopen(existing.c_str(), "w");
    std::fputs("keep me\n", f);
    std::fclose(f);
    auto refused = Convert(dir.File(c.in), dir.File(c.out));
    ASSERT_FALSE(refused.ok()) << c.out;
    EXPECT_EQ(refused.status().message(),
              existing + ": already exists (give --force to overwrite it)");
    EXPECT_EQ(testing::ReadFile(existing), "keep me\n") << c.out;
    ConvertOptions force;
    force.force = true;
    auto forced = Convert(dir.File(c.in), dir.File(c.out), force);
    ASSERT_TRUE(forced.ok()) << c.out << ": " << forced.status().message();
    EXPECT_NE(testing::ReadFile(existing), "keep me\n") << c.out;
    if (c.out == "o.plx" || c.out == "o.csv") continue;
    auto back = Convert(dir.File(c.out), dir.File("back-" + c.existing + ".plx"));
    EXPECT_TRUE(back.ok()) << c.out << ": " << back.status().message();
  }
  // An OTF2 archive made before: its data directory names the refusal too
  // when the anchor is gone; --force replaces the whole archive.
  ASSERT_EQ(::unlink(dir.File("o.otf2").c_str()), 0);
  auto refused = Convert(dir.File("in.plx"), dir.File("o.otf2"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            dir.File("o.def") + ": already exists (give --force to overwrite it)");
  ConvertOptions force;
  force.force = true;
  ASSERT_TRUE(Convert(dir.File("in.plx"), dir.File("o.otf2"), force).ok());
  auto back = Convert(dir.File("o.otf2"), dir.File("back-again.plx"));
  EXPECT_TRUE(back.ok()) << back.status().message();
}

TEST(ConvertTest, EmptyInputIsAnErrorForEveryImporter) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"e.json", ""}, {"e.paje", ""},           {"blank.paje", "\n  \n# only a comment\n"},
      {"e.picl", ""}, {"blank.trf", "\n \t\n"}, {"e.otf2", ""},
  };
  for (const auto& [name, text] : inputs) {
    const std::string in = dir.File(name);
    FILE* f = std::fopen(in.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    ConvertOptions force;  // the .plx output keeps what was read: nothing
    force.force = true;
    auto r = Convert(in, dir.File("out.plx"), force);
    ASSERT_FALSE(r.ok()) << name;
    const std::string& m = r.status().message();
    EXPECT_EQ(m.rfind(in + ":", 0), 0u) << m;
    EXPECT_NE(m.find("empty input"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace plx::interop
