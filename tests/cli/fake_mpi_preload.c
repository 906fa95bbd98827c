/* A stand-in for libparallax-mpi.so / libparallax-mpich.so in the tests of
 * `parallax record`: each process that loads it appends a line to the file
 * $PLX_FAKE_MPI_LOG names, which shows that LD_PRELOAD reached it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void AnnounceLoad(void) {
  const char* log = getenv("PLX_FAKE_MPI_LOG");
  if (log == NULL || log[0] == '\0') return;
  FILE* f = fopen(log, "a");
  if (f == NULL) return;
  fputs("loaded\n", f);
  fclose(f);
}
