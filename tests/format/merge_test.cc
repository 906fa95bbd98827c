// MergeTraceFiles: parts written by TraceWriter merge into one file whose
// processes hold exactly the parts' chunks, definitions and records; cut-short
// and damaged parts give their whole chunks; bad inputs are refused.
#include "format/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "base/strings.h"
#include "format/format_test_util.h"
#include "format/truncation_check.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

using testing::RawChunk;
using testing::ReadBytes;
using testing::WalkChunks;
using testing::WriteBytes;

// A one-process part (process 1 in its headers, as WriteBusyTrace numbers them).
std::string WritePart(const plx::testing::TempDir& dir, const std::string& name, uint32_t seed,
                      int zstd_level = 1, bool index = true) {
  WriterOptions options;
  options.chunk_raw_size = 512;
  options.zstd_level = zstd_level;
  options.write_index = index;
  const std::string path = dir.File(name);
  Status s = testing::WriteBusyTrace(path, options, 1, 3, 300, seed);
  EXPECT_TRUE(s.ok()) << s.message();
  return path;
}

std::unique_ptr<TraceFile> Open(const std::string& path) {
  auto file = TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  return file.ok() ? std::move(file).value() : nullptr;
}

std::vector<const StreamInfo*> StreamsOf(const TraceFile& f, uint32_t process) {
  std::vector<const StreamInfo*> out;
  for (const StreamInfo& s : f.streams())
    if (s.process == process) out.push_back(&s);
  return out;
}

// Process `mp` of the merged file holds what process `pp` of the part holds.
void ExpectSameProcess(const TraceFile& part, uint32_t pp, const TraceFile& merged, uint32_t mp) {
  ASSERT_TRUE(part.processes().count(pp));
  ASSERT_TRUE(merged.processes().count(mp)) << "process " << mp;
  EXPECT_EQ(testing::DescribeDefs(part.processes().at(pp)),
            testing::DescribeDefs(merged.processes().at(mp)));
  const std::vector<const StreamInfo*> a = StreamsOf(part, pp), b = StreamsOf(merged, mp);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]->stream, b[i]->stream);
    EXPECT_EQ(a[i]->records, b[i]->records);
    EXPECT_EQ(a[i]->begin_ns, b[i]->begin_ns);
    EXPECT_EQ(a[i]->end_ns, b[i]->end_ns);
    EXPECT_EQ(a[i]->missing_records, b[i]->missing_records);
    EXPECT_EQ(testing::DecodeStream(part, *a[i]), testing::DecodeStream(merged, *b[i]));
  }
}

// The merged file's chunks, in order, are the parts' chunks byte for byte but
// for the process field (and so the header check).
void ExpectCopiedBytes(const std::vector<std::string>& parts, const std::vector<uint32_t>& numbers,
                       const std::string& merged_path) {
  const std::vector<uint8_t> merged = ReadBytes(merged_path);
  const testing::RawLayout layout = WalkChunks(merged);
  EXPECT_TRUE(layout.trailer);
  size_t next = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::vector<uint8_t> part = ReadBytes(parts[i]);
    for (const RawChunk& c : WalkChunks(part).chunks) {
      ASSERT_LT(next, layout.chunks.size());
      const RawChunk& m = layout.chunks[next++];
      EXPECT_EQ(m.header.process, numbers[i]);
      ChunkHeader expected = c.header;
      expected.process = numbers[i];
      uint8_t h[kChunkHeaderSize];
      EncodeChunkHeader(expected, h);
      EXPECT_EQ(std::memcmp(h, merged.data() + m.offset, kChunkHeaderSize), 0);
      ASSERT_EQ(m.header.stored_size, c.header.stored_size);
      EXPECT_EQ(std::memcmp(part.data() + c.offset + kChunkHeaderSize,
                            merged.data() + m.offset + kChunkHeaderSize, c.header.stored_size),
                0);
    }
  }
  EXPECT_EQ(next, layout.chunks.size());
}

