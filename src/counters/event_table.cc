// Event names as perf(1) spells them (perf list), from the perf_event_open(2)
// constants: PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, PERF_TYPE_HW_CACHE
// (id | op << 8 | result << 16) and PERF_TYPE_RAW.
#include "counters/event_table.h"

#include <linux/perf_event.h>

#include <cstdlib>

#include "base/strings.h"

namespace plx::counters {
namespace {

struct Named {
  const char* name;
  uint32_t type;
  uint64_t config;
};

constexpr Named kEvents[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
};

// Generic cache events: "<cache>-<op>[e]s" and "<cache>-<op>-misses".
struct CacheName {
  const char* name;
  uint64_t id;
};
constexpr CacheName kCaches[] = {
    {"L1-dcache", PERF_COUNT_HW_CACHE_L1D}, {"L1-icache", PERF_COUNT_HW_CACHE_L1I},
    {"LLC", PERF_COUNT_HW_CACHE_LL},        {"dTLB", PERF_COUNT_HW_CACHE_DTLB},
    {"iTLB", PERF_COUNT_HW_CACHE_ITLB},     {"branch", PERF_COUNT_HW_CACHE_BPU},
    {"node", PERF_COUNT_HW_CACHE_NODE},
};
constexpr CacheName kCacheOps[] = {{"loads", PERF_COUNT_HW_CACHE_OP_READ},
                                   {"stores", PERF_COUNT_HW_CACHE_OP_WRITE},
                                   {"prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH}};

bool ParseCacheEvent(std::string_view name, uint64_t* config) {
  for (const CacheName& c : kCaches) {
    const std::string_view cache = c.name;
    if (name.size() <= cache.size() + 1 || name.substr(0, cache.size()) != cache ||
        name[cache.size()] != '-')
      continue;
    const std::string_view rest = name.substr(cache.size() + 1);
    for (const CacheName& op : kCacheOps) {
      const std::string_view ops = op.name;                        // "loads"
      const std::string_view op1 = ops.substr(0, ops.size() - 1);  // "load"
      uint64_t result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
      if (rest == ops) {
      } else if (rest.size() == op1.size() + 7 && rest.substr(0, op1.size()) == op1 &&
                 rest.substr(op1.size()) == "-misses") {
        result = PERF_COUNT_HW_CACHE_RESULT_MISS;
      } else {
        continue;
      }
      *config = c.id | (op.id << 8) | (result << 16);
      return true;
    }
  }
  return false;
}

// "r" and 1-16 hex digits: a raw PMU event code.
bool ParseRaw(std::string_view name, uint64_t* config) {
  if (name.size() < 2 || name.size() > 17 || name[0] != 'r') return false;
  uint64_t v = 0;
  for (char ch : name.substr(1)) {
    int d;
    if (ch >= '0' && ch <= '9')
      d = ch - '0';
    else if (ch >= 'a' && ch <= 'f')
      d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F')
      d = ch - 'A' + 10;
    else
      return false;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  *config = v;
  return true;
}

bool Lookup(std::string_view name, EventSpec* out) {
  for (const Named& e : kEvents) {
    if (name == e.name) {
      const bool time = e.type == PERF_TYPE_SOFTWARE && (e.config == PERF_COUNT_SW_CPU_CLOCK ||
                                                         e.config == PERF_COUNT_SW_TASK_CLOCK);
      *out = EventSpec{std::string(name), e.type, e.config, time};
      return true;
    }
  }
  uint64_t config = 0;
  if (ParseCacheEvent(name, &config)) {
    *out = EventSpec{std::string(name), PERF_TYPE_HW_CACHE, config, false};
    return true;
  }
  if (ParseRaw(name, &config)) {
    *out = EventSpec{std::string(name), PERF_TYPE_RAW, config, false};
    return true;
  }
  return false;
}

}  // namespace

std::vector<EventSpec> ParseEventList(std::string_view list, std::vector<std::string>* errors) {
  std::vector<EventSpec> out;
  auto add = [&](std::string_view name) {
    EventSpec spec;
    if (!Lookup(name, &spec)) {
      errors->push_back(StrFormat("PLX_COUNTERS: unknown counter '%.*s' (known: %s)",
                                  static_cast<int>(name.size()), name.data(),
                                  KnownEventNames().c_str()));
      return;
    }
    for (const EventSpec& e : out)
      if (e.type == spec.type && e.config == spec.config) return;
    out.push_back(std::move(spec));
  };
  std::string_view rest = list;
  while (!rest.empty()) {
    const std::string_view name = TrimBlanks(NextToken(&rest, ','));
    if (name.empty()) continue;
    if (name == "default") {
      for (const char* n : {"cycles", "instructions", "cache-misses"})
        add(n);
    } else {
      add(name);
    }
  }
  return out;
}

EventSpec TaskClock() {
  return EventSpec{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true};
}

std::string KnownEventNames() {
  std::string names = "default";
  for (const Named& e : kEvents)
    names += std::string(", ") + e.name;
  names +=
      ", <cache>-loads/-load-misses/-stores/-store-misses/-prefetches (cache: L1-dcache, "
      "L1-icache, LLC, dTLB, iTLB, branch, node), r<hex> (raw)";
  return names;
}

}  // namespace plx::counters
