// ComputeOmpLoops: a pass over the slices finds regions, implicit tasks, `omp
// for`s and `omp chunk`s with their nearest OpenMP ancestors (by depth); a
// pass over the instants puts each thread num and chunk pair in the innermost
// task / loop / chunk state holding it; then loops are formed per region and
// each chunk is timed (measured or spread).
#include "analysis/omp_loops.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace plx::analysis {
namespace {

using model::kNone;

enum Kind : uint8_t { kOther, kParallel, kTask, kFor, kChunk };

// How far back a worker task looks through its process's regions (begun
// earlier, maybe already ended) for one still open: nested regions only.
constexpr size_t kMaxRegionLookBack = 256;

struct Region {
  uint32_t slice = 0;
  uint32_t process = 0;
  uint32_t team = 0;       // implicit tasks placed in it
  uint32_t loops = 0;      // its `omp for`s per task, at most
  uint32_t loop_base = 0;  // its first loop, before sorting
};

struct Task {
  uint32_t slice = 0;
  uint32_t region = kNone;
  uint32_t fors = 0;
  int32_t thread_num = -1;
};

struct For {
  uint32_t slice = 0;
  uint32_t task = kNone;
  uint32_t k = 0;
  uint32_t loop = kNone;  // before sorting
  bool has_chunk_states = false;
};

// A task, `omp for` or `omp chunk` slice, for the instants pass.
struct Timed {
  uint32_t slice = 0;
  Kind kind = kOther;
  uint32_t id = 0;  // into tasks, fors or chunk_for
};

// The nearest OpenMP slices enclosing a depth: parallel-or-task, task, for.
struct Ancestors {
  Kind region_kind = kOther;
  uint32_t region = kNone;  // region or task id (region_kind says which)
  uint32_t task = kNone;
  uint32_t loop = kNone;  // for id
};

uint32_t EventTypeNamed(const model::Trace& t, std::string_view name) {
  for (uint32_t i = 0; i < t.event_types.size(); ++i)
    if (t.event_types[i].name == name) return i;
  return kNone;
}

uint32_t ProcessOf(const model::Trace& t, uint32_t thread) {
  return thread < t.threads.size() ? t.threads[thread].process : kNone;
}

uint64_t IterationCount(int64_t first, int64_t last) {
  return last >= first ? static_cast<uint64_t>(last) - static_cast<uint64_t>(first) + 1 : 0;
}

class Builder {
 public:
  explicit Builder(const model::Trace& t) : t_(t) {}

  OmpLoops Run() {
    kinds_.assign(t_.states.size(), kOther);
    bool any_for = false;
    for (size_t i = 0; i < t_.states.size(); ++i) {
      const std::string& n = t_.states[i].name;
      kinds_[i] = n == "omp parallel"        ? kParallel
                  : n == "omp implicit task" ? kTask
                  : n == "omp for"           ? kFor
                  : n == "omp chunk"         ? kChunk
                                             : kOther;
      any_for |= kinds_[i] == kFor;
    }
    if (!any_for) return std::move(out_);
    ScanSlices();
    PlaceWorkers();
    ScanInstants();
    FormLoops();
    TimeChunks();
    return std::move(out_);
  }

 private:
  void ScanSlices() {
    const model::SliceTable& s = t_.slices;
    std::vector<Ancestors> at_depth;
    for (uint32_t i = 0; i < s.size(); ++i) {
      const uint32_t state = s.state[i];
      const Kind kind = state < kinds_.size() ? kinds_[state] : kOther;
      const size_t d = s.depth[i];
      const Ancestors parent = d > 0 && d - 1 < at_depth.size() ? at_depth[d - 1] : Ancestors{};
      Ancestors here = parent;
      switch (kind) {
        case kParallel:
          here.region_kind = kParallel;
          here.region = static_cast<uint32_t>(regions_.size());
          regions_.push_back(Region{i, ProcessOf(t_, s.thread[i])});
          break;
        case kTask: {
          Task task{i};
          if (parent.region_kind == kParallel) task.region = parent.region;
          here.region_kind = kTask;
          here.region = here.task = static_cast<uint32_t>(tasks_.size());
          timed_.push_back(Timed{i, kTask, here.task});
          tasks_.push_back(task);
          break;
        }
        case kFor: {
          For f{i, parent.task};
          if (f.task != kNone) f.k = tasks_[f.task].fors++;
          here.loop = static_cast<uint32_t>(fors_.size());
          timed_.push_back(Timed{i, kFor, here.loop});
          fors_.push_back(f);
          break;
        }
        case kChunk:
          if (parent.loop != kNone) fors_[parent.loop].has_chunk_states = true;
          timed_.push_back(Timed{i, kChunk, static_cast<uint32_t>(chunk_for_.size())});
          chunk_for_.push_back(parent.loop);
          break;
        case kOther:
          break;
      }
      if (d >= at_depth.size()) at_depth.resize(d + 1);
      at_depth[d] = here;
    }
  }

