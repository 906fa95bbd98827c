// LiveTrace: what `parallax serve --listen` knows of the programs streaming to
// it — connections, the consistent-run builder that decides when a chunk is
// applied (every send and receive in it released in causal order), the
// history window of applied chunks, and the counters of LiveStatus. Its
// methods take one lock briefly; the costly per-record work (checking,
// decoding) is done before, on the connection's reader thread
// (live_session.h, live_reader.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/api/live_status.h"
#include "server/live/live_chunk.h"
#include "server/live/live_frame.h"
#include "server/live/live_window.h"
#include "time/consistent_run.h"

namespace plx::server::live {

using Clock = std::chrono::steady_clock;

struct LiveOptions {
  std::string token;  // HELLO must carry it
  double window_seconds = 60;
  uint64_t window_bytes = uint64_t{1} << 30;
  /// Sends, receives and chunk ends the consistent-run builder holds back at
  /// most, and chunk bytes waiting to be applied at most; past either the
  /// oldest is forced out.
  size_t max_buffered = 1 << 20;
  uint64_t max_pending_bytes = uint64_t{256} << 20;
  /// Waiting events are forced out when nothing was released for this long
  /// (a send that never comes: its chunk left out of the stream, its sender gone).
  std::chrono::milliseconds stall{1000};

  // The listener's bounds (live_listener.h, docs/security.md).
  /// Connections at once; more wait in the listen queue.
  size_t max_connections = 4096;
  /// Connections that have not sent a valid HELLO yet; a new one beyond
  /// this closes the oldest of them.
  size_t max_unauthenticated = 256;
  /// A connection without a valid HELLO this long after it was accepted is closed.
  std::chrono::milliseconds hello_timeout{10000};
  /// Threads reading the connections (0: one per core, 2 to 8).
  unsigned reader_threads = 0;
};

/// What the snapshot thread takes from the trace (under its lock, cheaply).
struct SnapshotWork {
  SnapshotInput input;
  std::vector<uint32_t> process_of;  // per connection
  Clock::time_point newest_arrival;  // of the newest applied chunk
  uint64_t applied_version = 0;
  WindowDropped dropped;  // what the window dropped before `input`
};

class LiveTrace {
 public:
  explicit LiveTrace(LiveOptions options);

  const LiveOptions& options() const { return options_; }

  // From the connections (any thread).
  /// A connection from `peer` (address:port) that proved the token; returns
  /// its number.
  uint32_t Connect(const std::string& peer);
  /// A peer closed before it proved the token (bad or late HELLO): counted
  /// as bad input, the newest line kept; at most one line a second is
  /// logged (a flood of such peers does not flood the terminal).
  void Refused(const std::string& peer, const std::string& what);
  void Hello(uint32_t connection, const live::Hello& hello);
  /// A checked chunk: `bytes` is its frame payload, `messages` the sends and
  /// receives of an EVENTS chunk, `rank` the connection's rank now.
  void AddChunk(uint32_t connection, const CheckedChunk& chunk, std::vector<uint8_t> bytes,
                const std::vector<MessageEvent>& messages, int64_t rank);
  void End(uint32_t connection, const live::End& end);
  /// Bad input on a connection (it is closed): counted, the newest line kept.
  void BadInput(uint32_t connection, const std::string& what);
  /// The connection is gone (after END or not).
  void Disconnect(uint32_t connection);
  /// One line as `BadInput` words it: "live: connection N (pid P, host): ...".
  std::string Describe(uint32_t connection) const;

  // From the snapshot thread.
  /// Forces out waiting events when the builder stalled (or everyone left).
  void FlushIfStalled(Clock::time_point now);
  /// Whether something was applied since `version` (a SnapshotWork's).
  bool Changed(uint64_t version) const;
  SnapshotWork TakeSnapshotWork() const;
  /// The counters (generation, clock and lag are the snapshot thread's).
  LiveStatus Status(Clock::time_point now, bool deadlock_found) const;
  /// True when records stopped arriving more than a second ago while
  /// connections are open (a deadlock candidate).
  bool Quiet(Clock::time_point now) const;
  /// Called with every bad-input line and connection change (may be empty);
  /// the lines hold peers' text with its control characters escaped, so they
  /// are safe to print on a terminal.
  void SetLog(std::function<void(const std::string&)> log);

  /// Called (under the lock; keep it short) with every chunk applied, in
  /// order: its connection, the connection's rank, its header, and the number
  /// of the batch it was applied in (a snapshot sees whole batches). For tests.
  using ApplyObserver = std::function<void(uint32_t connection, int64_t rank,
                                           const format::ChunkHeader&, uint64_t batch)>;
  void SetApplyObserver(ApplyObserver observer);

  /// Records dropped from the window per connection.
  std::map<uint32_t, uint64_t> DroppedByConnection() const;
  /// EVENTS chunk bytes in the window, and waiting to be applied.
  uint64_t KeptBytes() const;
  uint64_t PendingBytes() const;
  time::ConsistentRunStats RunStats() const;

 private:
  // How a connection ended: END finished / crashed, closed without END, or
  // closed by us after bad input.
  enum class Ending : uint8_t { kNone, kFinished, kCrashed, kNoEnd, kBad };
  struct Connection {
    std::string peer;
    bool hello = false;
    bool open = true;
    int64_t pid = -1;
    std::string host;
    int64_t rank = -1;
    bool has_chunks = false;
    Ending ending = Ending::kNone;
    uint64_t received = 0;
    uint64_t missing = 0;
    std::unordered_map<uint32_t, uint32_t> run_streams;  // chunk stream -> builder stream
  };
  struct Pending {
    uint32_t connection;
    format::ChunkHeader header;
    ChunkBytes bytes;
    int64_t begin_ns, end_ns;
    Clock::time_point arrival;
    ChunkTally tally;
    bool released = false;        // its marker is out: every record released
    std::vector<uint64_t> needs;  // chunks holding the sends of its receives
  };

  void HandleReleased();
  // Applies the held chunks whose needed chunks are applied or held with them.
  void ApplyHeld();
  void Apply(uint64_t slot);
  void Log(const std::string& line) const;
  std::string DescribeLocked(uint32_t connection) const;

  const LiveOptions options_;
  mutable std::mutex mu_;
  std::function<void(const std::string&)> log_;
  ApplyObserver observer_;
  std::vector<Connection> connections_;
  time::ConsistentRun run_;
  std::vector<uint64_t> run_seq_;  // per builder stream: next sequence number
  std::vector<time::ReleasedEvent> released_;
  std::unordered_map<uint64_t, Pending> pending_;     // by slot, until applied
  std::vector<uint64_t> held_;                        // released, not yet applied
  std::unordered_map<uint64_t, uint64_t> send_slot_;  // released send's key -> its chunk
  uint64_t pending_bytes_ = 0;
  uint64_t next_slot_ = 0;
  HistoryWindow window_;
  uint64_t received_ = 0, applied_ = 0, forced_ = 0, missing_ = 0, bad_ = 0;
  uint64_t applied_version_ = 0;
  uint64_t batch_ = 0;  // HandleReleased calls that applied something
  std::string last_bad_;
  Clock::time_point last_refused_log_{};
  uint64_t refused_unlogged_ = 0;
  Clock::time_point last_record_{};
  Clock::time_point last_release_{};
  Clock::time_point newest_applied_arrival_{};
};

}  // namespace plx::server::live
