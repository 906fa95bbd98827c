// Parsing of the PLX_* environment variables.
#include "capture/config.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "base/strings.h"

namespace plx::capture {

namespace {

bool ParseBool(std::string_view v, bool* out) {
  if (v == "1" || v == "on" || v == "yes" || v == "true") return *out = true, true;
  if (v == "0" || v == "off" || v == "no" || v == "false") return *out = false, true;
  return false;
}

bool ParseSize(std::string_view v, size_t* out) {
  if (v.empty()) return false;
  char* end = nullptr;
  std::string s(v);
  errno = 0;
  unsigned long long n = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || end == s.c_str()) return false;
  std::string_view unit(end);
  unsigned long long mult = 1;
  if (unit == "" || unit == "B")
    mult = 1;
  else if (unit == "K" || unit == "k" || unit == "KiB")
    mult = 1ull << 10;
  else if (unit == "M" || unit == "MiB")
    mult = 1ull << 20;
  else if (unit == "G" || unit == "GiB")
    mult = 1ull << 30;
  else
    return false;
  *out = static_cast<size_t>(n * mult);
  return true;
}

bool ParseInt(std::string_view v, int lo, int hi, int* out) {
  std::string s(v);
  char* end = nullptr;
  errno = 0;
  long n = std::strtol(s.c_str(), &end, 10);
  if (errno != 0 || end == s.c_str() || *end != 0 || n < lo || n > hi) return false;
  *out = static_cast<int>(n);
  return true;
}

const char* Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

}  // namespace

Config ReadConfig() {
  Config c;
  auto bad = [&c](const char* name, const char* value, const char* expected) {
    c.warnings.push_back(StrFormat("%s=%s: expected %s; using the default", name, value, expected));
  };
  if (const char* v = Env("PLX_TRACE"); v && !ParseBool(v, &c.enabled))
    bad("PLX_TRACE", v, "1 or 0");
  if (const char* v = Env("PLX_OUTPUT")) c.output = v;
  if (const char* v = Env("PLX_LEVEL")) c.level = v;
  if (const char* v = Env("PLX_BUFFER")) {
    size_t n = 0;
    if (!ParseSize(v, &n) || n < (64u << 10) || n > (1ull << 32))
      bad("PLX_BUFFER", v, "a size from 64K to 4G, like 4M");
    else
      c.buffer_bytes = n;
  }
  c.clock = HasInvariantTsc() ? ClockKind::kTsc : ClockKind::kMonotonic;
  if (const char* v = Env("PLX_CLOCK")) {
    if (std::strcmp(v, "monotonic") == 0)
      c.clock = ClockKind::kMonotonic;
    else if (std::strcmp(v, "tsc") == 0 && PLX_HAVE_TSC)
      c.clock = ClockKind::kTsc;
    else
      bad("PLX_CLOCK", v, "tsc or monotonic");
  }
  if (const char* v = Env("PLX_LIVE")) {
    if (ParseLiveEndpoint(v, &c.live_host, &c.live_port))
      c.flush_ms = 20;  // the viewer lags the program by about this much
    else
      c.warnings.push_back(
          StrFormat("PLX_LIVE=%s: expected host:port with a port 1-65535, like 127.0.0.1:7000; no "
                    "live stream",
                    v));
  }
  if (const char* v = Env("PLX_LIVE_TOKEN")) c.live_token = v;
  if (const char* v = Env("PLX_LIVE_BUFFER")) {
    size_t n = 0;
    if (!ParseSize(v, &n) || n < (64u << 10) || n > (1ull << 32))
      bad("PLX_LIVE_BUFFER", v, "a size from 64K to 4G, like 64M");
    else
      c.live_buffer_bytes = n;
  }
  if (!c.writes_file() && !c.live())
    c.warnings.push_back("PLX_OUTPUT=- without PLX_LIVE: the trace is not kept anywhere");
  if (const char* v = Env("PLX_FLUSH_MS"); v && !ParseInt(v, 4, 60000, &c.flush_ms))
    bad("PLX_FLUSH_MS", v, "milliseconds from 4 to 60000");
  if (const char* v = Env("PLX_COMPRESS")) {
    if (std::strcmp(v, "none") == 0)
      c.zstd_level = 0;
    else if (std::strcmp(v, "zstd") == 0)
      c.zstd_level = 1;
    else if (!ParseInt(v, 0, 19, &c.zstd_level))
      bad("PLX_COMPRESS", v, "zstd, none or a level 0-19");
  }
  if (const char* v = Env("PLX_SIGNALS"); v && !ParseBool(v, &c.signals))
    bad("PLX_SIGNALS", v, "1 or 0");
  if (const char* v = Env("PLX_FULL")) {
    if (std::strcmp(v, "drop") == 0)
      c.drop_when_full = true;
    else if (std::strcmp(v, "flush") != 0)
      bad("PLX_FULL", v, "flush or drop");
  }
  if (const char* v = Env("PLX_FUNCTIONS")) c.functions = v;
  if (const char* v = Env("PLX_FUNCTIONS_EXCLUDE")) c.functions_exclude = v;
  if (const char* v = Env("PLX_COUNTERS")) c.counters = v;
  if (const char* v = Env("PLX_SAMPLE_MS"); v && !ParseInt(v, 0, 60000, &c.sample_ms))
    bad("PLX_SAMPLE_MS", v, "milliseconds from 0 (none) to 60000");
  if (const char* v = Env("PLX_COUNTER_MODE")) {
    if (std::strcmp(v, "period") == 0)
      c.count_per_period = true;
    else if (std::strcmp(v, "changes") != 0)
      bad("PLX_COUNTER_MODE", v, "changes or period");
  }
  if (const char* v = Env("PLX_SCHED"); v && !ParseBool(v, &c.sched)) bad("PLX_SCHED", v, "1 or 0");
  if (const char* v = Env("PLX_MERGE")) {
    bool merge = true;
    if (ParseBool(v, &merge))
      c.merge = merge ? 1 : 0;
    else
      bad("PLX_MERGE", v, "1 or 0");
  }
  if (const char* v = Env("PLX_VERBOSE"); v && !ParseBool(v, &c.verbose))
    bad("PLX_VERBOSE", v, "1 or 0");
  if (const char* v = Env("PLX_PARTS"); v && !ParseInt(v, 1, INT32_MAX, &c.parts_parent))
    bad("PLX_PARTS", v, "a process id");
  if (const char* v = Env("PLX_THREADS"); v && !ParseBool(v, &c.threads))
    bad("PLX_THREADS", v, "1 or 0");
  if (const char* v = Env("PLX_OPENMP"); v && !ParseBool(v, &c.openmp))
    bad("PLX_OPENMP", v, "1 or 0");
  return c;
}

