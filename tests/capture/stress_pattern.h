// The record pattern the capture tests record (capture_child) and expect back
// (the tests): record i of thread t of T, as a kind plus canonical fields, so
// both sides derive it from one function.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace plx::testing {

inline constexpr uint64_t kRecordsPerIteration = 10;

/// A record in comparable form: definitions resolved to names.
struct Canon {
  Canon() = default;
  Canon(uint8_t k, std::string_view n) : kind(k), name(n) {}

  uint8_t kind = 0;       // .plx event kind id (spec/records.toml)
  std::string_view name;  // state / event type / counter name
  int64_t a = 0, b = 0, c = 0, d = 0;
  double x = 0;
  std::string text;
  bool has_callsite = false;

  bool operator==(const Canon& o) const {
    return kind == o.kind && name == o.name && a == o.a && b == o.b && c == o.c && d == o.d &&
           std::memcmp(&x, &o.x, sizeof x) == 0 && text == o.text && has_callsite == o.has_callsite;
  }
};

inline std::string Describe(const Canon& r) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "kind=%u name=%.*s a=%lld b=%lld c=%lld d=%lld x=%g cs=%d text=%s",
                r.kind, static_cast<int>(r.name.size()), r.name.data(), static_cast<long long>(r.a),
                static_cast<long long>(r.b), static_cast<long long>(r.c),
                static_cast<long long>(r.d), r.x, r.has_callsite, r.text.c_str());
  return buf;
}

/// FNV-1a over a record's fields: the running checksum the tests compare.
inline uint64_t Mix(uint64_t h, const Canon& r) {
  auto add = [&h](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i)
      h = (h ^ b[i]) * 1099511628211ull;
  };
  add(&r.kind, 1);
  add(r.name.data(), r.name.size());
  add(&r.a, 8);
  add(&r.b, 8);
  add(&r.c, 8);
  add(&r.d, 8);
  add(&r.x, 8);
  add(r.text.data(), r.text.size());
  add(&r.has_callsite, 1);
  return h;
}
inline constexpr uint64_t kChecksumSeed = 14695981039346656037ull;

/// Record i of thread t (of `threads`): ten records per iteration k = i / 10.
inline Canon PatternRecord(uint32_t t, uint32_t threads, uint64_t i) {
  const int64_t k = static_cast<int64_t>(i / kRecordsPerIteration);
  Canon r;
  switch (i % kRecordsPerIteration) {
    case 0:
      r = {1, "stress.outer"};
      r.has_callsite = true;
      break;  // enter (PLX_SCOPE)
    case 1:
      r = {3, "stress.value"};
      r.a = int64_t{t} * 1000000000 + k;
      break;  // event_int
    case 2:
      r = {1, "stress.inner"};
      break;  // enter (handle)
    case 3:
      r = {4, "stress.ratio"};
      r.x = static_cast<double>(k) * 0.25;
      break;  // event_double
    case 4:
      r = {8, "stress.count"};
      r.a = k;
      break;  // counter_int
    case 5:
      r = {2, "stress.inner"};
      break;  // leave
    case 6:   // send
      r = {6, "threads"};
      r.a = (t + 1) % threads;
      r.b = k;
      r.c = k % 4096;
      r.d = k + 1;
      break;
    case 7:  // recv
      r = {7, "threads"};
      r.a = (t + threads - 1) % threads;
      r.b = k;
      r.c = k % 4096;
      r.d = k + 1;
      break;
    case 8:
      if (k % 64 == 0) {  // event_string
        r = {5, "stress.note"};
        r.text = "iteration " + std::to_string(k) + " of thread " + std::to_string(t);
      } else {  // event_int
        r = {3, "stress.value"};
        r.a = -k;
      }
      break;
    default:
      r = {2, "stress.outer"};
      break;  // leave
  }
  return r;
}

}  // namespace plx::testing