// Nothing but the expected files: no temporary file left behind.
std::vector<std::string> Listing(const plx::testing::TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Merge, CopiesEveryChunkOfEachPart) {
  plx::testing::TempDir dir;
  const std::vector<std::string> parts = {
      WritePart(dir, "a.plx", 1), WritePart(dir, "b.plx", 2, /*zstd_level=*/0, /*index=*/false),
      WritePart(dir, "c.plx", 3)};
  const std::vector<uint32_t> numbers = {4, 0, 2};
  std::vector<MergeInput> inputs;
  uint64_t chunks = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    inputs.push_back({parts[i], numbers[i]});
    chunks += WalkChunks(ReadBytes(parts[i])).chunks.size();
  }
  auto result = MergeTraceFiles(inputs, dir.File("all.plx"));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->chunks, chunks);
  EXPECT_EQ(result->bytes, std::filesystem::file_size(dir.File("all.plx")));
  EXPECT_TRUE(result->problems.empty());

  std::unique_ptr<TraceFile> merged = Open(dir.File("all.plx"));
  ASSERT_TRUE(merged);
  EXPECT_TRUE(merged->report().used_index);
  EXPECT_TRUE(merged->report().problems.empty());
  EXPECT_EQ(merged->report().chunks, chunks);
  EXPECT_EQ(merged->processes().size(), 3u);
  for (size_t i = 0; i < parts.size(); ++i) {
    SCOPED_TRACE(parts[i]);
    std::unique_ptr<TraceFile> part = Open(parts[i]);
    ASSERT_TRUE(part);
    ExpectSameProcess(*part, 1, *merged, numbers[i]);
  }
  ExpectCopiedBytes(parts, numbers, dir.File("all.plx"));
  // The merged file is as well-formed as a written one, cuts included.
  testing::CheckEveryCut(dir.File("all.plx"), 40, 11);
  EXPECT_EQ(Listing(dir), (std::vector<std::string>{"a.plx", "all.plx", "b.plx", "c.plx"}));
}

TEST(Merge, CutShortPartsGiveTheirWholeChunks) {
  plx::testing::TempDir dir;
  const std::string a = WritePart(dir, "a.plx", 1);
  const std::string b = WritePart(dir, "b.plx", 2, 1, /*index=*/false);
  const std::string c = WritePart(dir, "c.plx", 3);
  const std::string empty = dir.File("empty.plx");
  const std::string stub = dir.File("stub.plx");
  // b ends 70 bytes into its 10th chunk, c 20 bytes into its 5th chunk's header.
  std::vector<uint8_t> bytes = ReadBytes(b);
  const RawChunk cut_b = WalkChunks(bytes).chunks.at(9);
  bytes.resize(cut_b.offset + 70);
  WriteBytes(b, bytes);
  bytes = ReadBytes(c);
  const RawChunk cut_c = WalkChunks(bytes).chunks.at(4);
  bytes.resize(cut_c.offset + 20);
  WriteBytes(c, bytes);
  WriteBytes(empty, {});                                      // killed before writing anything
  WriteBytes(stub, {0x89, 'P', 'L', 'X', '\r', '\n', 0x1a});  // inside the file header

  const std::vector<MergeInput> inputs = {{a, 0}, {b, 1}, {empty, 2}, {c, 3}, {stub, 4}};
  auto result = MergeTraceFiles(inputs, dir.File("all.plx"));
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->problems.size(), 4u);
  EXPECT_EQ(result->problems[0],
            empty + ": 0 bytes: cut short inside the file header; nothing merged");
  EXPECT_EQ(result->problems[1],
            stub + ": 7 bytes: cut short inside the file header; nothing merged");
  EXPECT_EQ(result->problems[2].rfind(b + ": offset " + std::to_string(cut_b.offset) + ": ", 0), 0u)
      << result->problems[2];
  EXPECT_NE(result->problems[2].find("(cut short)"), std::string::npos);
  EXPECT_EQ(result->problems[3], c + ": offset " + std::to_string(cut_c.offset) +
                                     ": file ends 20 bytes into a chunk header (cut short)");
  EXPECT_EQ(result->chunks, WalkChunks(ReadBytes(a)).chunks.size() + 9 + 4);

  std::unique_ptr<TraceFile> merged = Open(dir.File("all.plx"));
  ASSERT_TRUE(merged);
  EXPECT_TRUE(merged->report().used_index);
  EXPECT_TRUE(merged->report().problems.empty());
  const std::vector<std::pair<std::string, uint32_t>> expected = {{a, 0}, {b, 1}, {c, 3}};
  for (const auto& [path, number] : expected) {
    SCOPED_TRACE(path);
    std::unique_ptr<TraceFile> part = Open(path);
    ASSERT_TRUE(part);
    ExpectSameProcess(*part, 1, *merged, number);
  }
  EXPECT_EQ(merged->processes().size(), 3u);
}

