/* p2p: point-to-point MPI traffic of every common kind, with each MPI call and
 * each message counted by hand (count.h) so a test can check a trace exactly.
 *
 *   mpirun -np N p2p [COUNTS_DIR]      N >= 2; COUNTS_DIR or $PLX_TEST_COUNTS_DIR
 *
 * Sections, in order [tags]:
 *  1. a token round the world ring with MPI_Send/MPI_Recv: 0 B, 8 B, 1 KiB, 1 MiB [10-13]
 *  2. all-to-all by pairwise MPI_Sendrecv, 1 KiB [20]
 *  3. all-to-all (self included) by MPI_Irecv/MPI_Isend + MPI_Waitall, 8 B [30]
 *  4. six halo exchanges on the ring (1 KiB each way), completed with MPI_Waitany,
 *     MPI_Waitsome, MPI_Testall, MPI_Test, MPI_Testany, MPI_Testsome loops [40, 41]
 *  5. persistent requests: MPI_Send_init/MPI_Recv_init, MPI_Startall/MPI_Start,
 *     3 rounds of 256 B, MPI_Request_free [50]
 *  6. every rank but 0 sends two messages to rank 0, which takes them with
 *     MPI_Probe + MPI_Get_count + MPI_Recv, then MPI_Iprobe loops + MPI_Recv with
 *     MPI_ANY_SOURCE/MPI_ANY_TAG [60+rank: 16*rank B by MPI_Send; 70: 8 B by MPI_Ssend]
 *  7. MPI_Ssend token ring (64 B) [80]; MPI_Bsend to the right (1 KiB, attached
 *     buffer) [81]; MPI_Rsend to the right after an MPI_Barrier that follows the
 *     matching MPI_Irecv (8 B) [82]
 *  8. MPI_Comm_split by rank parity: MPI_Sendrecv ring (8 B) [10] and
 *     MPI_Sendrecv_replace ring (16 B) [11] in each half; MPI_Comm_dup of the
 *     world: MPI_Isend/MPI_Recv/MPI_Wait to the right (8 B) [10]
 *  9. derived datatypes on the duplicate: 3 x MPI_Type_contiguous(4 ints) = 48 B
 *     [90] and 1 x MPI_Type_vector(4, 2, 5, double) = 64 B [91], received as
 *     plain ints/doubles; committed and freed
 * Calls of MPI_Test, MPI_Testall, MPI_Testany, MPI_Testsome, MPI_Waitsome and
 * MPI_Iprobe loop until done, so their number changes from run to run (each
 * counts file is exact for its own run); every other count and every msg/rcv
 * line is the same in every run. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"

enum { kHaloDoubles = 128, kPersistentDoubles = 32, kBigBytes = 1 << 20 };

static int g_rank, g_size, g_left, g_right;

/* Section 1: the token starts at rank 0 and goes round once per size. */
static void TokenRing(char* buf) {
  static const int kBytes[] = {0, 8, 1024, kBigBytes};
  for (int i = 0; i < 4; ++i) {
    const int bytes = kBytes[i], tag = 10 + i;
    if (g_rank == 0) {
      memset(buf, 1, (size_t)bytes);
      MPI_Send(buf, bytes, MPI_BYTE, g_right, tag, MPI_COMM_WORLD);
      count_call("MPI_Send");
      count_msg(g_right, tag, bytes);
      MPI_Recv(buf, bytes, MPI_BYTE, g_left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      count_call("MPI_Recv");
      count_rcv(g_left, tag, bytes);
      if (bytes > 0) COUNT_CHECK(buf[bytes - 1] == (char)g_size);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, g_left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      count_call("MPI_Recv");
      count_rcv(g_left, tag, bytes);
      if (bytes > 0) {
        COUNT_CHECK(buf[bytes - 1] == (char)g_rank);
        buf[bytes - 1] = (char)(g_rank + 1);
      }
      MPI_Send(buf, bytes, MPI_BYTE, g_right, tag, MPI_COMM_WORLD);
      count_call("MPI_Send");
      count_msg(g_right, tag, bytes);
    }
  }
}

/* Section 2: in step k every rank sends to rank+k and receives from rank-k. */
static void PairwiseAllToAll(void) {
  int out[256], in[256];
  const long bytes = (long)sizeof out;
  for (int k = 1; k < g_size; ++k) {
    const int dst = (g_rank + k) % g_size, src = (g_rank - k + g_size) % g_size;
    out[0] = g_rank;
    out[255] = k;
    MPI_Status status;
    MPI_Sendrecv(out, 256, MPI_INT, dst, 20, in, 256, MPI_INT, src, 20, MPI_COMM_WORLD, &status);
    count_call("MPI_Sendrecv");
    count_msg(dst, 20, bytes);
    count_rcv(src, 20, bytes);
    COUNT_CHECK(status.MPI_SOURCE == src && in[0] == src && in[255] == k);
  }
}

/* Section 3: one double to every rank, this one included. */
static void NonblockingAllToAll(void) {
  double* out = malloc(sizeof(double) * (size_t)g_size);
  double* in = malloc(sizeof(double) * (size_t)g_size);
  MPI_Request* requests = malloc(sizeof(MPI_Request) * 2 * (size_t)g_size);
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * 2 * (size_t)g_size);
  for (int p = 0; p < g_size; ++p) {
    MPI_Irecv(&in[p], 1, MPI_DOUBLE, p, 30, MPI_COMM_WORLD, &requests[p]);
    count_call("MPI_Irecv");
  }
  for (int p = 0; p < g_size; ++p) {
    out[p] = g_rank * 1000.0 + p;
    MPI_Isend(&out[p], 1, MPI_DOUBLE, p, 30, MPI_COMM_WORLD, &requests[g_size + p]);
    count_call("MPI_Isend");
    count_msg(p, 30, sizeof(double));
  }
  MPI_Waitall(2 * g_size, requests, statuses);
  count_call("MPI_Waitall");
  for (int p = 0; p < g_size; ++p) {
    count_rcv(p, 30, sizeof(double));
    COUNT_CHECK(statuses[p].MPI_SOURCE == p && in[p] == p * 1000.0 + g_rank);
  }
  free(out);
  free(in);
  free(requests);
  free(statuses);
}

