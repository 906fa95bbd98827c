// LoadTrace: merge definitions, choose each process's clock correction, lay
// out threads, then decode every EVENTS chunk of every stream in record order
// through a StreamLoader.
#include "model/load_trace.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <set>
#include <utility>

#include "model/clock_correction.h"
#include "model/def_merger.h"
#include "model/load_cache.h"
#include "model/stream_loader.h"

namespace plx::model {

namespace {

// How many records to reserve room for: what the chunk headers claim, but never
// more than the stored bytes could plausibly hold (real traces take 1-4 bytes a
// record; a damaged header must not make us reserve gigabytes up front).
uint64_t ReservationBound(const format::TraceFile& file, uint64_t claimed) {
  constexpr uint64_t kMaxRecordsPerStoredByte = 16;
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

StatusOr<Trace> LoadTrace(const format::TraceFile& file, const LoadOptions& options) {
  Trace trace;
  trace.source = file.name();
  trace.problems = file.report().problems;
  trace.stats.damaged_chunks = file.report().damaged_chunks;

  DefMerger merger(&trace);
  std::vector<ProcessIdMaps> maps;
  trace.processes.resize(file.processes().size());
  for (const auto& [id, defs] : file.processes())
    maps.push_back(merger.AddProcess(static_cast<uint32_t>(maps.size()), defs));
  std::vector<ClockCorrection> corrections(trace.processes.size());
  if (options.correct_clocks) {
    for (size_t i = 0; i < trace.processes.size(); ++i) {
      Process& p = trace.processes[i];
      corrections[i] = ClockCorrection(p.clock_offsets);
      p.clock_offset_ns = corrections[i].offset_ns();
      p.clock_drift_ppm = corrections[i].drift_ppm();
    }
  }
  LayOutThreads(file, corrections, &trace);

  if (options.events && options.cache != nullptr) {
    options.cache->LoadEvents(file, maps, corrections, &merger, &trace, options.progress);
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

  bool any = false;
  for (const Thread& t : trace.threads) {
    if (t.records == 0) continue;
    trace.begin_ns = any ? std::min(trace.begin_ns, t.begin_ns) : t.begin_ns;
    trace.end_ns = any ? std::max(trace.end_ns, t.end_ns) : t.end_ns;
    any = true;
  }
  return trace;
}

}  // namespace plx::model
