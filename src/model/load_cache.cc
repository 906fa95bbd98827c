// LoadCache: per thread, keep the decoded chunks that still hold, decode the
// new ones, then copy every thread's rows into the trace.
#include "model/load_cache.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "model/load_trace.h"
#include "model/stream_loader.h"

namespace plx::model {

namespace {

// Identifies a decoded chunk: a chunk with the same header holds the same
// records (the payload checksum covers them).
struct ChunkKey {
  uint64_t first_index, tick_begin, tick_end, payload_check;
  uint32_t record_count, raw_size;
  bool operator==(const ChunkKey&) const = default;
};

ChunkKey KeyOf(const format::ChunkHeader& h) {
  return {h.first_index, h.tick_begin, h.tick_end, h.payload_check, h.record_count, h.raw_size};
}

// Calls f(column of a, column of b) for each pair of columns of two tables.
template <typename A, typename B, typename F>
void ZipColumns(A a, B b, F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (f(std::get<I>(a), std::get<I>(b)), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<A>>{});
}

// A table's columns() must list all its columns (all of them vectors): a
// column left out would be neither cut back nor copied.
template <typename Table>
constexpr bool ListsEveryColumn() {
  using Columns = decltype(std::declval<Table&>().columns());
  return sizeof(Table) == std::tuple_size_v<Columns> * sizeof(std::vector<uint8_t>);
}
static_assert(ListsEveryColumn<SliceTable>() && ListsEveryColumn<InstantTable>() &&
              ListsEveryColumn<MessageTable>() && ListsEveryColumn<CounterTable>() &&
              ListsEveryColumn<RmaTable>() && ListsEveryColumn<ControlTable>() &&
              ListsEveryColumn<CollectiveTable>() && ListsEveryColumn<RecvPostTable>());

// Calls f(table of a, table of b) for every record table of two traces.
template <typename A, typename B, typename F>
void ForEachTable(A& a, B& b, F&& f) {
  f(a.slices, b.slices);
  f(a.instants, b.instants);
  f(a.messages, b.messages);
  f(a.counter_samples, b.counter_samples);
  f(a.rma, b.rma);
  f(a.controls, b.controls);
  f(a.collectives, b.collectives);
  f(a.recv_posts, b.recv_posts);
}

// Calls f(table) for every record table of one trace.
template <typename T, typename F>
void ForEachTable(T& t, F&& f) {
  ForEachTable(t, t, [&](auto& table, const auto&) { f(table); });
}

// Every id the old maps mapped maps the same now (new ids may have come).
bool MapsExtend(const ProcessIdMaps& old, const ProcessIdMaps& now) {
  const auto extends = [](const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != kNone && (i >= b.size() || b[i] != a[i])) return false;
    return true;
  };
  return extends(old.states, now.states) && extends(old.callsites, now.callsites) &&
         extends(old.event_types, now.event_types) && extends(old.counters, now.counters) &&
         extends(old.communicators, now.communicators);
}

}  // namespace

struct LoadCache::Part {
  // Where to go back to: before a decoded chunk.
  struct Mark {
    std::vector<size_t> rows;  // per table, in ForEachTable's order
    size_t texts = 0;
    LoadStats stats;
    StreamLoader::Position at;
  };

  Part() : loader(&rows, nullptr) {}

  void Reset() {
    rows = Trace();
    at = StreamLoader::Position();
    keys.clear();
    marks.clear();
    problems.clear();
    damaged = 0;
    reusable = true;
  }

  // Back to before decoded chunk `i` (> 0; Reset is before the first).
  void Rewind(size_t i) {
    if (i >= keys.size()) return;
    const Mark& m = marks[i];
    size_t table = 0;
    ForEachTable(rows, [&](auto& t) {
      const size_t n = m.rows[table++];
      std::apply([n](auto&... column) { (column.resize(n), ...); }, t.columns());
    });
    rows.texts.resize(m.texts);
    rows.stats = m.stats;
    at = m.at;
    keys.resize(i);
    marks.resize(i);
  }

  Mark Here() const {
    Mark m;
    ForEachTable(rows, [&](const auto& t) { m.rows.push_back(t.size()); });
    m.texts = rows.texts.size();
    m.stats = rows.stats;
    m.at = loader.position();
    return m;
  }

  Trace rows;  // the thread's records; thread column 0
  StreamLoader loader;
  StreamLoader::Position at;  // the loader's, between loads
  std::vector<ChunkKey> keys;
  std::vector<Mark> marks;  // before each decoded chunk
  // What the rows were decoded with.
  ProcessIdMaps maps;
  format::TickClock clock;
  ClockCorrection correction;
  bool reusable = true;  // false after damage or an undefined id: decode again next time
  std::vector<std::string> problems;
  uint64_t damaged = 0;
  bool seen = false;  // by the current load
};

LoadCache::LoadCache() = default;
LoadCache::~LoadCache() = default;