TEST(Merge, DamagedChunksAreLeftOutAndReported) {
  plx::testing::TempDir dir;
  const std::string a = WritePart(dir, "a.plx", 5);
  std::vector<uint8_t> bytes = ReadBytes(a);
  const std::vector<RawChunk> chunks = WalkChunks(bytes).chunks;
  ASSERT_GT(chunks.size(), 12u);
  const RawChunk bad_payload = chunks[6];
  const RawChunk bad_header = chunks[10];
  bytes[bad_payload.offset + kChunkHeaderSize + 1] ^= 0x40;
  bytes[bad_header.offset + 40] ^= 0x01;  // first_index: the header check fails
  WriteBytes(a, bytes);

  auto result = MergeTraceFiles(std::vector<MergeInput>{{a, 7}}, dir.File("all.plx"));
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->problems.size(), 2u);
  EXPECT_EQ(result->problems[0],
            StrFormat("%s: offset %llu: %s chunk (stream %u): payload checksum mismatch; left out",
                      a.c_str(), static_cast<unsigned long long>(bad_payload.offset),
                      ChunkTypeName(bad_payload.header.type), bad_payload.header.stream));
  EXPECT_EQ(result->problems[1],
            StrFormat("%s: offset %llu: chunk header checksum mismatch; skipped %llu bytes to the "
                      "next chunk",
                      a.c_str(), static_cast<unsigned long long>(bad_header.offset),
                      static_cast<unsigned long long>(bad_header.end() - bad_header.offset)));
  EXPECT_EQ(result->chunks, chunks.size() - 2);
  std::unique_ptr<TraceFile> merged = Open(dir.File("all.plx"));
  ASSERT_TRUE(merged);
  EXPECT_TRUE(merged->report().used_index);
  EXPECT_EQ(merged->report().damaged_chunks, 0u);
  EXPECT_EQ(merged->report().chunks, chunks.size() - 2);
}

TEST(Merge, UnknownChunkTypesAreCopiedWithTheNewProcess) {
  plx::testing::TempDir dir;
  const std::string a = WritePart(dir, "a.plx", 8);
  std::vector<uint8_t> bytes = ReadBytes(a);
  ChunkHeader h;
  h.type = static_cast<ChunkType>(9);
  h.process = 1;
  const std::vector<uint8_t> unknown = testing::SealChunk(h, {1, 2, 3, 4});
  WriteBytes(a, testing::RebuildIndex(
                    testing::Splice(bytes, WalkChunks(bytes).chunks.at(2).offset, unknown)));

  auto result = MergeTraceFiles(std::vector<MergeInput>{{a, 3}}, dir.File("all.plx"));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_TRUE(result->problems.empty());
  std::unique_ptr<TraceFile> merged = Open(dir.File("all.plx"));
  ASSERT_TRUE(merged);
  EXPECT_EQ(merged->report().unknown_chunks, 1u);
  const std::vector<RawChunk> chunks = WalkChunks(ReadBytes(dir.File("all.plx"))).chunks;
  ASSERT_GT(chunks.size(), 2u);
  EXPECT_EQ(static_cast<int>(chunks[2].header.type), 9);
  EXPECT_EQ(chunks[2].header.process, 3u);
}

