// Runtime: start-up, threads, the full-ring slow path, finalize and crash
// flush (the background writer: writer.cc; fork: fork.cc).
#include "capture/runtime.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/strings.h"
#include "capture/crash_handler.h"
#include "capture/fast_path.h"
#include "capture/sampling.h"

namespace plx::capture {

std::atomic<uint32_t> g_mask{0};
void (*g_state_sampler)() = nullptr;
thread_local ThreadStream* tls_stream PLX_TLS = nullptr;
thread_local uint64_t tls_attach_tick PLX_TLS = 0;
thread_local bool tls_runtime_busy PLX_TLS = false;

namespace {

// Marks the calling thread as starting or stopping the runtime (tls_runtime_busy).
struct BusyScope {
  BusyScope() { tls_runtime_busy = true; }
  ~BusyScope() { tls_runtime_busy = false; }
  BusyScope(const BusyScope&) = delete;
  BusyScope& operator=(const BusyScope&) = delete;
};

thread_local bool tls_dead PLX_TLS = false;  // this thread has detached for good
thread_local void* tls_altstack PLX_TLS = nullptr;
constexpr size_t kAltStackBytes = 128u << 10;
constexpr uint64_t kSyncEveryNs = 100'000'000;  // clock_sync pairs at most every 100 ms

std::string ReadSmallFile(const char* path) {
  std::string out;
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < (1u << 20))
    out.append(buf, n);
  std::fclose(f);
  return out;
}

void ThreadExitHook(void* arg) {
  Runtime::Get().Detach(static_cast<ThreadStream*>(arg));
}

// A signal stack per thread, so a crash from stack overflow can still flush.
void EnsureAltStack() {
  stack_t old;
  if (::sigaltstack(nullptr, &old) != 0 || !(old.ss_flags & SS_DISABLE)) return;
  void* mem = std::malloc(kAltStackBytes);
  if (mem == nullptr) return;
  stack_t ss{};
  ss.ss_sp = mem;
  ss.ss_size = kAltStackBytes;
  if (::sigaltstack(&ss, nullptr) == 0) {
    tls_altstack = mem;
  } else {
    std::free(mem);
  }
}

void ReleaseAltStack() {
  if (tls_altstack == nullptr) return;
  stack_t ss{};
  ss.ss_flags = SS_DISABLE;
  ::sigaltstack(&ss, nullptr);
  std::free(tls_altstack);
  tls_altstack = nullptr;
}

}  // namespace

Runtime& Runtime::Get() {
  static Runtime* instance = new Runtime();  // never destroyed: threads may outlive exit
  return *instance;
}

bool Runtime::Init() {
  std::lock_guard<std::mutex> guard(init_mutex_);
  const BusyScope busy;
  const int s = state_.load();
  if (s != kUninit) return s == kRunning;
  if (!config_read_) config_ = ReadConfig();
  config_read_ = true;
  for (const std::string& w : config_.warnings)
    std::fprintf(stderr, "parallax: %s\n", w.c_str());
  if (!config_.enabled) {
    state_.store(kDisabled, std::memory_order_release);
    return false;
  }
  g_clock_kind = config_.clock;

  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  char exe[4096] = {0};
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n < 0) n = 0;
  exe[n] = 0;
  std::string args = ReadSmallFile("/proc/self/cmdline");
  while (!args.empty() && args.back() == '\0')
    args.pop_back();
  for (char& c : args)
    if (c == '\0') c = ' ';
  const char* slash = std::strrchr(exe, '/');
  const char* exe_name = slash ? slash + 1 : (exe[0] ? exe : "trace");
  struct timespec now;
  ::clock_gettime(CLOCK_REALTIME, &now);

  const std::string path =
      !output_override_.empty() ? output_override_ : OutputPath(exe_name, host, now.tv_sec);
  if (!config_.writes_file() && output_override_.empty()) {
    output_.OpenWithoutFile();
  } else if (Status opened = output_.Open(path); !opened.ok()) {
    std::fprintf(stderr, "parallax: cannot write the trace: %s; tracing is off\n",
                 opened.message().c_str());
    state_.store(kDisabled, std::memory_order_release);
    return false;
  }
  output_.SetFailureHook(&Runtime::AfterWriteFailed);
  if (config_.live() && live_->Start(config_, ::getpid(), host, exe)) output_.SetLive(live_.get());
  streams_.reset(new std::atomic<ThreadStream*>[kMaxStreams]());
  if (inherited_defs_) {
    registry_.ReplayAfterFork();  // the handles the program holds keep their meaning
  } else {
    registry_.Init(config_.level);
  }
  registry_.Process(static_cast<uint64_t>(::getpid()), host, exe, args);
  registry_.Attribute(kParentPidKey, std::to_string(::getppid()));
  StartClock();
  flush_state_ = registry_.State("parallax:flush", PLX_COLOR_AUTO, "internal");
  if (!inherited_defs_) {
    registry_.Attribute("parallax.version", PLX_VERSION);
    registry_.Attribute("PLX_LEVEL", config_.level);
    registry_.Attribute("PLX_BUFFER", std::to_string(config_.buffer_bytes));
    registry_.Attribute("PLX_CLOCK", config_.clock == ClockKind::kTsc ? "tsc" : "monotonic");
  }

  writer_ctx_ = std::make_unique<DrainContext>(config_.zstd_level);
  crash_ctx_ = std::make_unique<DrainContext>(config_.zstd_level);
  period_ns_ = static_cast<uint64_t>(config_.flush_ms) * 1'000'000 / 4;
  ::pthread_key_create(&thread_key_, ThreadExitHook);

  sample_bits_ = StartSampling(config_, registry_);
  state_.store(kRunning, std::memory_order_release);
  g_mask.store(registry_.selected_mask() | sample_bits_, std::memory_order_relaxed);
  writer_ = std::make_unique<std::thread>([this] { WriterLoop(); });
  if (config_.signals) InstallCrashHandlers();  // a forked child has them already
  if (config_.verbose) {
    const char* live = config_.live() ? live_->endpoint().c_str() : "";
    if (output_.path() == "-")
      std::fprintf(stderr, "parallax: tracing to the live stream at %s only (PLX_OUTPUT=-)\n",
                   live);
    else
      std::fprintf(stderr, "parallax: tracing to %s%s%s\n", output_.path().c_str(),
                   *live ? ", streaming to " : "", live);
  }
  return true;
}

