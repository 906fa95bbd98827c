/* A 2-D Jacobi stencil (Laplace's equation, top edge held at 1) on a 2-D grid
 * of MPI processes from MPI_Dims_create/MPI_Cart_create. Each iteration
 * exchanges halos with the four neighbours by MPI_Irecv/MPI_Isend +
 * MPI_Waitall (columns as an MPI_Type_vector); every few iterations an
 * MPI_Allreduce sums the residual. Rank 0 prints the last residual.
 *
 *   mpirun -np N mpi_stencil [--size N] [--iters N] [--check-every N] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int size;        /* interior points per side of the global grid */
  int iters;       /* Jacobi iterations */
  int check_every; /* iterations between residual reductions */
} Options;

typedef struct {
  MPI_Comm cart;
  int up, down, left, right; /* neighbours, MPI_PROC_NULL at the edge */
  int rows, cols;            /* interior points of this block */
  MPI_Datatype column;       /* one interior column of a block with halos */
} Block;

#define AT(grid, b, r, c) ((grid)[(size_t)(r) * ((b)->cols + 2) + (c)])

/* Points [begin, end) of `n` split in `parts` as evenly as possible. */
static void Split(int n, int parts, int index, int* begin, int* end) {
  const int base = n / parts, extra = n % parts;
  *begin = index * base + (index < extra ? index : extra);
  *end = *begin + base + (index < extra ? 1 : 0);
}

static void MakeBlock(const Options* opt, Block* b) {
  int size, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &b->cart);
  MPI_Comm_rank(b->cart, &rank);
  MPI_Cart_coords(b->cart, rank, 2, coords);
  MPI_Cart_shift(b->cart, 0, 1, &b->up, &b->down);
  MPI_Cart_shift(b->cart, 1, 1, &b->left, &b->right);
  int begin, end;
  Split(opt->size, dims[0], coords[0], &begin, &end);
  b->rows = end - begin;
  Split(opt->size, dims[1], coords[1], &begin, &end);
  b->cols = end - begin;
  MPI_Type_vector(b->rows, 1, b->cols + 2, MPI_DOUBLE, &b->column);
  MPI_Type_commit(&b->column);
}

/* Halo exchange: rows are contiguous, columns strided. */
static void Exchange(const Block* b, double* g) {
  MPI_Request requests[8];
  const int rows = b->rows, cols = b->cols;
  MPI_Irecv(&AT(g, b, 0, 1), cols, MPI_DOUBLE, b->up, 0, b->cart, &requests[0]);
  MPI_Irecv(&AT(g, b, rows + 1, 1), cols, MPI_DOUBLE, b->down, 1, b->cart, &requests[1]);
  MPI_Irecv(&AT(g, b, 1, 0), 1, b->column, b->left, 2, b->cart, &requests[2]);
  MPI_Irecv(&AT(g, b, 1, cols + 1), 1, b->column, b->right, 3, b->cart, &requests[3]);
  MPI_Isend(&AT(g, b, rows, 1), cols, MPI_DOUBLE, b->down, 0, b->cart, &requests[4]);
  MPI_Isend(&AT(g, b, 1, 1), cols, MPI_DOUBLE, b->up, 1, b->cart, &requests[5]);
  MPI_Isend(&AT(g, b, 1, cols), 1, b->column, b->right, 2, b->cart, &requests[6]);
  MPI_Isend(&AT(g, b, 1, 1), 1, b->column, b->left, 3, b->cart, &requests[7]);
  MPI_Waitall(8, requests, MPI_STATUSES_IGNORE);
}

/* One Jacobi sweep from `g` into `next`; returns the sum of squared changes. */
static double Sweep(const Block* b, const double* g, double* next) {
  double change = 0;
  for (int r = 1; r <= b->rows; ++r) {
    for (int c = 1; c <= b->cols; ++c) {
      const double v = 0.25 * (AT(g, b, r - 1, c) + AT(g, b, r + 1, c) + AT(g, b, r, c - 1) +
                               AT(g, b, r, c + 1));
      const double d = v - AT(g, b, r, c);
      change += d * d;
      AT(next, b, r, c) = v;
    }
  }
  return change;
}

static int ParseOptions(int argc, char** argv, Options* opt) {
  for (int i = 1; i < argc; ++i) {
    int* target = NULL;
    if (strcmp(argv[i], "--size") == 0)
      target = &opt->size;
    else if (strcmp(argv[i], "--iters") == 0)
      target = &opt->iters;
    else if (strcmp(argv[i], "--check-every") == 0)
      target = &opt->check_every;
    if (!target || i + 1 >= argc) return 0;
    char* end = NULL;
    long v = strtol(argv[++i], &end, 10);
    if (end == argv[i] || *end != 0 || v < 1 || v > 100000) return 0;
    *target = (int)v;
  }
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  Options opt = {.size = 512, .iters = 200, .check_every = 10};
  if (!ParseOptions(argc, argv, &opt) || opt.size < world_size) {
    if (world_rank == 0)
      fprintf(stderr,
              "usage: mpirun -np N %s [--size N] [--iters N] [--check-every N]\n"
              "A 2-D Jacobi stencil on an N x N grid (N >= processes).\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  Block b;
  MakeBlock(&opt, &b);
  const size_t points = (size_t)(b.rows + 2) * (size_t)(b.cols + 2);
  double* grid = calloc(points, sizeof(double));
  double* next = calloc(points, sizeof(double));
  if (b.up == MPI_PROC_NULL) { /* the fixed top edge lives in the halo row */
    for (int c = 0; c < b.cols + 2; ++c)
      AT(grid, &b, 0, c) = AT(next, &b, 0, c) = 1.0;
  }

  const double start = MPI_Wtime();
  double residual = 0;
  for (int it = 1; it <= opt.iters; ++it) {
    Exchange(&b, grid);
    const double change = Sweep(&b, grid, next);
    double* swap = grid;
    grid = next;
    next = swap;
    if (it % opt.check_every == 0 || it == opt.iters) {
      double total = 0;
      MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, b.cart);
      residual = sqrt(total);
    }
  }
  const double seconds = MPI_Wtime() - start;
  int dims[2], periods[2], coords[2];
  MPI_Cart_get(b.cart, 2, dims, periods, coords);
  if (world_rank == 0)
    printf("stencil: %dx%d grid on %dx%d ranks, %d iterations in %.3f s, residual %.3e\n", opt.size,
           opt.size, dims[0], dims[1], opt.iters, seconds, residual);
  MPI_Type_free(&b.column);
  MPI_Comm_free(&b.cart);
  free(grid);
  free(next);
  MPI_Finalize();
  return 0;
}
