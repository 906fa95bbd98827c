// CheckPattern: compare a capture_child trace with the pattern, record by record.
#include "capture/check_pattern.h"

#include "capture/trace_reader.h"

namespace plx::testing {

PatternResult CheckPattern(const format::TraceFile& file, uint32_t threads, uint64_t iterations) {
  PatternResult result;
  auto fail = [&result](std::string message) {
    if (result.error.empty()) result.error = std::move(message);
  };
  Status s = VisitRecords(file, [&](const RecordContext& ctx, const Canon& r) {
    if (ctx.thread_name.rfind("stress ", 0) != 0) return;  // not a pattern thread
    const uint32_t t = static_cast<uint32_t>(std::stoul(std::string(ctx.thread_name.substr(7))));
    ThreadResult& c = result.threads[t];
    if (ctx.ns < c.last_ns) fail("thread " + std::to_string(t) + ": time goes backwards");
    c.first_ns = std::min(c.first_ns, ctx.ns);
    c.last_ns = std::max(c.last_ns, ctx.ns);
    switch (r.kind) {
      case 11:
        if (c.begin_seen || c.pattern_records > 0) fail("thread_begin not first");
        c.begin_seen = true;
        return;
      case 12:
        c.end_seen = true;
        return;
      case 14:
        c.lost += static_cast<uint64_t>(r.a);
        return;
      default:
        break;
    }
    if (r.name == "parallax:flush") {
      if (r.kind == 1) ++c.flush_states;
      return;
    }
    if (c.end_seen) fail("record after thread_end");
    const uint64_t index = c.pattern_records + c.lost;
    if (index >= iterations * kRecordsPerIteration) {
      fail("thread " + std::to_string(t) + ": more records than recorded");
      return;
    }
    const Canon want = PatternRecord(t, threads, index);
    if (!(r == want)) {
      fail("thread " + std::to_string(t) + " record " + std::to_string(index) + ": got " +
           Describe(r) + ", want " + Describe(want));
    }
    c.checksum = Mix(c.checksum, r);
    ++c.pattern_records;
  });
  if (!s.ok()) fail(s.message());
  for (const auto& [t, c] : result.threads)
    result.checksum_sum += c.checksum;
  return result;
}

uint64_t PatternThreadChecksum(uint32_t t, uint32_t threads, uint64_t iterations) {
  uint64_t h = kChecksumSeed;
  for (uint64_t i = 0; i < iterations * kRecordsPerIteration; ++i)
    h = Mix(h, PatternRecord(t, threads, i));
  return h;
}

uint64_t PatternChecksum(uint32_t threads, uint64_t iterations) {
  uint64_t sum = 0;
  for (uint32_t t = 0; t < threads; ++t)
    sum += PatternThreadChecksum(t, threads, iterations);
  return sum;
}

}  // namespace plx::testing
