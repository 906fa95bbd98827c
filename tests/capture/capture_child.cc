// A traced program for the capture tests (linked with libparallax.so, like a
// user's program). It records the stress pattern on several threads, then ends
// as the mode says:
//
//   capture_child stress THREADS ITERATIONS          record, exit normally
//   capture_child segv|abort|bus THREADS ITERATIONS  record, then crash that way
//   capture_child term THREADS ITERATIONS            record, print "ready", wait for SIGTERM
//   capture_child loop THREADS                       record until killed (1 iteration / 100 us)
//   capture_child control                            records with plx_control off/on
//   capture_child lamport                            prints Lamport clocks
//   capture_child fork THREADS ITERATIONS            records the stress pattern; half way
//                                                    forks a child that records it too
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "capture/stress_pattern.h"
#include "parallax/parallax.hpp"

namespace {

using plx::testing::Canon;
using plx::testing::kRecordsPerIteration;
using plx::testing::PatternRecord;

struct Handles {
  plx_state_t inner = plx_state_define("stress.inner", 0x336699, nullptr);
  plx_event_t value = plx_event_define("stress.value", nullptr);
  plx_event_t ratio = plx_event_define("stress.ratio", nullptr);
  plx_event_t note = plx_event_define("stress.note", nullptr);
  plx_counter_t count = plx_counter_define("stress.count", "iterations", PLX_INT);
};

// Records records [first, first + n) of thread t's pattern through the API.
void Record(const Handles& h, uint32_t t, uint32_t threads, uint64_t first, uint64_t n) {
  static plx_srcloc outer = PLX_SRCLOC_INIT("stress.outer", PLX_COLOR_AUTO, nullptr);
  for (uint64_t i = first; i < first + n; ++i) {
    const Canon r = PatternRecord(t, threads, i);
    switch (i % kRecordsPerIteration) {
      case 0:
        plx_scope_enter(&outer);
        break;
      case 1:
        plx_event_int(h.value, r.a);
        break;
      case 2:
        plx_state_enter(h.inner);
        break;
      case 3:
        plx_event_double(h.ratio, r.x);
        break;
      case 4:
        plx_counter_int(h.count, r.a);
        break;
      case 5:
        plx_state_leave(h.inner);
        break;
      case 6:
        plx_send(PLX_COMM_THREADS, static_cast<int32_t>(r.a), static_cast<int32_t>(r.b),
                 static_cast<uint64_t>(r.c), static_cast<uint64_t>(r.d));
        break;
      case 7:
        plx_recv(PLX_COMM_THREADS, static_cast<int32_t>(r.a), static_cast<int32_t>(r.b),
                 static_cast<uint64_t>(r.c), static_cast<uint64_t>(r.d));
        break;
      case 8:
        if (r.kind == 5) {
          plx_event_string(h.note, r.text.c_str());
        } else {
          plx_event_int(h.value, r.a);
        }
        break;
      default:
        plx_scope_leave(&outer);
        break;
    }
  }
}

void NameThread(uint32_t t) {
  const std::string name = "stress " + std::to_string(t);
  plx_thread_name(name.c_str());
}

// THREADS threads record ITERATIONS iterations each. With `hold` they then stay
// alive (blocked) so a crash finds live threads with recorded data; their shared
// state is then deliberately never freed.
void RunThreads(uint32_t threads, uint64_t iterations, bool hold) {
  struct Shared {
    explicit Shared(uint32_t n) : done(static_cast<std::ptrdiff_t>(n) + 1) {}
    Handles h;
    std::barrier<> done;
  };
  auto* shared = new Shared(threads);
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t) {
    pool.emplace_back([shared, t, threads, iterations, hold] {
      NameThread(t);
      Record(shared->h, t, threads, 0, iterations * kRecordsPerIteration);
      shared->done.arrive_and_wait();
      while (hold)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
  }
  shared->done.arrive_and_wait();  // every record is made
  if (hold) {
    for (std::thread& th : pool)
      th.detach();
    return;  // the caller crashes the process
  }
  for (std::thread& th : pool)
    th.join();
  delete shared;
}

[[noreturn]] void BusError() {
  char path[] = "/tmp/plx-bus-XXXXXX";
  int fd = ::mkstemp(path);
  if (fd < 0 || ::ftruncate(fd, 8192) != 0) std::abort();
  auto* p = static_cast<volatile char*>(::mmap(nullptr, 8192, PROT_READ, MAP_SHARED, fd, 0));
  ::unlink(path);
  if (::ftruncate(fd, 0) != 0) std::abort();
  char c = p[4096];  // the page is gone: SIGBUS from the kernel
  std::printf("unreachable %d\n", c);
  std::abort();
}

int Loop(uint32_t threads) {
  Handles h;
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      NameThread(t);
      for (uint64_t k = 0;; ++k) {
        Record(h, t, threads, k * kRecordsPerIteration, kRecordsPerIteration);
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
  }
  std::printf("ready\n");
  std::fflush(stdout);
  for (std::thread& th : pool)
    th.join();
  return 0;
}

int Control() {
  plx_state_t a = plx_state_define("before", PLX_COLOR_AUTO, nullptr);
  plx_state_t b = plx_state_define("hidden", PLX_COLOR_AUTO, nullptr);
  plx_state_t c = plx_state_define("after", PLX_COLOR_AUTO, nullptr);
  plx_state_enter(a);
  plx_state_leave(a);
  plx_control(0);
  std::printf("enabled after off: %d\n", plx_enabled());
  for (int i = 0; i < 100; ++i) {
    plx_state_enter(b);
    plx_state_leave(b);
    plx_annotate("hidden %d", i);
  }
  plx_control(1);
  std::printf("enabled after on: %d\n", plx_enabled());
  plx_state_enter(c);
  plx_state_leave(c);
  return 0;
}

int Lamport() {
  uint64_t s1 = plx_msg_send(PLX_COMM_WORLD, 1, 0, 8);
  uint64_t s2 = plx_msg_send(PLX_COMM_WORLD, 1, 0, 8);
  plx_msg_recv(PLX_COMM_WORLD, 1, 0, 8, 10);  // max(2, 10) + 1 = 11
  uint64_t after_recv = plx_lamport_clock();
  plx_msg_recv(PLX_COMM_WORLD, 1, 0, 8, 3);  // max(11, 3) + 1 = 12
  std::printf("%llu %llu %llu %llu\n", static_cast<unsigned long long>(s1),
              static_cast<unsigned long long>(s2), static_cast<unsigned long long>(after_recv),
              static_cast<unsigned long long>(plx_lamport_clock()));
  return 0;
}

// Set in a forked child. Its parent's threads do not exist there, so what
// they had allocated and held only on their stacks is unreachable in the
// child's copy of the heap: a leak checker would report it at the child's exit.
bool forked_child = false;

}  // namespace

// LeakSanitizer asks this before its check at exit; other builds never call it.
extern "C" int __lsan_is_turned_off() {
  return forked_child ? 1 : 0;
}

// The parent's threads are half way through the pattern when its main thread
// forks (they are recording, not starting: a sanitizer's allocator must not
// be taken by another thread at that moment); the child, where only the
// forking thread lives on, records the whole pattern on threads of its own.
int Fork(uint32_t threads, uint64_t iterations) {
  RunThreads(1, 1, false);  // the runtime runs before the fork
  const uint64_t records = iterations * kRecordsPerIteration;
  const uint64_t half = records / 2;
  Handles h;
  std::barrier<> halfway(static_cast<std::ptrdiff_t>(threads) + 1);
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t) {
    pool.emplace_back([&h, &halfway, t, threads, records, half] {
      NameThread(t);
      Record(h, t, threads, 0, half);
      halfway.arrive_and_wait();
      Record(h, t, threads, half, records - half);
    });
  }
  halfway.arrive_and_wait();
  const pid_t child = ::fork();
  if (child == 0) {
    forked_child = true;
    RunThreads(threads, iterations, false);
    std::exit(0);  // finishes the child's trace; `pool` is the parent's
  }
  for (std::thread& th : pool)
    th.join();
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child) return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: capture_child MODE [THREADS] [ITERATIONS]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const uint32_t threads = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 1;
  const uint64_t iterations = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
  if (mode == "loop") return Loop(threads);
  if (mode == "control") return Control();
  if (mode == "lamport") return Lamport();
  if (mode == "fork") return Fork(threads, iterations);
  RunThreads(threads, iterations, mode != "stress");
  if (mode == "stress") return 0;
  if (mode == "segv") {
    volatile int* null = nullptr;
    *null = 1;
  } else if (mode == "abort") {
    std::abort();
  } else if (mode == "bus") {
    BusError();
  } else if (mode == "term") {
    std::printf("ready\n");
    std::fflush(stdout);
    for (;;)
      ::pause();
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
