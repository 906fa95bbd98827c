/* collectives: every MPI collective family, blocking and nonblocking, on
 * MPI_COMM_WORLD and on a split communicator, with each MPI call counted by
 * hand (count.h) so a test can check a trace exactly.
 *
 *   mpirun -np N collectives [COUNTS_DIR]    N >= 1 (up to 64)
 *
 * On each communicator (the world, then MPI_Comm_split by rank parity with the
 * ranks reversed) the same round runs twice, blocking then nonblocking:
 * Barrier, Bcast (root 0), Gather (root size-1), Gatherv (root 0), Scatter
 * (root 1 % size), Scatterv (root 0), Allgather, Allgatherv, Alltoall,
 * Alltoallv, Alltoallw (ints and doubles), Reduce (root 0), Allreduce,
 * Allreduce with MPI_IN_PLACE, Reduce_scatter, Reduce_scatter_block, Scan,
 * Exscan. Nonblocking: MPI_Ibarrier completes with an MPI_Test loop, MPI_Ibcast
 * with MPI_Wait, the others with one MPI_Waitall. Every result is checked.
 * The number of MPI_Test calls changes from run to run; nothing else does.
 * No point-to-point messages: the counts file has no msg/rcv lines. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "count.h"

enum { kMax = 64, kOps = 18 };

/* Calls the blocking (MPI_NAME) or the nonblocking (MPI_INAME) form of a
 * collective with the arguments given, and counts the call. */
