#include "mpi/lifecycle.h"

#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "base/strings.h"
#include "capture/config.h"
#include "capture/fast_path.h"
#include "capture/registry.h"
#include "capture/runtime.h"
#include "format/merge.h"
#include "mpi/clock_offset.h"
#include "mpi/hooks.h"
#include "mpi/tables.h"
#include "parallax/parallax.h"

namespace plx::mpi {
namespace cap = plx::capture;

namespace {

constexpr int kSyncRounds = 20;
constexpr int kPathBytes = 4096;
constexpr int kFileTag = 7002;
constexpr size_t kPieceBytes = 16u << 20;

bool g_active = false;               // between MPI_Init and MPI_Finalize, tracing wanted
MPI_Comm g_private = MPI_COMM_NULL;  // our own traffic never meets the program's
std::string g_final_path;            // the merged trace (rank 0 writes it)
std::string g_part_path;             // this rank's part
bool g_shared_clock = false;         // same kernel as rank 0: offset is exactly 0
int g_rank = 0;
int g_size = 1;

StateSlot g_init_state{"MPI_Init", kComm};
StateSlot g_init_thread_state{"MPI_Init_thread", kComm};
StateSlot g_finalize_state{"MPI_Finalize", kComm};
StateSlot g_abort_state{"MPI_Abort", kComm};
StateSlot g_pcontrol_state{"MPI_Pcontrol", kComm};

std::string ExecutableName() {
  char exe[4096] = {0};
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n < 0) n = 0;
  exe[n] = 0;
  const char* slash = std::strrchr(exe, '/');
  return slash ? slash + 1 : (exe[0] ? exe : "trace");
}

std::string FinalPath() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  return cap::ExpandOutput(cap::Runtime::Get().config().output, ExecutableName(), ::getpid(), host,
                           static_cast<int64_t>(std::time(nullptr)));
}

void BroadcastString(std::string* s) {
  int length = static_cast<int>(s->size());
  PMPI_Bcast(&length, 1, MPI_INT, 0, g_private);
  s->resize(static_cast<size_t>(length));
  if (length > 0) PMPI_Bcast(s->data(), length, MPI_CHAR, 0, g_private);
}

void RecordClockOffset() {
  const ClockOffset o = MeasureClockOffset(g_private, kSyncRounds, g_shared_clock);
  if (cap::Runtime::Get().running())
    cap::Runtime::Get().registry().ClockOffset(o.local_ns, o.offset_ns, o.error_ns);
}

bool SendFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  uint64_t size = 0;
  struct stat st;
  if (fd >= 0 && ::fstat(fd, &st) == 0) size = static_cast<uint64_t>(st.st_size);
  PMPI_Send(&size, 1, MPI_UINT64_T, 0, kFileTag, g_private);
  std::vector<char> piece(kPieceBytes);
  for (uint64_t done = 0; done < size;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kPieceBytes, size - done));
    ssize_t got = ::pread(fd, piece.data(), want, static_cast<off_t>(done));
    if (got <= 0) {  // the file shrank: send zeros, the reader drops the damaged tail
      std::memset(piece.data(), 0, want);
      got = static_cast<ssize_t>(want);
    }
    PMPI_Send(piece.data(), static_cast<int>(got), MPI_BYTE, 0, kFileTag, g_private);
    done += static_cast<uint64_t>(got);
  }
  if (fd >= 0) ::close(fd);
  return true;
}

bool ReceiveFile(int from, const std::string& path) {
  uint64_t size = 0;
  PMPI_Recv(&size, 1, MPI_UINT64_T, from, kFileTag, g_private, MPI_STATUS_IGNORE);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::vector<char> piece(kPieceBytes);
  bool ok = fd >= 0;
  for (uint64_t done = 0; done < size;) {
    MPI_Status status;
    PMPI_Recv(piece.data(), static_cast<int>(kPieceBytes), MPI_BYTE, from, kFileTag, g_private,
              &status);
    int n = 0;
    PMPI_Get_count(&status, MPI_BYTE, &n);
    if (ok && ::write(fd, piece.data(), static_cast<size_t>(n)) != n) ok = false;
    done += static_cast<uint64_t>(n);
  }
  if (fd >= 0) ::close(fd);
  return ok;
}