void LoadCache::LoadEvents(const format::TraceFile& file, const std::vector<ProcessIdMaps>& maps,
                           const std::vector<ClockCorrection>& corrections, DefMerger* merger,
                           Trace* trace, const std::function<void(uint64_t, uint64_t)>& progress) {
  for (auto& [key, part] : parts_)
    part->seen = false;
  std::vector<Part*> parts;
  std::vector<uint8_t> scratch;
  const std::vector<uint32_t> no_chunks;
  for (uint32_t t = 0; t < trace->threads.size(); ++t) {
    const Thread& thread = trace->threads[t];
    const uint32_t file_process = trace->processes[thread.process].file_id;
    const ProcessIdMaps& map = maps[thread.process];
    const ClockCorrection& correction = corrections[thread.process];
    const format::TickClock& clock = file.clock(file_process);
    std::unique_ptr<Part>& slot = parts_[{file_process, thread.file_stream}];
    if (slot == nullptr) slot = std::make_unique<Part>();
    Part& p = *slot;
    p.seen = true;
    parts.push_back(&p);
    const format::StreamInfo* info = file.FindStream(file_process, thread.file_stream);
    const std::vector<uint32_t>& chunks = info ? info->chunks : no_chunks;

    // The decoded chunks that still hold: a prefix of the stream's chunks,
    // each wholly below the tick from which the clock converts differently.
    size_t keep = 0;
    if (p.reusable && MapsExtend(p.maps, map) && p.correction == correction) {
      const uint64_t same_below = p.clock.SameBelow(clock);
      while (keep < p.keys.size() && keep < chunks.size() &&
             p.keys[keep] == KeyOf(file.event_chunks()[chunks[keep]].header) &&
             p.keys[keep].tick_end < same_below)
        ++keep;
    }
    counters_.chunks_kept += keep;
    counters_.chunks_redecoded += p.keys.size() - keep;
    if (keep == 0) {
      p.Reset();
    } else {
      p.Rewind(keep);
    }
    p.maps = map;
    p.clock = clock;
    p.correction = correction;
    p.loader.set_merger(merger);
    p.loader.Resume(0, thread.process, &map, &clock, &correction, p.at);
    for (size_t i = keep; i < chunks.size(); ++i) {
      const format::ChunkInfo& chunk = file.event_chunks()[chunks[i]];
      p.marks.push_back(p.Here());
      p.keys.push_back(KeyOf(chunk.header));
      const uint64_t undefined = trace->stats.undefined_refs;
      const uint64_t before = p.loader.position().records;
      const Status s = file.DecodeChunk(chunk, p.loader, &scratch);
      if (!s.ok()) {
        // Records before the damage were delivered and stay; the rest is lost.
        ++p.damaged;
        p.problems.push_back(DamagedChunkLine(file, s, p.loader.position().records != before));
        p.reusable = false;
      }
      // A placeholder for an undefined id belongs to this load's definitions.
      if (trace->stats.undefined_refs != undefined) p.reusable = false;
      ++counters_.chunks_decoded;
    }
    p.at = p.loader.position();
  }
  for (auto it = parts_.begin(); it != parts_.end();)
    it = it->second->seen ? std::next(it) : parts_.erase(it);

  // Every thread's rows, in thread order, as LoadTrace appends them.
  {
    std::vector<size_t> totals;
    for (const Part* p : parts) {
      size_t i = 0;
      ForEachTable(*trace, p->rows, [&](auto&, const auto& t) {
        if (totals.size() <= i) totals.push_back(0);
        totals[i++] += t.size();
      });
    }
    size_t i = 0;
    ForEachTable(*trace, [&](auto& table) {
      const size_t n = totals.empty() ? 0 : totals[i++];
      std::apply([n](auto&... column) { (column.reserve(n), ...); }, table.columns());
    });
  }
  uint64_t records = 0;
  for (uint32_t t = 0; t < parts.size(); ++t) {
    const Part& p = *parts[t];
    const size_t slice_base = trace->slices.size();
    const size_t instant_base = trace->instants.size();
    const uint32_t text_base = static_cast<uint32_t>(trace->texts.size());
    ForEachTable(*trace, p.rows, [&](auto& to, const auto& from) {
      const size_t base = to.size();
      ZipColumns(to.columns(), from.columns(),
                 [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); });
      std::fill(to.thread.begin() + static_cast<ptrdiff_t>(base), to.thread.end(), t);
    });
    trace->texts.insert(trace->texts.end(), p.rows.texts.begin(), p.rows.texts.end());
    if (text_base > 0)
      for (size_t i = instant_base; i < trace->instants.size(); ++i)
        if (trace->instants.text[i] != kNone) trace->instants.text[i] += text_base;
    LoadStats& s = trace->stats;
    s.unclosed_slices += StreamLoader::CloseOpen(p.at, slice_base, &trace->slices);
    s.records += p.at.records;
    s.unknown_record_kinds += p.rows.stats.unknown_record_kinds;
    s.leave_without_enter += p.rows.stats.leave_without_enter;
    s.leave_mismatch += p.rows.stats.leave_mismatch;
    s.lost_records += p.rows.stats.lost_records;
    s.damaged_chunks += p.damaged;
    for (const std::string& line : p.problems)
      AddLoadProblem(trace, line);
    Thread& thread = trace->threads[t];
    thread.records = p.at.records;
    thread.begin_ns = p.at.records > 0 ? p.at.first_ns : 0;
    thread.end_ns = p.at.records > 0 ? p.at.last_ns : 0;
    thread.ended = p.at.ended;
    records += p.at.records;
  }
  if (progress) progress(records, records);
}

}  // namespace plx::model