/* Section 4: requests[0..1] receive from the left (tag 40) and right (41),
 * requests[2..3] send to the right (40) and left (41). */
static void HaloExchange(void) {
  static double from_left[kHaloDoubles], from_right[kHaloDoubles];
  static double to_right[kHaloDoubles], to_left[kHaloDoubles];
  const long bytes = (long)sizeof from_left;
  for (int mode = 0; mode < 6; ++mode) {
    MPI_Request requests[4];
    MPI_Irecv(from_left, kHaloDoubles, MPI_DOUBLE, g_left, 40, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(from_right, kHaloDoubles, MPI_DOUBLE, g_right, 41, MPI_COMM_WORLD, &requests[1]);
    count_calls("MPI_Irecv", 2);
    for (int i = 0; i < kHaloDoubles; ++i) {
      to_right[i] = g_rank + mode;
      to_left[i] = -(g_rank + mode);
    }
    MPI_Isend(to_right, kHaloDoubles, MPI_DOUBLE, g_right, 40, MPI_COMM_WORLD, &requests[2]);
    count_call("MPI_Isend");
    count_msg(g_right, 40, bytes);
    MPI_Isend(to_left, kHaloDoubles, MPI_DOUBLE, g_left, 41, MPI_COMM_WORLD, &requests[3]);
    count_call("MPI_Isend");
    count_msg(g_left, 41, bytes);

    int done = 0, flag = 0, index = 0, outcount = 0, indices[4];
    MPI_Status status, statuses[4];
    switch (mode) {
      case 0:
        for (; done < 4; ++done) {
          MPI_Waitany(4, requests, &index, &status);
          count_call("MPI_Waitany");
          COUNT_CHECK(index >= 0 && index < 4);
        }
        break;
      case 1:
        while (done < 4) {
          MPI_Waitsome(4, requests, &outcount, indices, statuses);
          count_call("MPI_Waitsome");
          COUNT_CHECK(outcount >= 1);
          done += outcount;
        }
        break;
      case 2:
        while (!flag) {
          MPI_Testall(4, requests, &flag, statuses);
          count_call("MPI_Testall");
          if (!flag) count_poll_pause();
        }
        break;
      case 3:
        for (int i = 0; i < 4; ++i) {
          for (flag = 0; !flag;) {
            MPI_Test(&requests[i], &flag, &status);
            count_call("MPI_Test");
            if (!flag) count_poll_pause();
          }
        }
        break;
      case 4:
        while (done < 4) {
          MPI_Testany(4, requests, &index, &flag, &status);
          count_call("MPI_Testany");
          if (flag) {
            COUNT_CHECK(index >= 0 && index < 4);
            ++done;
          } else {
            count_poll_pause();
          }
        }
        break;
      default:
        while (done < 4) {
          MPI_Testsome(4, requests, &outcount, indices, statuses);
          count_call("MPI_Testsome");
          COUNT_CHECK(outcount >= 0);
          done += outcount;
          if (outcount == 0) count_poll_pause();
        }
        break;
    }
    count_rcv(g_left, 40, bytes);
    count_rcv(g_right, 41, bytes);
    COUNT_CHECK(from_left[kHaloDoubles - 1] == g_left + mode);
    COUNT_CHECK(from_right[0] == -(g_right + mode));
  }
}

/* Section 5: the same pair of persistent requests started three times. */
static void Persistent(void) {
  double out[kPersistentDoubles], in[kPersistentDoubles];
  const long bytes = (long)sizeof out;
  MPI_Request requests[2];
  MPI_Recv_init(in, kPersistentDoubles, MPI_DOUBLE, g_left, 50, MPI_COMM_WORLD, &requests[0]);
  count_call("MPI_Recv_init");
  MPI_Send_init(out, kPersistentDoubles, MPI_DOUBLE, g_right, 50, MPI_COMM_WORLD, &requests[1]);
  count_call("MPI_Send_init");
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < kPersistentDoubles; ++i)
      out[i] = g_rank * 10 + round;
    if (round == 1) {
      MPI_Start(&requests[0]);
      MPI_Start(&requests[1]);
      count_calls("MPI_Start", 2);
    } else {
      MPI_Startall(2, requests);
      count_call("MPI_Startall");
    }
    count_msg(g_right, 50, bytes);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    count_call("MPI_Waitall");
    count_rcv(g_left, 50, bytes);
    COUNT_CHECK(in[kPersistentDoubles - 1] == g_left * 10 + round);
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  count_calls("MPI_Request_free", 2);
}

