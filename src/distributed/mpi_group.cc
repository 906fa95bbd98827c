// Gather: every size to process 0, then the bytes with MPI_Gatherv in
// pieces of at most 1 GiB (its counts are ints). Exchange: every size to
// its receiver, then the bytes with MPI_Alltoallv in rounds where each
// process sends and receives at most 1 GiB in all. Each collective is the
// non-blocking one, tested until done: the wait polls (sleeping up to a
// millisecond between tests once it has lasted), so it can give up.
// Broadcast: the size, then the bytes with MPI_Ibcast in pieces of 1 GiB.
#include "distributed/mpi_group.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace plx::distributed {

MpiGroup::MpiGroup(int* argc, char*** argv) {
  // Serialized: `parallax-mpi serve` takes its steps on the threads that
  // answer requests, one at a time.
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiGroup::~MpiGroup() {
  if (const char* path = std::getenv("PLX_GROUP_STATS"); path != nullptr && *path != 0) {
    if (std::FILE* f = std::fopen(path, "a")) {
      std::fprintf(f,
                   "{\"rank\": %d, \"processes\": %d, \"steps\": %llu, \"exchanged_sent\": "
                   "%llu, \"exchanged_received\": %llu, \"gathered_sent\": %llu, "
                   "\"gathered_received\": %llu, \"seconds_waiting\": %.6f}\n",
                   rank_, size_, static_cast<unsigned long long>(steps_),
                   static_cast<unsigned long long>(exchanged_sent_),
                   static_cast<unsigned long long>(exchanged_received_),
                   static_cast<unsigned long long>(gathered_sent_),
                   static_cast<unsigned long long>(gathered_received_), waited_s_);
      std::fclose(f);
    }
  }
  MPI_Finalize();
}

void MpiGroup::Wait(void* request, const char* step, bool idle) {
  using Clock = std::chrono::steady_clock;
  auto* r = static_cast<MPI_Request*>(request);
  const Clock::time_point start = Clock::now();
  auto pause = std::chrono::microseconds(1);
  for (int tests = 0;; ++tests) {
    int done = 0;
    MPI_Test(r, &done, MPI_STATUS_IGNORE);
    const double waited = std::chrono::duration<double>(Clock::now() - start).count();
    if (done != 0) {
      ++steps_;
      waited_s_ += waited;
      return;
    }
    if (!idle && timeout_s_ > 0 && waited > timeout_s_) {
      std::fprintf(stderr,
                   "parallax-mpi: process %d: error: waited %.0f s for the other processes in "
                   "a step (%s): one of them stopped or is stuck (--step-timeout); ending the "
                   "job\n",
                   rank_, waited, step);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    // Spin first (most steps end within microseconds), then sleep longer
    // and longer, up to a millisecond.
    if (tests > 1000) {
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
  }
}

std::vector<std::string> MpiGroup::Gather(std::string mine) {
  const uint64_t my_size = mine.size();
  std::vector<uint64_t> sizes(rank_ == 0 ? static_cast<size_t>(size_) : 0);
  MPI_Request request;
  MPI_Igather(&my_size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD,
              &request);
  Wait(&request, "gathering sizes");
  uint64_t largest = my_size;
  MPI_Iallreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &request);
  Wait(&request, "gathering sizes");
  std::vector<std::string> out(sizes.size());
  for (size_t r = 0; r < out.size(); ++r) {
    out[r].resize(sizes[r]);
    if (r != 0) gathered_received_ += sizes[r];
  }
  if (rank_ != 0) gathered_sent_ += my_size;
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  std::vector<char> buffer;
  std::vector<int> counts(out.size()), offsets(out.size());
  for (uint64_t at = 0; at < largest; at += kPiece) {
    const auto piece = [&](uint64_t size) {
      return static_cast<int>(std::min(kPiece, size - std::min(size, at)));
    };
    int total = 0;
    for (size_t r = 0; r < out.size(); ++r) {
      counts[r] = piece(sizes[r]);
      offsets[r] = total;
      total += counts[r];
    }
    buffer.resize(static_cast<size_t>(total));
    const int send = piece(my_size);
    MPI_Igatherv(mine.data() + std::min<uint64_t>(at, my_size), send, MPI_BYTE, buffer.data(),
                 counts.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD, &request);
    Wait(&request, "gathering results");
    for (size_t r = 0; r < out.size(); ++r)
      std::copy(buffer.begin() + offsets[r], buffer.begin() + offsets[r] + counts[r],
                out[r].begin() + static_cast<std::ptrdiff_t>(std::min(at, sizes[r])));
  }
  return out;
}

std::vector<std::string> MpiGroup::Exchange(std::vector<std::string> to) {
  const auto n = static_cast<size_t>(size_);
  to.resize(n);
  std::vector<uint64_t> send_sizes(n), recv_sizes(n);
  for (size_t r = 0; r < n; ++r)
    send_sizes[r] = to[r].size();
  MPI_Request request;
  MPI_Ialltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T,
                MPI_COMM_WORLD, &request);
  Wait(&request, "exchanging sizes");
  // Each pair moves at most kPiece / n bytes a round, so no buffer passes
  // 1 GiB; the rounds are those the largest pair needs.
  const uint64_t piece = std::max<uint64_t>((uint64_t{1} << 30) / n, 1);
  uint64_t largest = 0;
  for (size_t r = 0; r < n; ++r)
    largest = std::max({largest, send_sizes[r], recv_sizes[r]});
  MPI_Iallreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &request);
  Wait(&request, "exchanging sizes");
  std::vector<std::string> from(n);
  for (size_t r = 0; r < n; ++r) {
    from[r].resize(recv_sizes[r]);
    if (r == static_cast<size_t>(rank_)) continue;
    exchanged_sent_ += send_sizes[r];
    exchanged_received_ += recv_sizes[r];
  }
  std::vector<char> send_buffer, recv_buffer;
  std::vector<int> send_counts(n), send_offsets(n), recv_counts(n), recv_offsets(n);
  const auto part = [&](uint64_t size, uint64_t at) {
    return static_cast<int>(std::min(piece, size - std::min(size, at)));
  };
  for (uint64_t at = 0; at < largest; at += piece) {
    int sent = 0, received = 0;
    send_buffer.clear();
    for (size_t r = 0; r < n; ++r) {
      send_counts[r] = part(send_sizes[r], at);
      send_offsets[r] = sent;
      sent += send_counts[r];
      if (send_counts[r] > 0)
        send_buffer.insert(send_buffer.end(), to[r].begin() + static_cast<std::ptrdiff_t>(at),
                           to[r].begin() + static_cast<std::ptrdiff_t>(at) + send_counts[r]);
      recv_counts[r] = part(recv_sizes[r], at);
      recv_offsets[r] = received;
      received += recv_counts[r];
    }
    recv_buffer.resize(static_cast<size_t>(received));
    MPI_Ialltoallv(send_buffer.data(), send_counts.data(), send_offsets.data(), MPI_BYTE,
                   recv_buffer.data(), recv_counts.data(), recv_offsets.data(), MPI_BYTE,
                   MPI_COMM_WORLD, &request);
    Wait(&request, "exchanging records");
    for (size_t r = 0; r < n; ++r)
      if (recv_counts[r] > 0)
        std::copy(recv_buffer.begin() + recv_offsets[r],
                  recv_buffer.begin() + recv_offsets[r] + recv_counts[r],
                  from[r].begin() + static_cast<std::ptrdiff_t>(at));
  }
  return from;
}

bool MpiGroup::AllOk(bool ok) {
  int all = ok ? 1 : 0;
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD, &request);
  Wait(&request, "agreeing whether every process succeeded");
  return all != 0;
}

}  // namespace plx::distributed

namespace plx::distributed {

std::string MpiGroup::Broadcast(std::string message, bool idle) {
  uint64_t size = message.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request);
  Wait(&request, "waiting for process 0", idle);
  message.resize(size);
  if (rank_ != 0) gathered_received_ += size;
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  for (uint64_t at = 0; at < size; at += kPiece) {
    MPI_Ibcast(message.data() + at, static_cast<int>(std::min(kPiece, size - at)), MPI_BYTE, 0,
               MPI_COMM_WORLD, &request);
    Wait(&request, "receiving process 0's message");
  }
  return message;
}

}  // namespace plx::distributed