bool ParseLiveEndpoint(std::string_view v, std::string* host, uint16_t* port) {
  const size_t colon = v.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  std::string_view h = v.substr(0, colon);
  if (h.front() == '[') {
    if (h.size() < 3 || h.back() != ']') return false;
    h = h.substr(1, h.size() - 2);
  } else if (h.find_first_of(":[]") != std::string_view::npos) {
    return false;  // an IPv6 address needs brackets
  }
  for (char ch : h)
    if (static_cast<unsigned char>(ch) <= ' ') return false;
  const std::string_view digits = v.substr(colon + 1);
  if (digits.empty() || digits.size() > 5) return false;
  uint32_t n = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return false;
    n = n * 10 + static_cast<uint32_t>(ch - '0');
  }
  if (n == 0 || n > 65535) return false;
  host->assign(h);
  *port = static_cast<uint16_t>(n);
  return true;
}

std::string ExpandOutput(std::string_view pattern, std::string_view exe, int pid,
                         std::string_view host, int64_t realtime_s) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    switch (pattern[++i]) {
      case 'e':
        out += exe;
        break;
      case 'p':
        out += std::to_string(pid);
        break;
      case 'h':
        out += host;
        break;
      case 't': {
        time_t t = static_cast<time_t>(realtime_s);
        struct tm tm;
        localtime_r(&t, &tm);
        char buf[32];
        std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
        out += buf;
        break;
      }
      case '%':
        out += '%';
        break;
      default:
        out += '%';
        out += pattern[i];
        break;
    }
  }
  return out;
}

bool LevelSelects(std::string_view level, std::string_view category) {
  bool selected = false;
  std::string_view rest = level;
  while (!rest.empty()) {
    std::string_view token = NextToken(&rest, ',');
    const bool removes =
        token == "none" || (!token.empty() && token[0] == '-' && token.substr(1) == category);
    if (token == "all" || token == category) {
      selected = true;
    } else if (removes) {
      selected = false;
    }
  }
  return selected;
}

}  // namespace plx::capture
