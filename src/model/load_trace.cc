// LoadTrace: merge definitions, choose each process's clock correction, lay
// out threads, then decode every EVENTS chunk of every stream in record order
// through a StreamLoader.
#include "model/load_trace.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>
#include <set>
#include <utility>

#include "base/shared_progress.h"
#include "base/thread_pool.h"
#include "model/clock_correction.h"
#include "model/def_merger.h"
#include "model/load_cache.h"
#include "model/stream_loader.h"
#include "model/thread_rows.h"

namespace plx::model {

namespace {

// How many records to reserve room for: what the chunk headers claim, but never
// more than the stored bytes could plausibly hold (real traces take 1-4 bytes a
// record; a damaged header must not make us reserve gigabytes up front).
constexpr uint64_t kMaxRecordsPerStoredByte = 16;

uint64_t ReservationBound(const format::TraceFile& file, uint64_t claimed) {
  uint64_t stored = 0;
  for (const format::ChunkInfo& c : file.event_chunks())
    stored += c.header.stored_size;
  return std::min(claimed, stored * kMaxRecordsPerStoredByte);
}

constexpr auto kProgressInterval = std::chrono::milliseconds(100);
constexpr size_t kMaxProblems = 50;

// Threads: every stream a process defines or has records for, by (process, stream).
void LayOutThreads(const format::TraceFile& file, const std::vector<ClockCorrection>& corrections,
                   Trace* trace) {
  uint32_t index = 0;
  for (const auto& [id, defs] : file.processes()) {
    std::set<uint32_t> streams;
    for (const auto& [sid, def] : defs.streams)
      if (sid <= std::numeric_limits<uint32_t>::max()) streams.insert(static_cast<uint32_t>(sid));
    for (const format::StreamInfo& s : file.streams())
      if (s.process == id) streams.insert(s.stream);
    for (uint32_t sid : streams) {
      Thread t;
      t.process = index;
      t.file_stream = sid;
      auto it = defs.streams.find(sid);
      if (it != defs.streams.end()) {
        t.tid = it->second.tid;
        t.name = defs.Str(it->second.name);
      }
      if (const format::StreamInfo* info = file.FindStream(id, sid)) {
        // From the index; replaced when records are decoded.
        const ClockCorrection& c = corrections[index];
        const auto limit = [](int64_t ns) {
          return std::clamp(ns, -ClockCorrection::kLimit, ClockCorrection::kLimit);
        };
        t.records = info->records;
        t.begin_ns = c.Apply(limit(info->begin_ns));
        t.end_ns = c.Apply(limit(info->end_ns));
      }
      trace->threads.push_back(std::move(t));
    }
    ++index;
  }
}

// Decodes every thread on its own, in parallel, then appends them in thread
// order: the same trace as the sequential pass. False (nothing appended)
// when a record used an id with no definition: placeholders are numbered in
// the order the sequential pass meets them, so the caller loads again in order.
bool LoadThreadsInParallel(const format::TraceFile& file, const std::vector<ProcessIdMaps>& maps,
                           const std::vector<ClockCorrection>& corrections, ThreadPool* pool,
                           const std::function<void(uint64_t, uint64_t)>& progress, Trace* trace) {
  const size_t n = trace->threads.size();
  std::vector<ThreadRows> parts(n);
  std::atomic<bool> undefined{false};
  SharedProgress shared(progress, file.total_records());
  const std::vector<uint32_t> no_chunks;
  pool->ParallelFor(n, [&](size_t t) {
    if (undefined.load(std::memory_order_relaxed)) return;
    const Thread& thread = trace->threads[t];
    const uint32_t file_process = trace->processes[thread.process].file_id;
    const format::StreamInfo* info = file.FindStream(file_process, thread.file_stream);
    ThreadRows& part = parts[t];
    StreamLoader loader(&part.rows, nullptr);
    loader.BeginThread(0, thread.process, &maps[thread.process], &file.clock(file_process),
                       &corrections[thread.process]);
    uint64_t stored = 0;
    for (uint32_t c : info ? info->chunks : no_chunks)
      stored += file.event_chunks()[c].header.stored_size;
    // As ReservationBound, for this thread's chunks.
    const uint64_t bound =
        info ? std::min<uint64_t>(info->records, stored * kMaxRecordsPerStoredByte) : 0;
    std::vector<uint8_t> scratch;
    for (uint32_t c : info ? info->chunks : no_chunks) {
      const format::ChunkInfo& chunk = file.event_chunks()[c];
      DecodeThreadChunk(file, chunk, &loader, &scratch, &part);
      if (loader.decoded() > 0) loader.ReserveFor(bound);
      shared.Add(chunk.header.record_count);
    }
    part.at = loader.position();
    if (loader.undefined_seen() > 0) undefined.store(true);
  });
  if (undefined.load()) return false;
  std::vector<ThreadRows*> ordered;
  for (ThreadRows& p : parts)
    ordered.push_back(&p);
  AppendThreadRows(ordered, trace, /*release=*/true);
  return true;
}

}  // namespace

void AddLoadProblem(Trace* trace, std::string line) {
  if (trace->problems.size() < kMaxProblems) {
    trace->problems.push_back(std::move(line));
  } else if (trace->problems.size() == kMaxProblems) {
    trace->problems.push_back("(further problems not listed)");
  }
}

std::string DamagedChunkLine(const format::TraceFile& file, const Status& status,
                             bool records_delivered) {
  // "file: offset N: ..." -> "offset N: ...", as the file's own problem lines read.
  const std::string prefix = file.name() + ": ";
  const std::string& message = status.message();
  return (message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message) +
         (records_delivered ? " (rest of chunk skipped)" : " (chunk skipped)");
}

std::unique_ptr<TraceDefinitions> LoadDefinitions(const format::TraceFile& file,
                                                  bool correct_clocks) {
  auto defs = std::make_unique<TraceDefinitions>();
  Trace& trace = defs->trace;
  trace.source = file.name();
  trace.problems = file.report().problems;
  trace.stats.damaged_chunks = file.report().damaged_chunks;

  trace.processes.resize(file.processes().size());
  for (const auto& [id, process_defs] : file.processes())
    defs->maps.push_back(
        defs->merger.AddProcess(static_cast<uint32_t>(defs->maps.size()), process_defs));
  defs->corrections.resize(trace.processes.size());
  if (correct_clocks) {
    for (size_t i = 0; i < trace.processes.size(); ++i) {
      Process& p = trace.processes[i];
      defs->corrections[i] = ClockCorrection(p.clock_offsets);
      p.clock_offset_ns = defs->corrections[i].offset_ns();
      p.clock_drift_ppm = defs->corrections[i].drift_ppm();
    }
  }
  LayOutThreads(file, defs->corrections, &trace);
  SetTraceSpan(&trace);
  return defs;
}

void SetTraceSpan(Trace* trace) {
  bool any = false;
  for (const Thread& t : trace->threads) {
    if (t.records == 0) continue;
    trace->begin_ns = any ? std::min(trace->begin_ns, t.begin_ns) : t.begin_ns;
    trace->end_ns = any ? std::max(trace->end_ns, t.end_ns) : t.end_ns;
    any = true;
  }
}

StatusOr<Trace> LoadTrace(const format::TraceFile& file, const LoadOptions& options) {
  std::unique_ptr<TraceDefinitions> defs = LoadDefinitions(file, options.correct_clocks);
  Trace& trace = defs->trace;
  DefMerger& merger = defs->merger;
  const std::vector<ProcessIdMaps>& maps = defs->maps;
  const std::vector<ClockCorrection>& corrections = defs->corrections;

  const bool parallel = options.events && options.cache == nullptr && options.pool != nullptr &&
                        options.pool->size() > 1 && trace.threads.size() > 1;
  if (options.events && options.cache != nullptr) {
    options.cache->LoadEvents(file, maps, corrections, &merger, &trace, options.progress);
  } else if (parallel && LoadThreadsInParallel(file, maps, corrections, options.pool,
                                               options.progress, &trace)) {
    if (options.progress) options.progress(file.total_records(), file.total_records());
  } else if (options.events) {
    const uint64_t total = file.total_records();
    StreamLoader loader(&trace, &merger);
    std::vector<uint8_t> scratch;
    auto last_report = std::chrono::steady_clock::now();
    uint64_t done = 0;
    const uint64_t bound = ReservationBound(file, total);
    const std::vector<uint32_t> no_chunks;
    for (uint32_t t = 0; t < trace.threads.size(); ++t) {
      Thread& thread = trace.threads[t];
      const uint32_t file_process = trace.processes[thread.process].file_id;
      loader.BeginThread(t, thread.process, &maps[thread.process], &file.clock(file_process),
                         &corrections[thread.process]);
      const format::StreamInfo* info = file.FindStream(file_process, thread.file_stream);
      for (uint32_t c : info ? info->chunks : no_chunks) {
        const format::ChunkInfo& chunk = file.event_chunks()[c];
        const uint64_t before = loader.decoded();
        Status s = file.DecodeChunk(chunk, loader, &scratch);
        if (!s.ok()) {
          // Records before the damage were delivered and stay; the rest is lost.
          ++trace.stats.damaged_chunks;
          AddLoadProblem(&trace, DamagedChunkLine(file, s, loader.decoded() != before));
        }
        done += chunk.header.record_count;
        if (loader.decoded() > 0) loader.ReserveFor(bound);
        if (options.progress) {
          const auto now = std::chrono::steady_clock::now();
          if (now - last_report >= kProgressInterval) {
            options.progress(done, total);
            last_report = now;
          }
        }
      }
      loader.EndThread();
    }
    if (options.progress) options.progress(total, total);
  }

  SetTraceSpan(&trace);
  return std::move(trace);
}

}  // namespace plx::model