// Unless PLX_MERGE=1, rank 0 leaves the parts unmerged past these: the merge
// runs on rank 0 alone and copies every byte (about 1 GB/s from the page
// cache here, slower from a parallel file system or over MPI), while the
// job's other nodes wait for it (docs/PERFORMANCE.md).
constexpr int kMergeMaxRanks = 1024;
constexpr uint64_t kMergeMaxBytes = uint64_t{8} << 30;

// Every rank's part reaches rank 0 (read in place on a shared file system,
// sent over MPI otherwise), which merges them into the final trace; with
// `merge` 0, or -1 (auto) and a run past the limits above, they stay.
void MergeParts(int merge) {
  if (g_final_path == "-") return;  // PLX_OUTPUT=- on rank 0: nothing to merge
  std::vector<char> mine(kPathBytes, 0);
  std::memcpy(mine.data(), g_part_path.data(),
              std::min<size_t>(g_part_path.size(), kPathBytes - 1));
  std::vector<char> all(g_rank == 0 ? static_cast<size_t>(kPathBytes) * g_size : 0);
  PMPI_Gather(mine.data(), kPathBytes, MPI_CHAR, all.data(), kPathBytes, MPI_CHAR, 0, g_private);
  struct stat st;
  uint64_t bytes = !g_part_path.empty() && ::stat(g_part_path.c_str(), &st) == 0
                       ? static_cast<uint64_t>(st.st_size)
                       : 0;
  uint64_t total = 0;
  PMPI_Reduce(&bytes, &total, 1, MPI_UINT64_T, MPI_SUM, 0, g_private);
  const bool stay =
      merge == 0 || (merge < 0 && (g_size > kMergeMaxRanks || total > kMergeMaxBytes));
  // Rank 0 says which parts it cannot read where they are; those ranks send theirs.
  std::vector<int> send(static_cast<size_t>(g_size), 0);
  std::vector<format::MergeInput> inputs;
  if (g_rank == 0 && !stay) {
    for (int r = 0; r < g_size; ++r) {
      std::string path(all.data() + static_cast<size_t>(r) * kPathBytes);
      if (path.empty()) continue;  // that rank did not trace
      if (::access(path.c_str(), R_OK) != 0) {
        send[static_cast<size_t>(r)] = 1;
        path = g_final_path + ".parts/rank-" + std::to_string(r) + ".plx";
      }
      inputs.push_back({path, static_cast<uint32_t>(r)});
    }
  }
  PMPI_Bcast(send.data(), g_size, MPI_INT, 0, g_private);
  if (g_rank != 0) {
    if (send[static_cast<size_t>(g_rank)]) SendFile(g_part_path);
    return;
  }
  if (stay) {
    // Each rank's part stays where it wrote it: nothing went through rank 0.
    const std::string why = merge == 0 ? "PLX_MERGE=0"
                                       : std::to_string(g_size) + " ranks, " + FormatBytes(total) +
                                             ": above what rank 0 merges unless PLX_MERGE=1";
    std::fprintf(stderr, "parallax: trace of %d ranks left in %s.parts (%s)\n", g_size,
                 g_final_path.c_str(), why.c_str());
    return;
  }
  for (int r = 1; r < g_size; ++r)
    if (send[static_cast<size_t>(r)])
      ReceiveFile(r, g_final_path + ".parts/rank-" + std::to_string(r) + ".plx");
  StatusOr<format::MergeResult> merged = format::MergeTraceFiles(inputs, g_final_path);
  if (!merged.ok()) {
    std::fprintf(stderr, "parallax: merging the parts failed: %s; they stay in %s.parts\n",
                 merged.status().message().c_str(), g_final_path.c_str());
    return;
  }
  for (const std::string& problem : merged->problems)
    std::fprintf(stderr, "parallax: %s\n", problem.c_str());
  // A part may be the merged file itself (a runtime started before MPI_Init
  // kept its first output path): that one stays.
  struct stat final_st;
  const bool have_final = ::stat(g_final_path.c_str(), &final_st) == 0;
  for (const format::MergeInput& in : inputs) {
    struct stat in_st;
    if (have_final && ::stat(in.path.c_str(), &in_st) == 0 && in_st.st_dev == final_st.st_dev &&
        in_st.st_ino == final_st.st_ino)
      continue;
    ::unlink(in.path.c_str());
  }
  ::rmdir((g_final_path + ".parts").c_str());
  std::fprintf(stderr, "parallax: trace of %d ranks written to %s (%s)\n", g_size,
               g_final_path.c_str(), FormatBytes(merged->bytes).c_str());
}

}  // namespace

