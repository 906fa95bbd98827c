// The import counter table generated from spec/import_counters.toml: every
// name is unique, sorted, FORMAT.what for a known format, with a valid
// severity and a description; lookups by name find each and nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "interop/import_counters.gen.h"

namespace plx::interop {
namespace {

// The attribute names files already carry must not change.
static_assert(NameOf(ImportCounter::kChromeUnmatchedEnd) == "chrome.unmatched_end");
static_assert(NameOf(ImportCounter::kChromeSkippedMemoryDump) == "chrome.skipped.memory_dump");
static_assert(NameOf(ImportCounter::kOtf2BufferFlush) == "otf2.buffer_flush");
static_assert(NameOf(ImportCounter::kPajeBadColors) == "paje.bad_colors");
static_assert(NameOf(ImportCounter::kPiclRecordsSkipped) == "picl.records_skipped");

bool KnownFormat(std::string_view name) {
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  return std::find(std::begin(kImportCounterFormats), std::end(kImportCounterFormats),
                   name.substr(0, dot)) != std::end(kImportCounterFormats);
}

TEST(ImportCountersTest, TableIsWellFormed) {
  ASSERT_EQ(std::size(kImportCounters), kImportCounterCount);
  ASSERT_GT(kImportCounterCount, 0u);
  std::set<std::string_view> names;
  for (size_t i = 0; i < kImportCounterCount; ++i) {
    const ImportCounterInfo& c = kImportCounters[i];
    SCOPED_TRACE(std::string(c.name));
    EXPECT_TRUE(names.insert(c.name).second) << "declared twice";
    if (i > 0) {
      EXPECT_LT(kImportCounters[i - 1].name, c.name) << "table not sorted by name";
    }
    EXPECT_TRUE(KnownFormat(c.name)) << "no known format prefix";
    EXPECT_EQ(c.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_."),
              std::string_view::npos);
    EXPECT_LT(static_cast<size_t>(c.severity), std::size(kImportSeverityNames));
    EXPECT_FALSE(c.description.empty());
    EXPECT_TRUE(c.description.ends_with('.'));
    EXPECT_EQ(c.description.find('|'), std::string_view::npos);
  }
}

TEST(ImportCountersTest, EveryFormatCounts) {
  for (std::string_view format : kImportCounterFormats) {
    const size_t n = std::count_if(
        std::begin(kImportCounters), std::end(kImportCounters),
        [&](const ImportCounterInfo& c) { return c.name.substr(0, c.name.find('.')) == format; });
    EXPECT_GT(n, 0u) << format;
  }
}

TEST(ImportCountersTest, FindsEveryCounterByName) {
  for (size_t i = 0; i < kImportCounterCount; ++i) {
    const auto c = static_cast<ImportCounter>(i);
    const ImportCounterInfo* found = FindImportCounter(NameOf(c));
    ASSERT_NE(found, nullptr) << NameOf(c);
    EXPECT_EQ(found, &InfoOf(c));
  }
  EXPECT_EQ(FindImportCounter(""), nullptr);
  EXPECT_EQ(FindImportCounter("chrome.no_such_counter"), nullptr);
  EXPECT_EQ(FindImportCounter("zzz.after_all"), nullptr);
  EXPECT_EQ(NameOf(ImportSeverity::kDataLoss), "data_loss");
  EXPECT_EQ(InfoOf(ImportCounter::kChromeAsyncTracks).severity, ImportSeverity::kInfo);
}

}  // namespace
}  // namespace plx::interop