/* Section 6: wildcard receives at rank 0; sizes depend on the sender. */
static void ProbeAnySource(void) {
  if (g_rank != 0) {
    char out[16 * 64 + 8];
    const int bytes = 16 * g_rank;
    COUNT_CHECK(bytes <= (int)sizeof out);
    memset(out, g_rank, sizeof out);
    MPI_Send(out, bytes, MPI_BYTE, 0, 60 + g_rank, MPI_COMM_WORLD);
    count_call("MPI_Send");
    count_msg(0, 60 + g_rank, bytes);
    MPI_Ssend(out, 8, MPI_BYTE, 0, 70, MPI_COMM_WORLD);
    count_call("MPI_Ssend");
    count_msg(0, 70, 8);
    return;
  }
  const int total = 2 * (g_size - 1), max_bytes = 16 * g_size;
  char* in = malloc((size_t)max_bytes);
  for (int got = 0; got < total; ++got) {
    MPI_Status probed, status;
    int bytes = 0;
    if (got < g_size - 1) {
      MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &probed);
      count_call("MPI_Probe");
      MPI_Get_count(&probed, MPI_BYTE, &bytes);
      count_call("MPI_Get_count");
      MPI_Recv(in, bytes, MPI_BYTE, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, &status);
      count_call("MPI_Recv");
      COUNT_CHECK(status.MPI_SOURCE == probed.MPI_SOURCE && status.MPI_TAG == probed.MPI_TAG);
    } else {
      for (int flag = 0; !flag;) {
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &probed);
        count_call("MPI_Iprobe");
        if (!flag) count_poll_pause();
      }
      MPI_Recv(in, max_bytes, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      count_call("MPI_Recv");
      MPI_Get_count(&status, MPI_BYTE, &bytes);
      count_call("MPI_Get_count");
    }
    const int src = status.MPI_SOURCE, tag = status.MPI_TAG;
    COUNT_CHECK(src > 0 && src < g_size);
    COUNT_CHECK(tag == 70 ? bytes == 8 : (tag == 60 + src && bytes == 16 * src));
    count_rcv(src, tag, bytes);
  }
  free(in);
}