TEST(Merge, RefusesBadInputs) {
  plx::testing::TempDir dir;
  const std::string a = WritePart(dir, "a.plx", 1);
  const std::string out = dir.File("out.plx");
  const std::string text = dir.File("notes.txt");
  WriteBytes(text,
             {'h', 'e', 'l', 'l', 'o', ' ', 't', 'h', 'e', 'r', 'e', '!', '!', '!', '!', '!', '!'});
  const std::string future = dir.File("future.plx");
  std::vector<uint8_t> bytes = ReadBytes(a);
  bytes[8] = 2;
  WriteBytes(future, bytes);
  const std::string two = dir.File("two.plx");
  ASSERT_TRUE(testing::WriteBusyTrace(two, {}, 2, 1, 10, 4).ok());

  struct Case {
    std::vector<MergeInput> inputs;
    StatusCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{}, StatusCode::kInvalidArgument, "merge: no input files"},
      {{{a, 0}, {dir.File("missing.plx"), 1}}, StatusCode::kNotFound, dir.File("missing.plx")},
      {{{text, 0}},
       StatusCode::kInvalidArgument,
       text + ": offset 0: not a .plx trace (bad file magic)"},
      {{{future, 0}},
       StatusCode::kUnimplemented,
       future + ": offset 8: format version 2.x; this build reads 1.x"},
      {{{a, 0}, {two, 1}},
       StatusCode::kInvalidArgument,
       two + ": holds chunks of processes 1 and 2; each merge input must hold one process"},
      {{{a, 5}, {future, 1}, {a, 5}},
       StatusCode::kInvalidArgument,
       a + " and " + a + ": both would be process 5"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    auto result = MergeTraceFiles(c.inputs, out);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), c.code) << result.status().message();
    EXPECT_NE(result.status().message().find(c.message), std::string::npos)
        << result.status().message();
  }
  EXPECT_EQ(Listing(dir),
            (std::vector<std::string>{"a.plx", "future.plx", "notes.txt", "two.plx"}));

  auto result = MergeTraceFiles(std::vector<MergeInput>{{a, 0}}, dir.File("no/such/dir/out.plx"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find(dir.File("no/such/dir/out.plx")), std::string::npos)
      << result.status().message();
}

TEST(Merge, ReplacesAnExistingOutputEvenOneOfItsInputs) {
  plx::testing::TempDir dir;
  const std::string a = WritePart(dir, "a.plx", 1);
  const std::string b = WritePart(dir, "b.plx", 2);
  const std::string out = dir.File("out.plx");
  WriteBytes(out, {'o', 'l', 'd'});
  auto result = MergeTraceFiles(std::vector<MergeInput>{{a, 0}, {b, 1}}, out);
  ASSERT_TRUE(result.ok()) << result.status().message();
  const std::vector<uint8_t> merged = ReadBytes(out);
  EXPECT_EQ(merged.size(), result->bytes);

  // Into a, from a and b: the inputs are read before a is replaced.
  result = MergeTraceFiles(std::vector<MergeInput>{{a, 0}, {b, 1}}, a);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(ReadBytes(a), merged);
  EXPECT_EQ(Listing(dir), (std::vector<std::string>{"a.plx", "b.plx", "out.plx"}));
}

TEST(Merge, ReportsProgressInInputBytes) {
  plx::testing::TempDir dir;
  WriterOptions big;
  big.chunk_raw_size = 4096;
  big.zstd_level = 0;
  ASSERT_TRUE(testing::WriteBusyTrace(dir.File("a.plx"), big, 1, 8, 40000, 1).ok());
  const std::string b = WritePart(dir, "b.plx", 2);
  const uint64_t total =
      std::filesystem::file_size(dir.File("a.plx")) + std::filesystem::file_size(b);
  ASSERT_GT(total, 3u << 20) << "too small to see progress in between";
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  auto result =
      MergeTraceFiles(std::vector<MergeInput>{{dir.File("a.plx"), 0}, {b, 1}}, dir.File("all.plx"),
                      [&](uint64_t done, uint64_t all) { calls.emplace_back(done, all); });
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_GE(calls.size(), 3u);
  EXPECT_EQ(calls.front(), std::make_pair(uint64_t{0}, total));
  EXPECT_EQ(calls.back(), std::make_pair(total, total));
  for (size_t i = 1; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].first, calls[i - 1].first);
    EXPECT_EQ(calls[i].second, total);
  }
}

}  // namespace
}  // namespace plx::format
