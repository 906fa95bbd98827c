// The Chrome JSON gatherer on its own: single events, parsed from one line of
// JSON each, and what they leave in the Gathered tables.
#include "interop/chrome_json/chrome_json_gather.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "support/test_support.h"

namespace plx::interop::chrome {
namespace {

class GatherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto b = TraceBuilder::Create(dir_.File("out.plx"));
    ASSERT_TRUE(b.ok()) << b.status().message();
    builder_ = std::move(*b);
    gather_ = std::make_unique<Gatherer>(*builder_);
  }

  // Parses `json` (one event object) and hands it to the gatherer as the
  // reader would, with ts and dur in ns as given.
  void Add(const std::string& json, int64_t ts = 0, int64_t dur = 0) {
    texts_.push_back(std::make_unique<std::string>(json));
    ASSERT_TRUE(parser_.Parse(*texts_.back(), 0, &members_)) << parser_.error();
    const EventFields f = FieldsOf(members_);
    ASSERT_NE(f.ph, nullptr);
    args_.clear();
    if (f.args != nullptr) {
      ASSERT_TRUE(args_parser_.Parse(f.args->text, 0, &args_));
    }
    if (f.ph->text == "M") {
      gather_->Metadata(f, args_);
    } else {
      gather_->Event(f, args_, ts, dur);
    }
  }
  uint64_t Noted(const std::string& counter) const {
    auto it = builder_->stats().find(counter);
    return it == builder_->stats().end() ? 0 : it->second;
  }
  Gathered& g() { return gather_->gathered(); }

  testing::TempDir dir_;
  std::unique_ptr<TraceBuilder> builder_;
  std::unique_ptr<Gatherer> gather_;
  std::vector<std::unique_ptr<std::string>> texts_;  // the parsed views point here
  ObjectParser parser_, args_parser_;
  std::vector<JsonMember> members_, args_;
};

TEST_F(GatherTest, PutsEventsOnAThreadPerPidAndTid) {
  Add(R"({"ph":"B","pid":1,"tid":2,"name":"a"})", 10);
  Add(R"({"ph":"E","pid":1,"tid":2})", 20);
  Add(R"({"ph":"X","pid":1,"tid":"worker","name":"b","dur":-0.003})", 5, -3);
  Add(R"({"ph":"X","pid":"p","tid":2,"name":"c"})", 7, 4);
  ASSERT_EQ(g().processes.size(), 2u);
  ASSERT_EQ(g().threads.size(), 3u);
  EXPECT_EQ(g().processes[0].info.pid, 1u);
  EXPECT_EQ(g().processes[1].info.name, "p");
  EXPECT_EQ(g().threads[0].tid, 2u);
  EXPECT_EQ(g().threads[1].name, "worker");
  ASSERT_EQ(g().threads[0].events.size(), 2u);
  EXPECT_EQ(g().threads[0].events[0].kind, Kind::kBegin);
  EXPECT_EQ(g().strings[g().threads[0].events[0].name], "a");
  EXPECT_EQ(g().threads[0].events[1].kind, Kind::kEnd);
  // A complete event without dur, or with a negative one, is a point.
  EXPECT_EQ(g().threads[1].events[0].dur, 0);
  EXPECT_EQ(Noted("chrome.complete_without_dur"), 1u);
  EXPECT_EQ(Noted("chrome.negative_duration"), 1u);
  EXPECT_EQ(g().threads[2].events[0].dur, 4);
  EXPECT_EQ(g().min_ts, 0);
}

TEST_F(GatherTest, MakesASeriesPerCounterArgument) {
  Add(R"({"ph":"C","pid":1,"name":"mem","args":{"heap":10,"stack":2.5}})", 1);
  Add(R"({"ph":"C","pid":1,"name":"mem","args":{"heap":"x"}})", 2);
  Add(R"({"ph":"C","pid":1,"name":"cpu","id":7,"args":{"load":3}})", 3);
  ASSERT_EQ(g().counters.size(), 3u);
  EXPECT_EQ(g().strings[g().counters[0].name], "mem.heap");
  EXPECT_EQ(g().strings[g().counters[1].name], "mem.stack");
  EXPECT_TRUE(g().counters[1].is_double);
  EXPECT_EQ(g().strings[g().counters[2].name], "cpu[7]");  // one argument: no ".load"
  EXPECT_EQ(Noted("chrome.counter_not_a_number"), 1u);
  ASSERT_EQ(g().counter_samples.size(), 3u);
  EXPECT_EQ(g().counter_samples[0].i, 10);
  EXPECT_EQ(g().counter_samples[1].d, 2.5);
}

TEST_F(GatherTest, ReadsMetadataAndCountsWhatItSkips) {
  Add(R"({"ph":"M","pid":3,"name":"process_name","args":{"name":"server"}})");
  Add(R"({"ph":"M","pid":3,"tid":1,"name":"thread_name","args":{"name":"main"}})");
  Add(R"({"ph":"M","pid":3,"name":"parallax_communicator",)"
      R"("args":{"name":"world","members":[0, 1,2 ]}})");
  Add(R"({"ph":"O","pid":3,"tid":1})");
  Add(R"({"ph":"Q","pid":3,"tid":1})");
  Add(R"({"ph":"BB","pid":3,"tid":1})");
  ASSERT_EQ(g().processes.size(), 1u);
  EXPECT_EQ(g().processes[0].info.name, "server");
  EXPECT_EQ(g().threads[0].name, "main");
  ASSERT_EQ(g().processes[0].comms.size(), 1u);
  EXPECT_EQ(g().processes[0].comms[0].members, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(Noted("chrome.skipped.object"), 1u);
  EXPECT_EQ(Noted("chrome.unknown_phase"), 2u);
}

TEST_F(GatherTest, KeepsFlowPointsAndMessages) {
  Add(R"({"ph":"s","pid":1,"tid":1,"cat":"c","id":5})", 1);
  Add(R"({"ph":"f","pid":1,"tid":2,"cat":"c","id":5})", 2);
  Add(R"({"ph":"s","pid":1,"tid":1,"cat":"c"})", 3);
  Add(R"({"ph":"s","pid":1,"tid":1,"args":{"peer":4,"tag":9,"bytes":100}})", 4);
  ASSERT_EQ(g().flows.size(), 2u);
  EXPECT_EQ(g().flows[0].key, g().flows[1].key);
  EXPECT_EQ(g().flows[1].phase, 2);
  EXPECT_EQ(Noted("chrome.flow_without_id"), 1u);
  ASSERT_EQ(g().messages.size(), 1u);
  EXPECT_EQ(g().messages[0].peer, 4);
  EXPECT_EQ(g().messages[0].tag, 9);
  EXPECT_EQ(g().messages[0].bytes, 100u);
}

}  // namespace
}  // namespace plx::interop::chrome
