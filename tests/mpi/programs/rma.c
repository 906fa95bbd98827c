/* rma: one-sided MPI (windows, puts, gets, accumulates and atomics in fence,
 * lock and lock_all epochs), with each MPI call and each transfer counted by
 * hand (count.h) so a test can check a trace exactly.
 *
 *   mpirun -np N rma [COUNTS_DIR]      N >= 1
 *
 * Window A: MPI_Win_create over 256 doubles; window B: MPI_Win_allocate of 64
 * ints, zeroed by each rank under MPI_Win_lock/MPI_Win_unlock on itself.
 *  1. fence epoch on A: MPI_Put 16 doubles to the right (128 B), MPI_Get 8
 *     doubles from the left (64 B), MPI_Accumulate 4 doubles to rank 0 (32 B)
 *  2. MPI_Win_lock exclusive on the right: MPI_Put 8 doubles (64 B),
 *     MPI_Get_accumulate 1 double (8 B); MPI_Win_lock shared on the left:
 *     MPI_Get 4 doubles (32 B)
 *  3. MPI_Win_lock_all on B: MPI_Fetch_and_op +1 on rank 0 (4 B), MPI_Win_flush,
 *     MPI_Compare_and_swap on rank 0 (4 B), MPI_Accumulate 1 int to the right
 *     (4 B), MPI_Win_flush_all, MPI_Win_unlock_all; then each rank reads its own
 *     part of B under MPI_Win_lock shared
 *  4. MPI_Win_free both
 * rma lines: MPI_Put is `put`, MPI_Get `get`; MPI_Accumulate, MPI_Get_accumulate,
 * MPI_Fetch_and_op and MPI_Compare_and_swap are `acc`. Bytes are the origin
 * count times the size of the origin datatype. The atomics use 32-bit ints:
 * Open MPI 4.1's osc/rdma over btl/vader crashes on 64-bit MPI_Compare_and_swap
 * (open-mpi/ompi#7967). Every count and line is the same in every run. */
#include <mpi.h>
#include <stdio.h>

#include "count.h"

enum { kWindowDoubles = 256, kCounterInts = 64 };

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  count_init(&argc, &argv, &rank, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  static double window[kWindowDoubles];
  for (int i = 0; i < kWindowDoubles; ++i)
    window[i] = rank * 1000 + i;
  for (int i = 64; i < 68; ++i)
    window[i] = 0; /* the accumulate target */
  MPI_Win a;
  MPI_Win_create(window, sizeof window, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &a);
  count_call("MPI_Win_create");
  int* counters = NULL;
  MPI_Win b;
  MPI_Win_allocate(kCounterInts * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &counters, &b);
  count_call("MPI_Win_allocate");
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, b); /* local stores, visible in any memory model */
  count_call("MPI_Win_lock");
  for (int i = 0; i < kCounterInts; ++i)
    counters[i] = 0;
  MPI_Win_unlock(rank, b);
  count_call("MPI_Win_unlock");

  /* 1. Fence epoch. */
  double put_out[16], get_in[8], acc_out[4];
  for (int i = 0; i < 16; ++i)
    put_out[i] = -rank;
  for (int i = 0; i < 4; ++i)
    acc_out[i] = rank + 1;
  MPI_Win_fence(0, a);
  count_call("MPI_Win_fence");
  MPI_Put(put_out, 16, MPI_DOUBLE, right, 0, 16, MPI_DOUBLE, a);
  count_call("MPI_Put");
  count_rma("put", right, 16 * sizeof(double));
  MPI_Get(get_in, 8, MPI_DOUBLE, left, 32, 8, MPI_DOUBLE, a);
  count_call("MPI_Get");
  count_rma("get", left, 8 * sizeof(double));
  MPI_Accumulate(acc_out, 4, MPI_DOUBLE, 0, 64, 4, MPI_DOUBLE, MPI_SUM, a);
  count_call("MPI_Accumulate");
  count_rma("acc", 0, 4 * sizeof(double));
  MPI_Win_fence(0, a);
  count_call("MPI_Win_fence");
  COUNT_CHECK(window[15] == -left && get_in[7] == left * 1000 + 39);
  if (rank == 0) COUNT_CHECK(window[66] == size * (size + 1) / 2);

  /* 2. Passive target, one target at a time. */
  double lock_out[8], one = 1, fetched = -1, shared_in[4];
  for (int i = 0; i < 8; ++i)
    lock_out[i] = rank;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, a);
  count_call("MPI_Win_lock");
  MPI_Put(lock_out, 8, MPI_DOUBLE, right, 100, 8, MPI_DOUBLE, a);
  count_call("MPI_Put");
  count_rma("put", right, 8 * sizeof(double));
  MPI_Get_accumulate(&one, 1, MPI_DOUBLE, &fetched, 1, MPI_DOUBLE, right, 110, 1, MPI_DOUBLE,
                     MPI_SUM, a);
  count_call("MPI_Get_accumulate");
  count_rma("acc", right, sizeof(double));
  MPI_Win_unlock(right, a);
  count_call("MPI_Win_unlock");
  COUNT_CHECK(fetched == right * 1000 + 110);
  MPI_Win_lock(MPI_LOCK_SHARED, left, 0, a);
  count_call("MPI_Win_lock");
  MPI_Get(shared_in, 4, MPI_DOUBLE, left, 200, 4, MPI_DOUBLE, a);
  count_call("MPI_Get");
  count_rma("get", left, 4 * sizeof(double));
  MPI_Win_unlock(left, a);
  count_call("MPI_Win_unlock");
  COUNT_CHECK(shared_in[3] == left * 1000 + 203);

  /* 3. Passive target, all at once, atomics. */
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has zeroed its counters */
  count_call("MPI_Barrier");
  int increment = 1, old = -1, mine = rank + 1, expected = 0, swapped = -1, gift = rank + 1;
  MPI_Win_lock_all(0, b);
  count_call("MPI_Win_lock_all");
  MPI_Fetch_and_op(&increment, &old, MPI_INT, 0, 0, MPI_SUM, b);
  count_call("MPI_Fetch_and_op");
  count_rma("acc", 0, sizeof(int));
  MPI_Win_flush(0, b);
  count_call("MPI_Win_flush");
  MPI_Compare_and_swap(&mine, &expected, &swapped, MPI_INT, 0, 1, b);
  count_call("MPI_Compare_and_swap");
  count_rma("acc", 0, sizeof(int));
  MPI_Accumulate(&gift, 1, MPI_INT, right, 2, 1, MPI_INT, MPI_SUM, b);
  count_call("MPI_Accumulate");
  count_rma("acc", right, sizeof(int));
  MPI_Win_flush_all(b);
  count_call("MPI_Win_flush_all");
  MPI_Win_unlock_all(b);
  count_call("MPI_Win_unlock_all");
  COUNT_CHECK(old >= 0 && old < size && swapped >= 0 && swapped <= size);
  MPI_Barrier(MPI_COMM_WORLD); /* every update is done */
  count_call("MPI_Barrier");
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, b);
  count_call("MPI_Win_lock");
  const int counted = counters[0], winner = counters[1], got = counters[2];
  MPI_Win_unlock(rank, b);
  count_call("MPI_Win_unlock");
  COUNT_CHECK(got == left + 1);
  if (rank == 0) COUNT_CHECK(counted == size && winner >= 1 && winner <= size);

  MPI_Win_free(&a);
  MPI_Win_free(&b);
  count_calls("MPI_Win_free", 2);
  if (rank == 0) printf("rma: %d ranks; rank %d won the compare-and-swap\n", size, winner - 1);
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), rank);
  MPI_Finalize();
  return 0;
}
