// Gather: every size to process 0, then the bytes with MPI_Gatherv in
// pieces of at most 1 GiB (its counts are ints).
#include "distributed/mpi_group.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>

namespace plx::distributed {

MpiGroup::MpiGroup(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiGroup::~MpiGroup() {
  MPI_Finalize();
}

std::vector<std::string> MpiGroup::Gather(std::string mine) {
  const uint64_t my_size = mine.size();
  std::vector<uint64_t> sizes(rank_ == 0 ? static_cast<size_t>(size_) : 0);
  MPI_Gather(&my_size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  uint64_t largest = my_size;
  MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  std::vector<std::string> out(sizes.size());
  for (size_t r = 0; r < out.size(); ++r)
    out[r].resize(sizes[r]);
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
    MPI_Gatherv(mine.data() + std::min<uint64_t>(at, my_size), send, MPI_BYTE, buffer.data(),
                counts.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    for (size_t r = 0; r < out.size(); ++r)
      std::copy(buffer.begin() + offsets[r], buffer.begin() + offsets[r] + counts[r],
                out[r].begin() + static_cast<std::ptrdiff_t>(std::min(at, sizes[r])));
  }
  return out;
}

bool MpiGroup::AllOk(bool ok) {
  int all = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

}  // namespace plx::distributed