/* Section 7: the three other send modes. */
static void SendModes(void) {
  char token[64] = {0};
  if (g_rank == 0) {
    MPI_Ssend(token, 64, MPI_BYTE, g_right, 80, MPI_COMM_WORLD);
    count_call("MPI_Ssend");
    count_msg(g_right, 80, 64);
    MPI_Recv(token, 64, MPI_BYTE, g_left, 80, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    count_call("MPI_Recv");
    count_rcv(g_left, 80, 64);
  } else {
    MPI_Recv(token, 64, MPI_BYTE, g_left, 80, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    count_call("MPI_Recv");
    count_rcv(g_left, 80, 64);
    MPI_Ssend(token, 64, MPI_BYTE, g_right, 80, MPI_COMM_WORLD);
    count_call("MPI_Ssend");
    count_msg(g_right, 80, 64);
  }

  /* Bsend copies into the attached buffer and returns; detach waits for it. */
  const int buffer_size = 1024 + MPI_BSEND_OVERHEAD;
  char* buffer = malloc((size_t)buffer_size);
  char out[1024], in[1024];
  memset(out, g_rank, sizeof out);
  MPI_Buffer_attach(buffer, buffer_size);
  count_call("MPI_Buffer_attach");
  MPI_Bsend(out, 1024, MPI_BYTE, g_right, 81, MPI_COMM_WORLD);
  count_call("MPI_Bsend");
  count_msg(g_right, 81, 1024);
  MPI_Recv(in, 1024, MPI_BYTE, g_left, 81, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  count_call("MPI_Recv");
  count_rcv(g_left, 81, 1024);
  COUNT_CHECK(in[1023] == (char)g_left);
  void* detached = NULL;
  int detached_size = 0;
  MPI_Buffer_detach(&detached, &detached_size);
  count_call("MPI_Buffer_detach");
  COUNT_CHECK(detached == buffer && detached_size == buffer_size);
  free(buffer);

  /* Rsend is only correct once the receive is posted: the barrier proves it. */
  double ready_out = g_rank, ready_in = -1;
  MPI_Request request;
  MPI_Irecv(&ready_in, 1, MPI_DOUBLE, g_left, 82, MPI_COMM_WORLD, &request);
  count_call("MPI_Irecv");
  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");
  MPI_Rsend(&ready_out, 1, MPI_DOUBLE, g_right, 82, MPI_COMM_WORLD);
  count_call("MPI_Rsend");
  count_msg(g_right, 82, sizeof(double));
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  count_call("MPI_Wait");
  count_rcv(g_left, 82, sizeof(double));
  COUNT_CHECK(ready_in == g_left);
}

/* Section 8: the same tags as on the world, on other communicators. */
static void SubCommunicators(MPI_Comm* dup) {
  /* Key = world rank, so rank h of half `color` is world rank 2h + color. */
  const int color = g_rank % 2;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, color, g_rank, &half);
  count_call("MPI_Comm_split");
  int h = 0, hs = 0;
  MPI_Comm_rank(half, &h);
  MPI_Comm_size(half, &hs);
  count_call("MPI_Comm_rank");
  count_call("MPI_Comm_size");
  COUNT_CHECK(h == g_rank / 2);
  const int dst = (h + 1) % hs, src = (h - 1 + hs) % hs;
  double out = g_rank, in = -1, pair[2] = {g_rank, -g_rank};
  MPI_Sendrecv(&out, 1, MPI_DOUBLE, dst, 10, &in, 1, MPI_DOUBLE, src, 10, half, MPI_STATUS_IGNORE);
  count_call("MPI_Sendrecv");
  count_msg(2 * dst + color, 10, sizeof(double));
  count_rcv(2 * src + color, 10, sizeof(double));
  COUNT_CHECK(in == 2 * src + color);
  MPI_Sendrecv_replace(pair, 2, MPI_DOUBLE, dst, 11, src, 11, half, MPI_STATUS_IGNORE);
  count_call("MPI_Sendrecv_replace");
  count_msg(2 * dst + color, 11, 2 * sizeof(double));
  count_rcv(2 * src + color, 11, 2 * sizeof(double));
  COUNT_CHECK(pair[1] == -(2 * src + color));
  MPI_Comm_free(&half);
  count_call("MPI_Comm_free");

  MPI_Comm_dup(MPI_COMM_WORLD, dup);
  count_call("MPI_Comm_dup");
  MPI_Request request;
  MPI_Isend(&out, 1, MPI_DOUBLE, g_right, 10, *dup, &request);
  count_call("MPI_Isend");
  count_msg(g_right, 10, sizeof(double));
  MPI_Recv(&in, 1, MPI_DOUBLE, g_left, 10, *dup, MPI_STATUS_IGNORE);
  count_call("MPI_Recv");
  count_rcv(g_left, 10, sizeof(double));
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  count_call("MPI_Wait");
  COUNT_CHECK(in == g_left);
}

/* Section 9: derived datatypes sent, plain types received. */
static void DerivedTypes(MPI_Comm dup) {
  MPI_Datatype quad, strided;
  MPI_Type_contiguous(4, MPI_INT, &quad);
  count_call("MPI_Type_contiguous");
  MPI_Type_commit(&quad);
  count_call("MPI_Type_commit");
  MPI_Type_vector(4, 2, 5, MPI_DOUBLE, &strided);
  count_call("MPI_Type_vector");
  MPI_Type_commit(&strided);
  count_call("MPI_Type_commit");

  int quads[12], ints[12];
  for (int i = 0; i < 12; ++i)
    quads[i] = g_rank * 100 + i;
  MPI_Sendrecv(quads, 3, quad, g_right, 90, ints, 12, MPI_INT, g_left, 90, dup, MPI_STATUS_IGNORE);
  count_call("MPI_Sendrecv");
  count_msg(g_right, 90, 3 * 4 * sizeof(int));
  count_rcv(g_left, 90, 12 * sizeof(int));
  COUNT_CHECK(ints[11] == g_left * 100 + 11);

  double grid[17], picked[8]; /* 4 blocks of 2 with stride 5: 0,1 5,6 10,11 15,16 */
  for (int i = 0; i < 17; ++i)
    grid[i] = g_rank * 100 + i;
  MPI_Sendrecv(grid, 1, strided, g_right, 91, picked, 8, MPI_DOUBLE, g_left, 91, dup,
               MPI_STATUS_IGNORE);
  count_call("MPI_Sendrecv");
  count_msg(g_right, 91, 8 * sizeof(double));
  count_rcv(g_left, 91, 8 * sizeof(double));
  COUNT_CHECK(picked[2] == g_left * 100 + 5 && picked[7] == g_left * 100 + 16);

  MPI_Type_free(&quad);
  MPI_Type_free(&strided);
  count_calls("MPI_Type_free", 2);
}

int main(int argc, char** argv) {
  count_init(&argc, &argv, &g_rank, &g_size);
  if (g_size < 2 || g_size > 64) {
    if (g_rank == 0) fprintf(stderr, "p2p: needs 2 to 64 ranks\n");
    MPI_Finalize();
    return 2;
  }
  g_left = (g_rank + g_size - 1) % g_size;
  g_right = (g_rank + 1) % g_size;

  char* big = malloc(kBigBytes);
  TokenRing(big);
  free(big);
  PairwiseAllToAll();
  NonblockingAllToAll();
  HaloExchange();
  Persistent();
  ProbeAnySource();
  SendModes();
  MPI_Comm dup;
  SubCommunicators(&dup);
  DerivedTypes(dup);
  MPI_Comm_free(&dup);
  count_call("MPI_Comm_free");

  MPI_Barrier(MPI_COMM_WORLD);
  count_call("MPI_Barrier");
  if (g_rank == 0)
    printf("p2p: %d ranks; rank 0 sent %ld and received %ld messages\n", g_size, count_state.sent,
           count_state.received);
  count_line("after MPI_Finalize 1");
  count_write(count_dir(argc, argv), g_rank);
  MPI_Finalize();
  return 0;
}
