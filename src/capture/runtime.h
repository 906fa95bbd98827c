// The capture runtime of one process: settings, definitions, the trace file,
// the streams of all threads, the background writer, and what happens at
// exit, at a crash and after fork. One instance, never destroyed.
#pragma once

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "capture/config.h"
#include "capture/drain.h"
#include "capture/live_sender.h"
#include "capture/registry.h"
#include "capture/thread_stream.h"
#include "capture/trace_output.h"

namespace plx::capture {

inline constexpr uint32_t kMaxStreams = 1u << 16;

// Process attributes a trace whose writing failed ends with (docs/format.md).
inline constexpr const char* kDroppedRecordsKey = "parallax.dropped_records";
inline constexpr const char* kDroppedChunksKey = "parallax.dropped_chunks";
inline constexpr const char* kWriteErrorKey = "parallax.write_error";
// Every process's parent pid: with pid and command line, the process tree.
inline constexpr const char* kParentPidKey = "parallax.parent_pid";

class Runtime {
 public:
  static Runtime& Get();

  /// Starts the runtime on first call (reads PLX_*, opens the file). True while recording.
  bool EnsureInit() {
    const int s = state_.load(std::memory_order_acquire);
    return s == kRunning || (s == kUninit && Init());
  }
  bool running() const { return state_.load(std::memory_order_acquire) == kRunning; }

  void Finalize();
  /// Before the runtime starts: write the trace to `path` instead of the
  /// expanded PLX_OUTPUT (the MPI layer's per-rank part files). Returns false
  /// when the runtime has already started.
  bool SetOutputPath(std::string path);
  /// Before the runtime starts: reads the settings and picks the tick source,
  /// so ReadTicks() gives ticks of the trace's clock. Returns config().enabled.
  bool ChooseClock();
  void Flush();
  void Control(bool on);
  /// fork(): the locks a child needs free are taken before and let go after,
  /// in both processes; a child of a running runtime is reset so that its
  /// next record starts its own trace (OutputPath), with every definition.
  static void BeforeFork();
  static void AfterForkInParent();
  static void AfterForkInChild();

  /// After defining something in a new category: make g_mask include it if selected.
  void RefreshMask();

  ThreadStream* Attach();
  Slot* ReserveSlow(ThreadStream* s, uint32_t n);
  /// The calling thread is exiting.
  void Detach(ThreadStream* s);
  /// From a signal handler: write everything recorded so far (and try to end
  /// the live stream with END "crashed"). Async-signal-safe.
  void CrashFlush(int signal);

  Registry& registry() { return registry_; }
  const Config& config() const { return config_; }
  const std::string& output_path() const { return output_.path(); }

 private:
  enum State { kUninit, kRunning, kDisabled, kFinished };

  Runtime() = default;
  bool Init();
  void StartClock();
  void WriterLoop();
  /// Appends a clock_sync definition when one is due (or always when forced).
  void SyncClock(bool force, bool crashing);
  /// Drains every live stream; only_due: just those old or full enough.
  void DrainAll(DrainContext& ctx, bool only_due);
  bool Due(const ThreadStream* s) const;
  void SelfFlush(ThreadStream* s);
  /// Writes a one-slot record while the caller holds the ring (false: no room).
  static bool PutDirect(ThreadStream* s, const Slot& slot);
  DrainContext* TakeContext();
  void GiveContext(DrainContext* ctx);
  DrainTarget Target(bool crashing) { return {0, &registry_, &output_, crashing}; }
  /// In a forked child: forget the parent's threads, file and writer.
  void ResetInChild();
  /// The calling thread has no stream (yet) and may attach one.
  void ForgetCallingThread();
  /// The trace file of this process: the expanded PLX_OUTPUT, or its own
  /// part in <that>.parts/ when other processes write the same name.
  std::string OutputPath(const char* exe_name, const char* host, int64_t start_s) const;
  /// The output's failure hook: stops recording.
  static void AfterWriteFailed();
  /// After a failed write, at finalize: the dropped counts and the error, as
  /// attributes in the room the output kept for them.
  void WriteLossReport();

  std::atomic<int> state_{kUninit};
  std::mutex init_mutex_;
  Config config_;
  Registry registry_;
  TraceOutput output_;
  // PLX_LIVE. By pointer: a forked child abandons its parent's sender.
  std::unique_ptr<LiveSender> live_ = std::make_unique<LiveSender>();
  std::atomic<bool> recording_on_{true};  // plx_control
  std::string output_override_;           // SetOutputPath
  bool config_read_ = false;
  bool forked_child_ = false;    // this process is a fork of a traced one
  bool inherited_defs_ = false;  // ... whose runtime was running: the registry is the parent's
  bool fork_locked_ = false;     // BeforeFork took the locks

  std::unique_ptr<std::atomic<ThreadStream*>[]> streams_;
  std::atomic<uint32_t> stream_count_{0};
  pthread_key_t thread_key_{};
  uint32_t flush_state_ = 0;

  std::unique_ptr<DrainContext> writer_ctx_;
  std::unique_ptr<DrainContext> crash_ctx_;
  OwnerLock pool_lock_;
  std::vector<DrainContext*> pool_;      // free for a drain
  std::vector<DrainContext*> contexts_;  // all of them (a forked child gets them all back)

  // The background writer and what wakes it. Held by pointer: a forked child
  // abandons the parent's (the thread is not there, the mutex may be held).
  struct WriterSync {
    std::mutex mutex;
    std::condition_variable wake;
    bool stop = false;
  };
  std::unique_ptr<std::thread> writer_;
  std::unique_ptr<WriterSync> sync_ = std::make_unique<WriterSync>();
  std::vector<const void*> left_behind_;  // a forked child's parent's writer and sender
  uint64_t period_ns_ = 25'000'000;

  uint64_t last_sync_ns_ = 0;  // guarded by the registry lock
  double ticks_per_ns_ = 1.0;
  uint32_t sample_bits_ = 0;  // g_mask bits from StartSampling
};

}  // namespace plx::capture
