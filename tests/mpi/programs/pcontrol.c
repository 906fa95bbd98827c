/* pcontrol: traffic in three phases with MPI_Pcontrol(0) and MPI_Pcontrol(1)
 * between them; a tracer must not record the middle phase. Each MPI call and
 * message is counted by hand (count.h), the middle phase's only as a number.
 *
 *   mpirun -np N pcontrol [COUNTS_DIR]      N >= 2
 *
 * Each phase: a token round the ring with MPI_Send/MPI_Recv (8 B) [phase*10+1],
 * then MPI_Irecv/MPI_Isend to both neighbours + MPI_Waitall (16 B)
 * [phase*10+2, phase*10+3] and a collective (phase 1 MPI_Allreduce, phase 2
 * MPI_Barrier and MPI_Bcast, phase 3 MPI_Barrier). Every message of a phase is
 * sent and received within it.
 * Counted while on: everything of phases 1 and 3, and the MPI_Pcontrol(0) that
 * ends phase 1 (the `MPI_Pcontrol 1` line). `pcontrol_off_calls <n>` counts the
 * calls of phase 2 and the MPI_Pcontrol(1) that ends it; phase 2's messages
 * have no msg/rcv lines. Every count and line is the same in every run. */
#include <mpi.h>
#include <stdio.h>

#include "count.h"

static int g_rank, g_size, g_left, g_right;

static void Phase(int phase) {
  const int ring_tag = phase * 10 + 1, right_tag = phase * 10 + 2, left_tag = phase * 10 + 3;
  double token = 0;
  if (g_rank == 0) {
    MPI_Send(&token, 1, MPI_DOUBLE, g_right, ring_tag, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(g_right, ring_tag, sizeof token);
    MPI_Recv(&token, 1, MPI_DOUBLE, g_left, ring_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    count_call("MPI_Recv");
    count_rcv(g_left, ring_tag, sizeof token);
    COUNT_CHECK(token == g_size - 1);
  } else {
    MPI_Recv(&token, 1, MPI_DOUBLE, g_left, ring_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    count_call("MPI_Recv");
    count_rcv(g_left, ring_tag, sizeof token);
    token += 1;
    MPI_Send(&token, 1, MPI_DOUBLE, g_right, ring_tag, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(g_right, ring_tag, sizeof token);
  }

  double to_right[2] = {g_rank, phase}, to_left[2] = {g_rank, -phase};
  double from_left[2], from_right[2];
  MPI_Request requests[4];
  MPI_Irecv(from_left, 2, MPI_DOUBLE, g_left, right_tag, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(from_right, 2, MPI_DOUBLE, g_right, left_tag, MPI_COMM_WORLD, &requests[1]);
  count_calls("MPI_Irecv", 2);
  MPI_Isend(to_right, 2, MPI_DOUBLE, g_right, right_tag, MPI_COMM_WORLD, &requests[2]);
  count_call("MPI_Isend");
  count_msg(g_right, right_tag, sizeof to_right);
  MPI_Isend(to_left, 2, MPI_DOUBLE, g_left, left_tag, MPI_COMM_WORLD, &requests[3]);
  count_call("MPI_Isend");
  count_msg(g_left, left_tag, sizeof to_left);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  count_call("MPI_Waitall");
  count_rcv(g_left, right_tag, sizeof from_left);
  count_rcv(g_right, left_tag, sizeof from_right);
  COUNT_CHECK(from_left[0] == g_left && from_right[1] == -phase);

  if (phase == 1) {
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    count_call("MPI_Allreduce");
    COUNT_CHECK(sum == g_size);
  } else if (phase == 2) {
    int value = g_rank == 0 ? 42 : 0;
    MPI_Barrier(MPI_COMM_WORLD);
    count_call("MPI_Barrier");
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    count_call("MPI_Bcast");
    COUNT_CHECK(value == 42);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    count_call("MPI_Barrier");
  }
}

int main(int argc, char** argv) {
  count_init(&argc, &argv, &g_rank, &g_size);
  if (g_size < 2) {
    if (g_rank == 0) fprintf(stderr, "pcontrol: needs 2 or more ranks\n");
    MPI_Finalize();
    return 2;
  }
  g_left = (g_rank + g_size - 1) % g_size;
  g_right = (g_rank + 1) % g_size;

  Phase(1);
  MPI_Pcontrol(0);
  count_call("MPI_Pcontrol"); /* made while recording was on */
  count_set_recording(0);
  Phase(2);
  MPI_Pcontrol(1);
  count_call("MPI_Pcontrol"); /* made while recording was off */
  count_set_recording(1);
  Phase(3);

  if (g_rank == 0)
    printf("pcontrol: %d ranks; rank 0 made %ld calls recorded and %ld not\n", g_size,
           count_total_calls(), count_off_calls());
  count_line("pcontrol_off_calls %ld", count_off_calls());
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), g_rank);
  MPI_Finalize();
  return 0;
}