#define COLL(NAME, INAME, ...)                           \
  do {                                                   \
    if (nonblocking) {                                   \
      MPI_##INAME(__VA_ARGS__, &requests[num_requests]); \
      ++num_requests;                                    \
      count_call("MPI_" #INAME);                         \
    } else {                                             \
      MPI_##NAME(__VA_ARGS__);                           \
      count_call("MPI_" #NAME);                          \
    }                                                    \
  } while (0)

/* Buffers of one round: each operation has its own, as nonblocking ones are
 * all in flight at once. */
typedef struct {
  int bcast[16];
  int gather_in, gather_out[kMax];
  int gatherv_in[kMax], gatherv_out[kMax * (kMax + 1) / 2];
  int scatter_in[2 * kMax], scatter_out[2];
  int scatterv_in[kMax * (kMax + 1) / 2], scatterv_out[kMax];
  int allgather_in, allgather_out[kMax];
  int allgatherv_in[kMax], allgatherv_out[kMax * (kMax + 1) / 2];
  int alltoall_in[kMax], alltoall_out[kMax];
  int alltoallv_in[kMax * (kMax + 1) / 2], alltoallv_out[kMax * kMax];
  double alltoallw_in[kMax], alltoallw_out[kMax]; /* 8-byte slots: an int or a double */
  double reduce_in[4], reduce_out[4];
  int allreduce_in, allreduce_out, in_place;
  int reduce_scatter_in[kMax * (kMax + 1) / 2], reduce_scatter_out[kMax];
  int block_in[2 * kMax], block_out[2];
  int scan_in, scan_out, exscan_in, exscan_out;
  /* counts and displacements */
  int ones[kMax], ramp[kMax], ramp_displs[kMax], mine[kMax], mine_displs[kMax];
  int w_counts[kMax], w_displs[kMax], w_recv_counts[kMax];
  MPI_Datatype w_send_types[kMax], w_recv_types[kMax];
} Round;

static Round g_round;

static int Tri(int n) {
  return n * (n + 1) / 2;
} /* 1 + 2 + ... + n */

static void Prepare(Round* b, int rank, int size) {
  memset(b, 0, sizeof *b);
  for (int i = 0; i < size; ++i) {
    b->ones[i] = 1;
    b->ramp[i] = i + 1; /* rank i contributes/gets i + 1 elements */
    b->ramp_displs[i] = Tri(i);
    b->mine[i] = rank + 1; /* this rank's share from every rank */
    b->mine_displs[i] = i * (rank + 1);
    /* Alltoallw: what goes to rank i is a double if i is odd, else an int. */
    b->w_counts[i] = 1;
    b->w_displs[i] = i * (int)sizeof(double);
    b->w_send_types[i] = i % 2 ? MPI_DOUBLE : MPI_INT;
    b->w_recv_types[i] = rank % 2 ? MPI_DOUBLE : MPI_INT;
    b->w_recv_counts[i] = 1;
  }
  for (int i = 0; i < 16; ++i)
    b->bcast[i] = rank == 0 ? 7 * i : -1;
  b->gather_in = rank * 3;
  for (int i = 0; i <= rank; ++i) {
    b->gatherv_in[i] = rank;
    b->allgatherv_in[i] = rank * 10 + i;
  }
  for (int i = 0; i < 2 * size; ++i) {
    b->scatter_in[i] = i;
    b->block_in[i] = i + rank;
  }
  for (int i = 0; i < Tri(size); ++i)
    b->scatterv_in[i] = i;
  b->allgather_in = rank + 100;
  for (int i = 0; i < size; ++i) {
    b->alltoall_in[i] = rank * kMax + i;
    if (i % 2)
      b->alltoallw_in[i] = rank + 0.5;
    else
      memcpy(&b->alltoallw_in[i], &(int){rank}, sizeof(int));
  }
  for (int i = 0; i < Tri(size); ++i)
    b->alltoallv_in[i] = rank * 1000 + i;
  for (int i = 0; i < 4; ++i)
    b->reduce_in[i] = rank + i;
  b->allreduce_in = rank;
  b->in_place = 1;
  for (int i = 0; i < Tri(size); ++i)
    b->reduce_scatter_in[i] = 1;
  b->scan_in = rank;
  b->exscan_in = rank + 1;
}

static void Check(const Round* b, int rank, int size) {
  for (int i = 0; i < 16; ++i)
    COUNT_CHECK(b->bcast[i] == 7 * i);
  if (rank == size - 1)
    for (int i = 0; i < size; ++i)
      COUNT_CHECK(b->gather_out[i] == i * 3);
  if (rank == 0)
    for (int i = 0; i < size; ++i)
      COUNT_CHECK(b->gatherv_out[Tri(i)] == i && b->gatherv_out[Tri(i) + i] == i);
  COUNT_CHECK(b->scatter_out[0] == 2 * rank && b->scatter_out[1] == 2 * rank + 1);
  COUNT_CHECK(b->scatterv_out[0] == Tri(rank) && b->scatterv_out[rank] == Tri(rank) + rank);
  for (int i = 0; i < size; ++i) {
    COUNT_CHECK(b->allgather_out[i] == i + 100);
    COUNT_CHECK(b->allgatherv_out[Tri(i) + i] == i * 10 + i);
    COUNT_CHECK(b->alltoall_out[i] == i * kMax + rank);
    /* rank i sent elements Tri(rank) .. Tri(rank) + rank of its buffer here */
    COUNT_CHECK(b->alltoallv_out[i * (rank + 1) + rank] == i * 1000 + Tri(rank) + rank);
    if (rank % 2) {
      COUNT_CHECK(b->alltoallw_out[i] == i + 0.5);
    } else {
      int got;
      memcpy(&got, &b->alltoallw_out[i], sizeof got);
      COUNT_CHECK(got == i);
    }
  }
  const int rank_sum = size * (size - 1) / 2;
  if (rank == 0)
    for (int i = 0; i < 4; ++i)
      COUNT_CHECK(b->reduce_out[i] == rank_sum + size * i);
  COUNT_CHECK(b->allreduce_out == size - 1); /* MPI_MAX of the ranks */
  COUNT_CHECK(b->in_place == size);
  for (int i = 0; i <= rank; ++i)
    COUNT_CHECK(b->reduce_scatter_out[i] == size);
  COUNT_CHECK(b->block_out[0] == 2 * rank * size + rank_sum);
  COUNT_CHECK(b->scan_out == Tri(rank));
  if (rank > 0) COUNT_CHECK(b->exscan_out == Tri(rank));
}

static void RunRound(MPI_Comm comm, int nonblocking) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  count_call("MPI_Comm_rank");
  MPI_Comm_size(comm, &size);
  count_call("MPI_Comm_size");
  Round* b = &g_round;
  Prepare(b, rank, size);
  MPI_Request requests[kOps];
  int num_requests = 0;

  if (nonblocking) {
    MPI_Request barrier;
    MPI_Ibarrier(comm, &barrier);
    count_call("MPI_Ibarrier");
    for (int done = 0; !done;) {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      count_call("MPI_Test");
      if (!done) count_poll_pause();
    }
    MPI_Request bcast;
    MPI_Ibcast(b->bcast, 16, MPI_INT, 0, comm, &bcast);
    count_call("MPI_Ibcast");
    MPI_Wait(&bcast, MPI_STATUS_IGNORE);
    count_call("MPI_Wait");
  } else {
    MPI_Barrier(comm);
    count_call("MPI_Barrier");
    MPI_Bcast(b->bcast, 16, MPI_INT, 0, comm);
    count_call("MPI_Bcast");
  }
  COLL(Gather, Igather, &b->gather_in, 1, MPI_INT, b->gather_out, 1, MPI_INT, size - 1, comm);
  COLL(Gatherv, Igatherv, b->gatherv_in, rank + 1, MPI_INT, b->gatherv_out, b->ramp, b->ramp_displs,
       MPI_INT, 0, comm);
  COLL(Scatter, Iscatter, b->scatter_in, 2, MPI_INT, b->scatter_out, 2, MPI_INT, 1 % size, comm);
  COLL(Scatterv, Iscatterv, b->scatterv_in, b->ramp, b->ramp_displs, MPI_INT, b->scatterv_out,
       rank + 1, MPI_INT, 0, comm);
  COLL(Allgather, Iallgather, &b->allgather_in, 1, MPI_INT, b->allgather_out, 1, MPI_INT, comm);
  COLL(Allgatherv, Iallgatherv, b->allgatherv_in, rank + 1, MPI_INT, b->allgatherv_out, b->ramp,
       b->ramp_displs, MPI_INT, comm);
  COLL(Alltoall, Ialltoall, b->alltoall_in, 1, MPI_INT, b->alltoall_out, 1, MPI_INT, comm);
  COLL(Alltoallv, Ialltoallv, b->alltoallv_in, b->ramp, b->ramp_displs, MPI_INT, b->alltoallv_out,
       b->mine, b->mine_displs, MPI_INT, comm);
  COLL(Alltoallw, Ialltoallw, b->alltoallw_in, b->w_counts, b->w_displs, b->w_send_types,
       b->alltoallw_out, b->w_recv_counts, b->w_displs, b->w_recv_types, comm);
  COLL(Reduce, Ireduce, b->reduce_in, b->reduce_out, 4, MPI_DOUBLE, MPI_SUM, 0, comm);
  COLL(Allreduce, Iallreduce, &b->allreduce_in, &b->allreduce_out, 1, MPI_INT, MPI_MAX, comm);
  COLL(Allreduce, Iallreduce, MPI_IN_PLACE, &b->in_place, 1, MPI_INT, MPI_SUM, comm);
  COLL(Reduce_scatter, Ireduce_scatter, b->reduce_scatter_in, b->reduce_scatter_out, b->ramp,
       MPI_INT, MPI_SUM, comm);
  COLL(Reduce_scatter_block, Ireduce_scatter_block, b->block_in, b->block_out, 2, MPI_INT, MPI_SUM,
       comm);
  COLL(Scan, Iscan, &b->scan_in, &b->scan_out, 1, MPI_INT, MPI_SUM, comm);
  COLL(Exscan, Iexscan, &b->exscan_in, &b->exscan_out, 1, MPI_INT, MPI_SUM, comm);
  if (nonblocking) {
    MPI_Waitall(num_requests, requests, MPI_STATUSES_IGNORE);
    count_call("MPI_Waitall");
  }
  Check(b, rank, size);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  if (size > kMax) {
    if (rank == 0) fprintf(stderr, "collectives: at most %d ranks\n", kMax);
    MPI_Finalize();
    return 2;
  }
  RunRound(MPI_COMM_WORLD, 0);
  RunRound(MPI_COMM_WORLD, 1);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  count_call("MPI_Comm_split");
  RunRound(half, 0);
  RunRound(half, 1);
  MPI_Comm_free(&half);
  count_call("MPI_Comm_free");
  if (rank == 0)
    printf("collectives: %d ranks, %ld MPI calls on rank 0\n", size, count_total_calls());
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Finalize();
  return 0;
}
