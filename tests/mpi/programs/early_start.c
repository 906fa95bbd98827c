/* early_start: starts recording before MPI_Init (plx_init and a user state),
 * then one MPI_Barrier. Run alone (a singleton MPI run), its own first
 * output path is also the final trace's, which the merge at MPI_Finalize
 * must keep. Linked with the tracing library (it calls the plx API).
 *
 *   early_start             writes $PLX_OUTPUT (default early_start.plx) */
#include <mpi.h>
#include <parallax/parallax.h>

int main(int argc, char** argv) {
  plx_init();
  const plx_state_t setup = plx_state_define("setup", 0, "user");
  plx_state_enter(setup);
  plx_state_leave(setup);
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