  // Workers' tasks: the latest region of the process, on another thread,
  // begun at or before the task and not ended before it.
  void PlaceWorkers() {
    const model::SliceTable& s = t_.slices;
    std::vector<uint32_t> by_begin(regions_.size());
    for (uint32_t r = 0; r < regions_.size(); ++r)
      by_begin[r] = r;
    auto key = [&](uint32_t r) {
      return std::pair(regions_[r].process, s.begin[regions_[r].slice]);
    };
    std::sort(by_begin.begin(), by_begin.end(),
              [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    for (Task& task : tasks_) {
      if (task.region != kNone) continue;
      const uint32_t thread = s.thread[task.slice];
      const std::pair<uint32_t, int64_t> me(ProcessOf(t_, thread), s.begin[task.slice]);
      auto it = std::upper_bound(by_begin.begin(), by_begin.end(), me,
                                 [&](const auto& v, uint32_t r) { return v < key(r); });
      for (size_t n = 0; it != by_begin.begin() && n < kMaxRegionLookBack; ++n) {
        const Region& r = regions_[*--it];
        if (r.process != me.first) break;
        const uint32_t slice = r.slice;
        if (s.thread[slice] != thread && s.end[slice] >= me.second) {
          task.region = *it;
          break;
        }
      }
      if (task.region == kNone) ++out_.tasks_without_region;
    }
    for (const Task& task : tasks_)
      if (task.region != kNone) ++regions_[task.region].team;
  }

  // Innermost entry of the stack holding `t` whose kind is accepted.
  template <typename Accept>
  const Timed* Innermost(int64_t t, Accept accept) const {
    for (size_t n = stack_.size(); n-- > 0;) {
      const Timed& e = stack_[n];
      if (t_.slices.end[e.slice] >= t && accept(e.kind)) return &e;
    }
    return nullptr;
  }

  void ScanInstants() {
    const model::InstantTable& in = t_.instants;
    const model::SliceTable& s = t_.slices;
    const uint32_t num_type = EventTypeNamed(t_, "omp thread num");
    const uint32_t first_type = EventTypeNamed(t_, "omp chunk first");
    const uint32_t last_type = EventTypeNamed(t_, "omp chunk last");
    const auto pairs = static_cast<size_t>(std::count(in.type.begin(), in.type.end(), first_type));
    raw_.reserve(pairs);
    raw_for_.reserve(pairs);
    raw_state_.reserve(pairs);
    size_t cursor = 0;
    uint32_t thread = kNone;
    // A first waiting for its last: the chunk so far, its for and state.
    bool pending = false;
    OmpChunk chunk;
    uint32_t chunk_loop = kNone, chunk_state = kNone;
    for (size_t i = 0; i < in.size(); ++i) {
      const uint32_t type = in.type[i];
      if (type == kNone || (type != num_type && type != first_type && type != last_type)) continue;
      const int64_t t = in.time[i];
      if (in.thread[i] != thread) {
        thread = in.thread[i];
        stack_.clear();
        out_.unpaired_instants += pending;
        pending = false;
        while (cursor < timed_.size() && s.thread[timed_[cursor].slice] < thread)
          ++cursor;
      }
      for (; cursor < timed_.size() && s.thread[timed_[cursor].slice] == thread &&
             s.begin[timed_[cursor].slice] <= t;
           ++cursor) {
        const uint16_t depth = s.depth[timed_[cursor].slice];
        while (!stack_.empty() && s.depth[stack_.back().slice] >= depth)
          stack_.pop_back();
        stack_.push_back(timed_[cursor]);
      }
      const bool is_int = in.kind[i] == model::ValueKind::kInt;
      if (type == num_type) {
        const Timed* task = Innermost(t, [](Kind k) { return k == kTask; });
        if (task != nullptr && is_int && tasks_[task->id].thread_num < 0)
          tasks_[task->id].thread_num =
              static_cast<int32_t>(std::clamp<int64_t>(in.int_value[i], -1, INT32_MAX));
      } else if (type == first_type) {
        out_.unpaired_instants += pending;
        pending = false;
        const Timed* e = Innermost(t, [](Kind k) { return k != kOther; });
        chunk_loop = chunk_state = kNone;
        if (e != nullptr && e->kind == kChunk) {
          chunk_loop = chunk_for_[e->id];
          chunk_state = e->slice;
        } else if (e != nullptr && e->kind == kFor) {
          chunk_loop = e->id;
        }
        if (chunk_loop == kNone || !is_int) {
          ++out_.unpaired_instants;
          continue;
        }
        pending = true;
        chunk = OmpChunk{thread, -1, in.int_value[i], 0, t, t, false};
      } else if (pending && is_int) {  // the last of the pending first
        chunk.last = in.int_value[i];
        raw_.push_back(chunk);
        raw_for_.push_back(chunk_loop);
        raw_state_.push_back(chunk_state);
        pending = false;
      } else {
        ++out_.unpaired_instants;
      }
    }
    out_.unpaired_instants += pending;
  }

  void FormLoops() {
    for (For& f : fors_) {
      if (f.task == kNone || tasks_[f.task].region == kNone) continue;
      Region& r = regions_[tasks_[f.task].region];
      r.loops = std::max(r.loops, f.k + 1);
    }
    uint32_t count = 0;
    for (Region& r : regions_) {
      r.loop_base = count;
      count += r.loops;
    }
    loops_.assign(count, OmpLoop{});
    std::vector<bool> seen(count, false);
    const model::SliceTable& s = t_.slices;
    for (For& f : fors_) {
      if (f.task == kNone || tasks_[f.task].region == kNone) {
        ++out_.loops_without_task;
        continue;
      }
      const uint32_t region = tasks_[f.task].region;
      const Region& r = regions_[region];
      f.loop = r.loop_base + f.k;
      OmpLoop& l = loops_[f.loop];
      if (!seen[f.loop]) {
        seen[f.loop] = true;
        l.process = r.process;
        l.region = r.slice;
        l.k = f.k;
        l.threads = r.team;
        l.begin_ns = s.begin[f.slice];
        l.end_ns = s.end[f.slice];
      }
      l.begin_ns = std::min(l.begin_ns, s.begin[f.slice]);
      l.end_ns = std::max(l.end_ns, s.end[f.slice]);
      l.dynamic |= f.has_chunk_states;
    }
  }

  void TimeChunks();

  const model::Trace& t_;
  OmpLoops out_;
  std::vector<Kind> kinds_;
  std::vector<Region> regions_;
  std::vector<Task> tasks_;
  std::vector<For> fors_;
  std::vector<uint32_t> chunk_for_;  // per `omp chunk` slice seen: its for id
  std::vector<Timed> timed_;         // tasks, fors, chunks in slice order
  std::vector<Timed> stack_;         // the instants pass: open OpenMP slices
  std::vector<OmpChunk> raw_;        // chunks in (thread, time) order
  std::vector<uint32_t> raw_for_;    // their for ids
  std::vector<uint32_t> raw_state_;  // their `omp chunk` slices, kNone when static
  std::vector<OmpLoop> loops_;       // by region, then k
};

// Times each chunk (its `omp chunk` state, or its share of the thread's `omp
// for`), sums the loops' iterations, then orders loops by begin and each
// loop's chunks by first iteration.
void Builder::TimeChunks() {
  const model::SliceTable& s = t_.slices;
  // raw_ is in (thread, time) order, so each for's chunks come in the order
  // recorded: a first pass sums their weights, the second shares the for out.
  auto weight = [](const OmpChunk& c) {
    return static_cast<double>(std::max<uint64_t>(IterationCount(c.first, c.last), 1));
  };
  std::vector<double> total(fors_.size(), 0), done(fors_.size(), 0);
  for (size_t i = 0; i < raw_.size(); ++i)
    total[raw_for_[i]] += weight(raw_[i]);
  std::vector<size_t> per_loop(loops_.size(), 0);
  for (size_t i = 0; i < raw_.size(); ++i) {
    const uint32_t f = raw_for_[i];
    const For& loop = fors_[f];
    if (loop.loop == kNone) continue;
    OmpChunk& c = raw_[i];
    c.thread_num = tasks_[loop.task].thread_num;
    if (raw_state_[i] != kNone) {
      c.begin_ns = s.begin[raw_state_[i]];
      c.end_ns = s.end[raw_state_[i]];
    } else if (loop.has_chunk_states) {
      c.estimated = true;  // a dynamic loop's chunk outside any chunk state: its instant
    } else {
      const int64_t fb = s.begin[loop.slice], fe = std::max(s.end[loop.slice], fb);
      const double span = static_cast<double>(fe - fb);
      c.begin_ns = fb + std::llround(span * (done[f] / total[f]));
      done[f] += weight(c);
      c.end_ns = fb + std::llround(span * std::min(done[f] / total[f], 1.0));
      c.estimated = true;
    }
    OmpLoop& l = loops_[loop.loop];
    l.first = per_loop[loop.loop] == 0 ? c.first : std::min(l.first, c.first);
    l.last = per_loop[loop.loop] == 0 ? c.last : std::max(l.last, c.last);
    l.iterations += IterationCount(c.first, c.last);
    ++per_loop[loop.loop];
  }

  // Loop ids: by begin, then process, region, k.
  std::vector<uint32_t> order(loops_.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const OmpLoop &x = loops_[a], &y = loops_[b];
    if (x.begin_ns != y.begin_ns) return x.begin_ns < y.begin_ns;
    if (x.process != y.process) return x.process < y.process;
    return x.region != y.region ? x.region < y.region : x.k < y.k;
  });
  std::vector<uint32_t> final_id(loops_.size());
  std::vector<size_t> next(loops_.size(), 0);
  size_t placed = 0;
  out_.loops.reserve(loops_.size());
  for (uint32_t id = 0; id < order.size(); ++id) {
    final_id[order[id]] = id;
    OmpLoop l = loops_[order[id]];
    l.chunk_begin = next[id] = placed;
    l.chunk_end = placed += per_loop[order[id]];
    out_.loops.push_back(l);
  }
  // Each loop's chunks by (first iteration, then thread and time): sorted as
  // 16-byte keys, then copied out once.
  std::vector<std::pair<int64_t, uint32_t>> keys(placed);
  for (uint32_t i = 0; i < raw_.size(); ++i) {
    const uint32_t loop = fors_[raw_for_[i]].loop;
    if (loop != kNone) keys[next[final_id[loop]]++] = {raw_[i].first, i};
  }
  out_.chunks.reserve(placed);
  for (const OmpLoop& l : out_.loops) {
    const auto first = keys.begin() + static_cast<std::ptrdiff_t>(l.chunk_begin);
    const auto last = keys.begin() + static_cast<std::ptrdiff_t>(l.chunk_end);
    std::sort(first, last);
    for (auto k = first; k != last; ++k)
      out_.chunks.push_back(raw_[k->second]);
  }
}

}  // namespace

OmpLoops ComputeOmpLoops(const model::Trace& trace) {
  return Builder(trace).Run();
}

std::vector<size_t> SelectOmpLoops(const OmpLoops& loops, int64_t from_ns, int64_t to_ns,
                                   size_t limit, bool* truncated) {
  std::vector<size_t> out;
  *truncated = false;
  // Loops are sorted by begin; ends are not monotonic (nested regions), so the
  // loops that begin in time are scanned.
  for (size_t i = 0; i < loops.loops.size() && loops.loops[i].begin_ns <= to_ns; ++i) {
    if (loops.loops[i].end_ns < from_ns) continue;
    if (out.size() == limit) {
      *truncated = true;
      break;
    }
    out.push_back(i);
  }
  return out;
}

}  // namespace plx::analysis
