// The trace index: written on the first open and read on the next (the
// skeletons are the same, nothing is built again); rebuilt, with a warning,
// when it is damaged, cut short, of another trace or of another version;
// never written for a trace held in memory; and a place that cannot take it
// costs a warning, not the open.
#include "store/index_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/thread_pool.h"
#include "format/trace_file.h"
#include "store/index_location.h"
#include "store/model_loader.h"
#include "store/trace_store.h"
#include "support/model_equality.h"
#include "support/opened_store.h"
#include "support/test_support.h"
#include "support/test_traces.h"
#include "support/trace_script.h"

namespace plx::store {
namespace {

std::vector<ThreadSkeleton> Skeletons(const TraceStore& store) {
  std::vector<ThreadSkeleton> out;
  for (uint32_t t = 0; t < store.threads(); ++t)
    out.push_back(store.skeleton(t));
  return out;
}

class IndexFileTest : public testing::TestTracesSuite {};

TEST_F(IndexFileTest, EncodesAndDecodesEveryTestTrace) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    auto o = Open(t.path, IndexSettings{false, ""});
    ASSERT_TRUE(o->store);
    IndexContents contents{
        IdentityOf(*o->file, o->store->threads()), Skeletons(*o->store), {}, {}, {}, {}};
    const std::vector<uint8_t> bytes = EncodeIndex(contents);
    auto back = DecodeIndex(bytes, "x.plxi");
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(back->identity, contents.identity);
    EXPECT_TRUE(back->skeletons == contents.skeletons);
  }
}

TEST_F(IndexFileTest, TheSecondOpenReadsTheIndex) {
  for (const testing::TestTrace& t : *traces_) {
    SCOPED_TRACE(t.name);
    std::filesystem::remove(t.path + "i");
    auto first = Open(t.path);
    ASSERT_TRUE(first->store);
    EXPECT_FALSE(first->store->index_reused());
    EXPECT_EQ(first->store->index_path(), t.path + "i");
    EXPECT_TRUE(std::filesystem::exists(t.path + "i"));
    auto second = Open(t.path);
    ASSERT_TRUE(second->store);
    EXPECT_TRUE(second->store->index_reused());
    EXPECT_EQ(second->warnings, std::vector<std::string>{});
    EXPECT_TRUE(Skeletons(*first->store) == Skeletons(*second->store));
    EXPECT_EQ(testing::ModelDifferences(*LoadModel(*first->store), *LoadModel(*second->store)),
              std::vector<std::string>{});
  }
}

TEST_F(IndexFileTest, DamagedOrStaleIndexesAreRebuilt) {
  const testing::TestTrace& t = traces_->front();
  const std::string index = t.path + "i";
  std::filesystem::remove(index);
  auto built = Open(t.path);
  const std::vector<uint8_t> good = ReadBytes(index);
  ASSERT_GT(good.size(), 100u);

  std::vector<std::vector<uint8_t>> bad;
  bad.push_back({good.begin(), good.begin() + static_cast<ptrdiff_t>(good.size() / 2)});  // cut
  bad.push_back(good);
  bad.back()[good.size() / 2] ^= 1;  // one bit
  bad.push_back(good);
  bad.back()[0] = 'X';  // not an index
  bad.push_back({});    // empty
  for (const std::vector<uint8_t>& bytes : bad) {
    WriteBytes(index, bytes);
    auto o = Open(t.path);
    ASSERT_TRUE(o->store);
    EXPECT_FALSE(o->store->index_reused());
    ASSERT_EQ(o->warnings.size(), 1u);
    EXPECT_NE(o->warnings[0].find("building it again"), std::string::npos) << o->warnings[0];
    EXPECT_TRUE(Skeletons(*o->store) == Skeletons(*built->store));
    EXPECT_EQ(ReadBytes(index), good);  // written again
  }

  // Another trace at the same path: the index is stale.
  testing::TempDir dir;
  const std::string path = dir.path() + "/moved.plx";
  std::filesystem::copy_file(t.path, path);
  ASSERT_TRUE(Open(traces_->at(1).path)->store);  // makes its index
  WriteBytes(path + "i", ReadBytes(traces_->at(1).path + "i"));
  auto other = Open(path);
  ASSERT_TRUE(other->store);
  EXPECT_FALSE(other->store->index_reused());
  ASSERT_EQ(other->warnings.size(), 1u);
  EXPECT_NE(other->warnings[0].find("does not fit"), std::string::npos) << other->warnings[0];
  EXPECT_TRUE(Skeletons(*other->store) == Skeletons(*built->store));
}

TEST_F(IndexFileTest, NoPlaceForTheIndexIsAWarning) {
  const testing::TestTrace& t = traces_->front();
  // A directory that cannot be made (its parent is a file), even as root.
  auto o = Open(t.path, IndexSettings{true, t.path + "/sub"});
  ASSERT_TRUE(o->store);
  EXPECT_EQ(o->store->index_path(), "");
  ASSERT_EQ(o->warnings.size(), 1u);
  EXPECT_NE(o->warnings[0].find("could not be kept"), std::string::npos) << o->warnings[0];
  EXPECT_EQ(testing::ModelDifferences(*LoadModel(*o->store), *LoadModel(*Open(t.path)->store)),
            std::vector<std::string>{});
}

TEST_F(IndexFileTest, IndexDirectoryHoldsIndexesByTraceName) {
  testing::TempDir dir;
  const testing::TestTrace& t = traces_->front();
  auto first = Open(t.path, IndexSettings{true, dir.path()});
  ASSERT_TRUE(first->store);
  const std::string written = first->store->index_path();
  EXPECT_EQ(written.rfind(dir.path() + "/", 0), 0u) << written;
  EXPECT_NE(written.find("nested.plx.plxi"), std::string::npos) << written;
  auto second = Open(t.path, IndexSettings{true, dir.path()});
  EXPECT_TRUE(second->store->index_reused());
}

TEST_F(IndexFileTest, TracesInMemoryHaveNoIndex) {
  const testing::TestTrace& t = traces_->front();
  auto file = format::TraceFile::FromBytes(t.path, ReadBytes(t.path));
  ASSERT_TRUE(file.ok());
  auto store = TraceStore::Open(**file, {});
  ASSERT_TRUE(store.ok());
  EXPECT_EQ((*store)->index_path(), "");
  EXPECT_FALSE((*store)->index_reused());
}

}  // namespace
}  // namespace plx::store