uint64_t BeforeInit() {
  cap::Runtime::Get().ChooseClock();
  return cap::ReadTicks();
}

void AfterInit(uint64_t begin_tick, const char* function) {
  cap::Runtime& rt = cap::Runtime::Get();
  if (!rt.ChooseClock()) return;  // PLX_TRACE=0
  PMPI_Comm_dup(MPI_COMM_WORLD, &g_private);
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
  SetWorld(g_rank, g_size);
  g_shared_clock = SharesClockWithRoot(g_private);
  if (g_rank == 0) g_final_path = FinalPath();
  BroadcastString(&g_final_path);
  if (g_final_path != "-" && rt.config().writes_file()) {
    const std::string dir = g_final_path + ".parts";
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
      std::fprintf(stderr, "parallax: cannot create %s: %s\n", dir.c_str(), std::strerror(errno));
    g_part_path = dir + "/rank-" + std::to_string(g_rank) + ".plx";
    if (!rt.SetOutputPath(g_part_path) && rt.running()) g_part_path = rt.output_path();
  }  // else PLX_OUTPUT=-: no files, the ranks only stream (PLX_LIVE)
  g_active = true;
  cap::tls_attach_tick = begin_tick;
  if (rt.EnsureInit()) {
    rt.registry().ProcessRank(g_rank);
    RegisterWorld();
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int length = 0;
    PMPI_Get_library_version(version, &length);
    std::string v(version, static_cast<size_t>(length));
    while (!v.empty() && (v.back() == '\n' || v.back() == '\0'))
      v.pop_back();
    rt.registry().Attribute("mpi.library", v.substr(0, v.find('\n')));
    rt.registry().Attribute("mpi.world_size", std::to_string(g_size));
    rt.registry().Attribute("mpi.clock", g_shared_clock ? "shared with rank 0 (same kernel)"
                                                        : "offset to rank 0 measured");
  }
  StateSlot& slot = std::strcmp(function, "MPI_Init") == 0 ? g_init_state : g_init_thread_state;
  {
    // The call began before the runtime could record: date it (and the
    // thread, when this is its first record) back to its start.
    Call call(slot, begin_tick);
    RecordClockOffset();
  }
  cap::tls_attach_tick = 0;
}

void BeforeFinalize() {
  if (!g_active) return;
  {
    Call call(g_finalize_state);
    RecordClockOffset();
  }
  cap::Runtime& rt = cap::Runtime::Get();
  rt.Finalize();
  g_active = false;
  MergeParts(rt.config().merge);
  PMPI_Comm_free(&g_private);
}

void BeforeAbort() {
  if (!g_active) return;
  { Call call(g_abort_state); }
  cap::Runtime::Get().Finalize();
  g_active = false;
}

// The call is recorded when recording is on as it is made: MPI_Pcontrol(0)
// is the last state before the gap, and MPI_Pcontrol(1) after a gap is marked
// by the control record alone.
void Pcontrol(int level) {
  const bool was_on = plx_enabled() != 0;
  if (level == 0) {
    { Call call(g_pcontrol_state); }
    plx_control(0);
  } else {
    plx_control(1);
    if (was_on) {
      Call call(g_pcontrol_state);
    }
  }
}

}  // namespace plx::mpi
