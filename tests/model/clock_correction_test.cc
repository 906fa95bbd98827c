// Clock correction: ClockCorrection's arithmetic by hand, and the loader
// moving every time of a process by its clock_offset measurements.
#include "model/clock_correction.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <memory>

#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "model/def_merger.h"
#include "model/load_trace.h"
#include "support/test_support.h"

namespace plx::model {
namespace {

using format::TraceWriter;

TEST(ClockCorrectionTest, NoMeasurementsIsTheIdentity) {
  ClockCorrection c;
  EXPECT_TRUE(c.is_identity());
  EXPECT_EQ(c.Apply(12345), 12345);
  EXPECT_TRUE(ClockCorrection(std::vector<ClockOffset>{}).is_identity());
}

TEST(ClockCorrectionTest, OneMeasurementIsAConstantOffset) {
  ClockCorrection c({{1000, -300, 5}});
  EXPECT_FALSE(c.is_identity());
  EXPECT_EQ(c.offset_ns(), -300);
  EXPECT_EQ(c.drift_ppm(), 0);
  EXPECT_EQ(c.Apply(0), -300);
  EXPECT_EQ(c.Apply(1000), 700);
  EXPECT_EQ(c.Apply(5'000'000'000), 4'999'999'700);
}

TEST(ClockCorrectionTest, TwoMeasurementsAreALineExtrapolatedBothWays) {
  // +500 ns at 1 us, +600 ns at 1001 us: 100 ns per ms = 100 ppm.
  ClockCorrection c({{1000, 500, 0}, {1'001'000, 600, 0}});
  EXPECT_EQ(c.offset_ns(), 500);
  EXPECT_DOUBLE_EQ(c.drift_ppm(), 100);
  EXPECT_EQ(c.Apply(1000), 1500);
  EXPECT_EQ(c.Apply(1'001'000), 1'001'600);
  EXPECT_EQ(c.Apply(501'000), 501'550);
  EXPECT_EQ(c.Apply(11'000), 11'501);
  EXPECT_EQ(c.Apply(14'000), 14'501);        // +1.3 rounds down
  EXPECT_EQ(c.Apply(16'000), 16'502);        // +1.5 rounds away from zero
  EXPECT_EQ(c.Apply(2'001'000), 2'001'700);  // after the last: extrapolated
  EXPECT_EQ(c.Apply(0), 500);                // -0.1 rounds to 0
  EXPECT_EQ(c.Apply(-14'000), -13'502);      // -1.5 rounds away from zero
}

TEST(ClockCorrectionTest, UsesTheEarliestAndLatestWhateverTheOrder) {
  ClockCorrection c({{500'000, 1, 0}, {1'001'000, 600, 0}, {1000, 500, 0}});
  EXPECT_EQ(c.offset_ns(), 500);
  EXPECT_EQ(c.Apply(501'000), 501'550);  // the middle measurement plays no part
}

TEST(ClockCorrectionTest, MeasurementsAtOneInstantAreAConstantOffset) {
  ClockCorrection c({{1000, 40, 0}, {1000, 90, 0}});
  EXPECT_EQ(c.offset_ns(), 40);
  EXPECT_EQ(c.drift_ppm(), 0);
  EXPECT_EQ(c.Apply(5000), 5040);
}

TEST(ClockCorrectionTest, AbsurdMeasurementsStayWithinTheLimits) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  ClockCorrection c({{0, min, 0}, {1, max, 0}});
  EXPECT_EQ(c.Apply(ClockCorrection::kLimit), ClockCorrection::kLimit);
  EXPECT_EQ(c.Apply(-ClockCorrection::kLimit), -ClockCorrection::kLimit);
  EXPECT_EQ(ClockCorrection({{0, max, 0}}).Apply(ClockCorrection::kLimit), ClockCorrection::kLimit);
}

// Runs: Apply adds one amount over each, and they end where it changes.
TEST(ClockCorrectionTest, RunsAddWhatApplyAddsAndEndWhereItSteps) {
  const int64_t limit = ClockCorrection::kLimit;
  const int64_t big = int64_t{1} << 50;
  const std::vector<ClockCorrection> corrections = {
      ClockCorrection({{1000, 500, 0}, {1'001'000, 600, 0}}),         // +100 ppm
      ClockCorrection({{1000, 500, 0}, {1'001'000, 400, 0}}),         // -100 ppm
      ClockCorrection({{big, -7, 0}, {big + 3'000'000'000, 20, 0}}),  // +9 ppb, far from 0
      ClockCorrection({{0, 0, 0}, {1000, 300, 0}}),                   // 0.3: steps every few ns
      ClockCorrection({{0, 0, 0}, {1000, -30, 0}}),                   // -0.03
      ClockCorrection({{5, 100, 0}}),                                 // no drift
      ClockCorrection({{0, std::numeric_limits<int64_t>::min(), 0}, {1, 0, 0}}),  // absurd
  };
  const std::vector<int64_t> starts = {-limit, -big,   -14'000, 0,       999,
                                       1000,   16'000, big,     big + 1, limit - 3};
  for (size_t i = 0; i < corrections.size(); ++i) {
    const ClockCorrection& c = corrections[i];
    for (const int64_t start : starts) {
      const ClockCorrection::Run run = c.RunAt(start);
      SCOPED_TRACE(::testing::Message() << "correction " << i << " at " << start);
      ASSERT_LE(run.lo, start);
      ASSERT_GE(run.hi, start);
      // Every time of a short run, and both ends and the middle of a long one.
      const int64_t length = run.hi - run.lo;
      for (int64_t k = 0; k <= std::min<int64_t>(length, 20'000); ++k)
        ASSERT_EQ(c.Apply(run.lo + k), ClockCorrection::Clamp(run.lo + k + run.add));
      ASSERT_EQ(c.Apply(run.hi), ClockCorrection::Clamp(run.hi + run.add));
      ASSERT_EQ(c.Apply(run.lo + length / 2),
                ClockCorrection::Clamp(run.lo + length / 2 + run.add));
      // A run that stops short stops where the amount changes (unless the
      // drift steps every few ns: then runs are single times).
      const int64_t next = c.Apply(run.hi + 1);
      const bool steep = std::abs(c.drift_ppm()) > 1e6 / 64;
      if (!steep && run.hi < limit && length < (int64_t{1} << 40) && std::abs(next) < limit) {
        EXPECT_NE(next - (run.hi + 1), run.add);
      }
    }
  }
  // +100 ppm from 1 us: 1 ns more every 10 us, from half of one on.
  const ClockCorrection::Run run = corrections[0].RunAt(11'000);
  EXPECT_EQ(run.add, 501);
  EXPECT_EQ(run.hi, 15'999);
}

// A process with one record of every timed kind, and clock_offset measurements.
class LoadCorrectedTest : public ::testing::Test {
 protected:
  Trace Load(const std::vector<format::ClockOffsetDef>& offsets, const LoadOptions& options = {}) {
    const std::string path = dir_.File("t.plx");
    auto w = TraceWriter::Create(path);
    EXPECT_TRUE(w.ok());
    TraceWriter& tw = **w;
    tw.Def(0, format::StringDef{1, "main"});
    tw.Def(0, format::ProcessDef{100, 0, 0, 0, 0, 0});
    tw.Def(0, format::StateDef{1, 1, 0, 0});
    tw.Def(0, format::CommunicatorDef{1, 1, 0, 7, {}});
    tw.Def(0, format::CounterDef{1, 1, 0, 1, 0});
    tw.Def(0, format::EventTypeDef{1, 1, 0, 1});
    for (const format::ClockOffsetDef& d : offsets)
      tw.Def(0, d);
    tw.Event(0, 0, 0, format::ThreadBeginRecord{});
    tw.Event(0, 0, 11'000, format::EnterRecord{1, 0});
    tw.Event(0, 0, 14'000, format::EventIntRecord{1, 0, 5});
    tw.Event(0, 0, 16'000, format::SendRecord{1, 0, 1, 8, 0, 1});
    tw.Event(0, 0, 101'000, format::CounterIntRecord{1, 3});
    tw.Event(0, 0, 201'000, format::RmaRecord{0, 1, 0, 0, 8});
    tw.Event(0, 0, 301'000, format::ControlRecord{0});
    tw.Event(0, 0, 501'000, format::CollectiveRecord{1, 1, -1, 0, 0});
    tw.Event(0, 0, 1'001'000, format::LeaveRecord{1});
    tw.Event(0, 0, 2'001'000, format::ThreadEndRecord{});
    EXPECT_TRUE(tw.Finish().ok());
    file_ = std::move(format::TraceFile::Open(path)).value();
    auto trace = LoadTrace(*file_, options);
    EXPECT_TRUE(trace.ok()) << trace.status().message();
    return trace.ok() ? std::move(trace).value() : Trace();
  }

  testing::TempDir dir_;
  std::unique_ptr<format::TraceFile> file_;
};

TEST_F(LoadCorrectedTest, OneMeasurementShiftsEveryTime) {
  Trace t = Load({{1000, -300, 20}});
  ASSERT_EQ(t.processes.size(), 1u);
  const Process& p = t.processes[0];
  ASSERT_EQ(p.clock_offsets.size(), 1u);
  EXPECT_EQ(p.clock_offsets[0].ns, 1000);
  EXPECT_EQ(p.clock_offsets[0].offset_ns, -300);
  EXPECT_EQ(p.clock_offsets[0].error_ns, 20u);
  EXPECT_EQ(p.clock_offset_ns, -300);
  EXPECT_EQ(p.clock_drift_ppm, 0);
  EXPECT_EQ(t.slices.begin[0], 10'700);
  EXPECT_EQ(t.slices.end[0], 1'000'700);
  EXPECT_EQ(t.slices.self_ns[0], 990'000);
  EXPECT_EQ(t.instants.time[0], 13'700);
  EXPECT_EQ(t.messages.time[0], 15'700);
  EXPECT_EQ(t.counter_samples.time[0], 100'700);
  EXPECT_EQ(t.rma.time[0], 200'700);
  EXPECT_EQ(t.controls.time[0], 300'700);
  EXPECT_EQ(t.collectives.time[0], 500'700);
  EXPECT_EQ(t.threads[0].begin_ns, -300);
  EXPECT_EQ(t.threads[0].end_ns, 2'000'700);
  EXPECT_EQ(t.begin_ns, -300);
  EXPECT_EQ(t.end_ns, 2'000'700);
}

TEST_F(LoadCorrectedTest, TwoMeasurementsCorrectOffsetAndDrift) {
  // +500 ns at 1 us, +600 ns at 1001 us: 100 ppm, as in the arithmetic test.
  Trace t = Load({{1000, 500, 0}, {1'001'000, 600, 0}});
  const Process& p = t.processes[0];
  EXPECT_EQ(p.clock_offset_ns, 500);
  EXPECT_DOUBLE_EQ(p.clock_drift_ppm, 100);
  EXPECT_EQ(t.threads[0].begin_ns, 500);  // before the first: -0.1 ns of drift
  EXPECT_EQ(t.slices.begin[0], 11'501);
  EXPECT_EQ(t.instants.time[0], 14'501);
  EXPECT_EQ(t.messages.time[0], 16'502);
  EXPECT_EQ(t.counter_samples.time[0], 101'510);
  EXPECT_EQ(t.rma.time[0], 201'520);
  EXPECT_EQ(t.controls.time[0], 301'530);
  EXPECT_EQ(t.collectives.time[0], 501'550);
  EXPECT_EQ(t.slices.end[0], 1'001'600);
  EXPECT_EQ(t.slices.self_ns[0], 1'001'600 - 11'501);
  EXPECT_EQ(t.threads[0].end_ns, 2'001'700);  // after the last: extrapolated
  EXPECT_EQ(t.begin_ns, 500);
  EXPECT_EQ(t.end_ns, 2'001'700);
}

TEST_F(LoadCorrectedTest, CorrectionCanBeTurnedOff) {
  LoadOptions options;
  options.correct_clocks = false;
  Trace t = Load({{1000, 500, 0}, {1'001'000, 600, 0}}, options);
  const Process& p = t.processes[0];
  EXPECT_EQ(p.clock_offsets.size(), 2u);  // still recorded
  EXPECT_EQ(p.clock_offset_ns, 0);        // but not applied
  EXPECT_EQ(p.clock_drift_ppm, 0);
  EXPECT_EQ(t.slices.begin[0], 11'000);
  EXPECT_EQ(t.collectives.time[0], 501'000);
  EXPECT_EQ(t.end_ns, 2'001'000);
}

TEST_F(LoadCorrectedTest, DefinitionsOnlyCorrectsTheIndexSpans) {
  LoadOptions options;
  options.events = false;
  Trace t = Load({{1000, 500, 0}, {1'001'000, 600, 0}}, options);
  ASSERT_EQ(t.threads.size(), 1u);
  EXPECT_EQ(t.threads[0].begin_ns, 500);
  EXPECT_EQ(t.threads[0].end_ns, 2'001'700);
  EXPECT_EQ(t.begin_ns, 500);
  EXPECT_EQ(t.end_ns, 2'001'700);
}

}  // namespace
}  // namespace plx::model
