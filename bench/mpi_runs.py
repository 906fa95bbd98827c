"""What the benchmarks of `parallax-mpi` share: the command that runs it
under Open MPI's mpirun with each process under /usr/bin/time, and the
largest peak memory those processes left."""
import os
import shutil


def parallax_mpi(build, processes, args, work):
    """`mpirun -np PROCESSES parallax-mpi ARGS`, oversubscribed and unbound
    (a process may use several cores), each process's peak resident memory
    written to WORK/rss.<pid>."""
    mpirun = shutil.which("mpirun.openmpi") or "mpirun"
    cmd = [mpirun, "--oversubscribe", "--bind-to", "none", "--mca", "btl", "self,vader",
           "-np", str(processes), "/bin/sh", "-c",
           f'exec /usr/bin/time -o "{work}/rss.$$" -f %M "$0" "$@"',
           f"{build}/src/cli/parallax-mpi", *args]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return cmd


def take_peak_kb(work):
    """The largest peak (KB) of the rss.* files in `work`, which it removes."""
    peak = 0
    for name in os.listdir(work):
        if name.startswith("rss."):
            with open(os.path.join(work, name)) as f:
                peak = max(peak, int(f.read().split()[-1]))
            os.unlink(os.path.join(work, name))
    return peak