void Runtime::StartClock() {
  struct timespec rt;
  ::clock_gettime(CLOCK_REALTIME, &rt);
  const SyncPair first = TakeSyncPair();
  double tps = 1e9;
  SyncPair second = first;
  if (g_clock_kind == ClockKind::kTsc) {
    // About 1 ms of spinning gives a ticks/s estimate good to ~1e-4 for the
    // (rare) reader that sees fewer than two clock_sync pairs.
    while (MonotonicNs() - first.ns < 1'000'000) {
    }
    second = TakeSyncPair();
    tps = static_cast<double>(second.tick - first.tick) * 1e9 /
          static_cast<double>(second.ns - first.ns);
  }
  ticks_per_ns_ = tps / 1e9;
  const uint64_t realtime_ns =
      static_cast<uint64_t>(rt.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(rt.tv_nsec);
  registry_.Clock(g_clock_kind, tps, realtime_ns, first.ns);
  OwnerLockGuard guard(registry_.lock());
  registry_.Sync(first);
  if (second.tick != first.tick) registry_.Sync(second);
  last_sync_ns_ = second.ns;
}

void Runtime::SyncClock(bool force, bool crashing) {
  if (g_clock_kind == ClockKind::kMonotonic) return;  // ticks are ns already
  bool locked = true;
  if (crashing) {
    OwnerLock::CrashResult r = registry_.lock().LockForCrash(1000);
    if (r == OwnerLock::CrashResult::kTimedOut) return;
    locked = r == OwnerLock::CrashResult::kLocked;
  } else {
    registry_.lock().Lock();
  }
  const SyncPair pair = TakeSyncPair();
  if (force || pair.ns - last_sync_ns_ >= kSyncEveryNs) {
    registry_.Sync(pair);
    last_sync_ns_ = pair.ns;
  }
  if (locked) registry_.lock().Unlock();
}

void Runtime::AfterWriteFailed() {
  // Nothing recorded from now on could be written: record nothing, so the
  // program runs as fast as untraced.
  g_mask.store(0, std::memory_order_relaxed);
}

void Runtime::RefreshMask() {
  if (running() && recording_on_ && !output_.failed())
    g_mask.store(registry_.selected_mask() | sample_bits_, std::memory_order_relaxed);
}

void Runtime::Control(bool on) {
  if (!EnsureInit()) return;
  ThreadStream* s;
  if (!on) {
    if (Slot* slot = Reserve1(&s)) {
      *slot = Slot{ReadTicks(), MakeW0(kRawControl, 0), 0};
      Commit(s, 1);
    }
    recording_on_ = false;
    g_mask.store(0, std::memory_order_relaxed);
    return;
  }
  recording_on_ = true;
  if (output_.failed()) return;
  g_mask.store(registry_.selected_mask() | sample_bits_, std::memory_order_relaxed);
  if (Slot* slot = Reserve1(&s)) {
    *slot = Slot{ReadTicks(), MakeW0(kRawControl, 0), 1};
    Commit(s, 1);
  }
}

ThreadStream* Runtime::Attach() {
  if (tls_dead || !EnsureInit()) return nullptr;
  const uint32_t id = stream_count_.fetch_add(1);
  if (id >= kMaxStreams) return nullptr;
  uint64_t capacity = 4096;
  while (capacity * 2 * sizeof(Slot) <= config_.buffer_bytes)
    capacity *= 2;
  auto* s = new ThreadStream();
  s->ring = static_cast<Slot*>(std::aligned_alloc(64, capacity * sizeof(Slot)));
  if (s->ring == nullptr) {
    delete s;
    return nullptr;
  }
  std::memset(s->ring, 0, capacity * sizeof(Slot));  // pre-touch: no page faults later
  s->capacity = capacity;
  s->mask = capacity - 1;
  s->limit = capacity;
  s->id = id;
  s->tid = CurrentTid();
  char name[64] = {0};
  ::pthread_getname_np(::pthread_self(), name, sizeof name);
  registry_.Stream(id, s->tid, name);
  streams_[id].store(s, std::memory_order_release);
  tls_stream = s;
  ::pthread_setspecific(thread_key_, s);
  EnsureAltStack();
  s->ring[0] =
      Slot{tls_attach_tick != 0 ? tls_attach_tick : ReadTicks(), MakeW0(kRawThreadBegin, 0), 0};
  Commit(s, 1);
  SamplingThreadStarted();
  return s;
}

Slot* Runtime::ReserveSlow(ThreadStream* s, uint32_t n) {
  bool flushed = false;
  for (;;) {
    if (s->ring == nullptr || !running()) return nullptr;
    // Records were dropped: say so before anything newer.
    if (s->lost > 0 && s->head < s->limit) {
      PutDirect(s, Slot{ReadTicks(), MakeW0(kRawLost, 0), static_cast<uint32_t>(s->lost)});
      s->lost = 0;
      continue;
    }
    const uint64_t pos = s->head & s->mask;
    const uint32_t pad = pos + n > s->capacity ? static_cast<uint32_t>(s->capacity - pos) : 0;
    if (s->lost == 0 && s->head + pad + n <= s->limit) {
      if (pad > 0) {  // fill to the ring's end so the record stays contiguous
        s->ring[pos] = Slot{ReadTicks(), MakeW0(kRawPad, 0), pad};
        Commit(s, pad);
      }
      return s->ring + (s->head & s->mask);
    }
    const uint64_t limit = s->tail.load(std::memory_order_acquire) + s->capacity;
    if (limit > s->limit) {
      s->limit = limit;
      continue;
    }
    if (config_.drop_when_full || flushed) {
      ++s->lost;
      s->limit = s->head;  // the next record comes here first, to report the loss
      return nullptr;
    }
    SelfFlush(s);
    flushed = true;
  }
}

void Runtime::SelfFlush(ThreadStream* s) {
  const uint64_t t0 = ReadTicks();
  DrainContext* ctx = TakeContext();
  s->lock.Lock();
  DrainStream(s, *ctx, Target(false));
  s->lock.Unlock();
  GiveContext(ctx);
  s->limit = s->tail.load(std::memory_order_acquire) + s->capacity;
  // Show the time the program spent writing its trace, as a state.
  if (Selected(HandleCategory(flush_state_)) && s->head + 2 <= s->limit) {
    PutDirect(s, Slot{t0, MakeW0(kRawEnter, HandleId(flush_state_)), 0});
    PutDirect(s, Slot{ReadTicks(), MakeW0(kRawLeave, HandleId(flush_state_)), 0});
  }
}

void Runtime::Detach(ThreadStream* s) {
  if (s == nullptr) return;
  if (running()) SamplingThreadDone();  // its last samples, before its end
  s->lock.Lock();
  if (running()) {
    DrainContext* ctx = TakeContext();
    DrainStream(s, *ctx, Target(false));
    // The ring is empty now: report what could not be recorded, mark the end.
    s->limit = s->tail.load(std::memory_order_acquire) + s->capacity;
    if (s->lost > 0 &&
        PutDirect(s, Slot{ReadTicks(), MakeW0(kRawLost, 0), static_cast<uint32_t>(s->lost)}))
      s->lost = 0;
    PutDirect(s, Slot{ReadTicks(), MakeW0(kRawThreadEnd, 0), 0});
    DrainStream(s, *ctx, Target(false));
    GiveContext(ctx);
  }
  Slot* ring = s->ring;
  s->ring = nullptr;
  s->retired.store(true, std::memory_order_release);
  s->lock.Unlock();
  std::free(ring);
  tls_stream = nullptr;
  tls_dead = true;
  ReleaseAltStack();
}

bool Runtime::PutDirect(ThreadStream* s, const Slot& slot) {
  if (s->head >= s->limit) return false;
  s->ring[s->head & s->mask] = slot;
  Commit(s, 1);
  return true;
}

bool Runtime::SetOutputPath(std::string path) {
  std::lock_guard<std::mutex> guard(init_mutex_);
  if (state_.load() != kUninit) return false;
  output_override_ = std::move(path);
  return true;
}

bool Runtime::ChooseClock() {
  std::lock_guard<std::mutex> guard(init_mutex_);
  if (state_.load() == kUninit && !config_read_) {
    config_ = ReadConfig();
    config_read_ = true;
    g_clock_kind = config_.clock;
  }
  return config_.enabled;
}

void Runtime::Finalize() {
  std::lock_guard<std::mutex> guard(init_mutex_);
  const BusyScope busy;
  if (state_.load() != kRunning) return;
  SamplingThreadDone();  // this thread's last samples
  StopSampling();
  {
    std::lock_guard<std::mutex> wake(sync_->mutex);
    sync_->stop = true;
  }
  sync_->wake.notify_all();
  if (writer_ && writer_->joinable()) writer_->join();
  g_mask.store(0, std::memory_order_relaxed);  // the trace ends here
  SyncClock(true, false);
  DrainAll(*writer_ctx_, false);
  if (output_.failed()) WriteLossReport();
  state_.store(kFinished, std::memory_order_release);
  const Status finished = output_.Finish();  // a failure has been reported when it happened
  live_->Finish(output_.records_written());
  if (finished.ok() && config_.verbose) {
    if (output_.path() == "-")
      std::fprintf(stderr, "parallax: sealed %s chunks (no file)",
                   FormatCount(output_.chunks_written()).c_str());
    else
      std::fprintf(stderr, "parallax: wrote %s chunks, %s to %s",
                   FormatCount(output_.chunks_written()).c_str(),
                   FormatBytes(output_.bytes_written()).c_str(), output_.path().c_str());
    if (config_.live())
      std::fprintf(stderr, "; %s of them left out of the live stream",
                   FormatCount(live_->dropped_chunks()).c_str());
    std::fprintf(stderr, "\n");
  }
}

void Runtime::WriteLossReport() {
  output_.BeginEpilogue();
  registry_.Attribute(kDroppedRecordsKey, std::to_string(output_.dropped_records()));
  registry_.Attribute(kDroppedChunksKey, std::to_string(output_.dropped_chunks()));
  registry_.Attribute(kWriteErrorKey, output_.error().message());
  DrainDefinitions(*writer_ctx_, Target(false));
}

void Runtime::CrashFlush(int signal) {
  if (state_.load(std::memory_order_acquire) != kRunning) return;
  g_mask.store(0, std::memory_order_relaxed);
  SyncClock(true, true);
  const DrainTarget target = Target(true);
  const uint32_t count = std::min(stream_count_.load(std::memory_order_acquire), kMaxStreams);
  for (uint32_t i = 0; i < count; ++i) {
    ThreadStream* s = streams_[i].load(std::memory_order_acquire);
    if (s == nullptr || s->retired.load(std::memory_order_acquire)) continue;
    OwnerLock::CrashResult r = s->lock.LockForCrash(1000);
    if (r == OwnerLock::CrashResult::kTimedOut) continue;
    if (!s->retired.load(std::memory_order_relaxed)) DrainStream(s, *crash_ctx_, target);
    if (r == OwnerLock::CrashResult::kLocked) s->lock.Unlock();
  }
  DrainDefinitions(*crash_ctx_, target);
  live_->CrashEnd(signal, output_.records_written());
}

void Runtime::ForgetCallingThread() {
  ::pthread_setspecific(thread_key_, nullptr);
  tls_stream = nullptr;
  tls_dead = false;
}

ThreadStream* AttachThread() {
  return Runtime::Get().Attach();
}
Slot* ReserveSlow(ThreadStream* s, uint32_t n) {
  return Runtime::Get().ReserveSlow(s, n);
}

}  // namespace plx::capture

// The runtime starts on first use; this finishes the trace at normal exit.
__attribute__((destructor)) static void PlxFinalizeAtExit() {
  plx::capture::Runtime::Get().Finalize();
}
