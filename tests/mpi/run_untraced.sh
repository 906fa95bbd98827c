#!/bin/sh
# Runs every MPI test program untraced, under Open MPI (mpirun) and, for the
# *_mpich builds, MPICH (mpirun.mpich), and checks each run's counts files with
# check_counts.py: the programs' own bookkeeping, before any tracer is involved.
#
#   tests/mpi/run_untraced.sh BUILD_DIR [--np "4 8"] [--ltrace] [--keep]
#
# --np: process counts for Open MPI (default "4 8"; MPICH runs the first one).
# --ltrace: also run each rank under `ltrace -c` and compare the call counts
# with ltrace's (needs ltrace; slower). --keep: leave the
# counts directories (printed) in place. Exits 1 if any check failed.
set -u
build=${1:?usage: run_untraced.sh BUILD_DIR [--np "4 8"] [--ltrace] [--keep]}
shift
nps="4 8"
ltrace=0
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --np) nps=$2; shift ;;
    --ltrace) ltrace=1 ;;
    --keep) keep=1 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
programs=$(cd "$build/tests/mpi" && pwd) || exit 2
work=$(mktemp -d /tmp/plx-mpi-untraced.XXXXXX)
failures=0

root_flags=""
[ "$(id -u)" = 0 ] && root_flags="--allow-run-as-root"

# ltrace wrapper: one summary per rank, named by the rank the launcher sets.
# @MAIN: only the program's own calls (MPICH's mpi_send_ calls MPI_Send).
cat >"$work/ltrace-rank" <<'EOF'
#!/bin/sh
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-x}}
exec ltrace -c -e 'MPI_*@MAIN+mpi_*@MAIN' -o "$PLX_LTRACE_DIR/ltrace-$rank.txt" "$@"
EOF
chmod +x "$work/ltrace-rank"

fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# launch FLAVOUR NP PROGRAM ARGS...: mpirun for the flavour, in the foreground.
launch() {
  flavour=$1 np=$2
  shift 2
  if [ "$flavour" = mpich ]; then
    timeout 300 mpirun.mpich -np "$np" "$@"
  else
    timeout 300 mpirun $root_flags --oversubscribe -np "$np" "$@"
  fi
}

# run_checked FLAVOUR NP NAME CHECK_ARGS -- PROGRAM_ARGS: two runs, checked and compared.
run_checked() {
  flavour=$1 np=$2 name=$3 check_args=$4
  suffix=""
  [ "$flavour" = mpich ] && suffix=_mpich
  exe="$programs/$name$suffix"
  [ -x "$exe" ] || { echo "skip $name$suffix (not built)"; return; }
  shift 5
  base="$work/$name$suffix-np$np"
  mkdir -p "$base.1" "$base.2"
  for run in 1 2; do
    wrapper=""
    if [ $ltrace = 1 ] && [ $run = 1 ]; then
      wrapper="$work/ltrace-rank"
      mkdir -p "$base.lt"
    fi
    # shellcheck disable=SC2086 # $wrapper is empty or one word
    if ! PLX_LTRACE_DIR="$base.lt" launch "$flavour" "$np" $wrapper "$exe" "$base.$run" "$@" \
        >"$base.$run.log" 2>&1; then
      fail "$name$suffix np=$np run $run exited non-zero:"
      tail -20 "$base.$run.log"
      return
    fi
  done
  extra=""
  [ $ltrace = 1 ] && extra="--ltrace $base.lt"
  echo "[$flavour] $(head -1 "$base.1.log")"
  # shellcheck disable=SC2086 # $check_args and $extra are lists of words
  python3 "$here/check_counts.py" "$base.1" "$np" --program "$name" $check_args \
    --same-as "$base.2" $extra || failures=$((failures + 1))
}

# run_abort FLAVOUR NP: must exit non-zero, every rank's file written.
run_abort() {
  flavour=$1 np=$2 suffix=""
  [ "$flavour" = mpich ] && suffix=_mpich
  exe="$programs/abort$suffix"
  [ -x "$exe" ] || return
  dir="$work/abort$suffix-np$np"
  mkdir -p "$dir"
  launch "$flavour" "$np" "$exe" "$dir" >"$dir.log" 2>&1
  rc=$?
  if [ $rc = 0 ] || [ $rc = 124 ]; then
    fail "abort$suffix np=$np: exit code $rc (expected the abort's)"
    return
  fi
  grep -q "rank 1 calls MPI_Abort" "$dir.log" || fail "abort$suffix: no message from rank 1"
  echo "[$flavour] abort$suffix np=$np: mpirun exit code $rc"
  python3 "$here/check_counts.py" "$dir" "$np" --program abort || failures=$((failures + 1))
}

# run_sigterm FLAVOUR NP: SIGTERM to mpirun once rank 0 says "ready".
run_sigterm() {
  flavour=$1 np=$2 suffix=""
  [ "$flavour" = mpich ] && suffix=_mpich
  exe="$programs/sigterm$suffix"
  [ -x "$exe" ] || return
  dir="$work/sigterm$suffix-np$np"
  mkdir -p "$dir"
  if [ "$flavour" = mpich ]; then
    mpirun.mpich -np "$np" "$exe" "$dir" 30 >"$dir.log" 2>&1 &
  else
    mpirun $root_flags --oversubscribe -np "$np" "$exe" "$dir" 30 >"$dir.log" 2>&1 &
  fi
  pid=$!
  waited=0
  while ! grep -qs "sigterm: ready" "$dir.log" && [ $waited -lt 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -TERM $pid
  wait $pid
  rc=$?
  [ $waited -ge 600 ] && fail "sigterm$suffix np=$np: never ready"
  echo "[$flavour] sigterm$suffix np=$np: mpirun exit code $rc after SIGTERM"
  python3 "$here/check_counts.py" "$dir" "$np" --program sigterm || failures=$((failures + 1))
}

for flavour in openmpi mpich; do
  flavour_nps=$nps
  if [ $flavour = mpich ]; then
    command -v mpirun.mpich >/dev/null || continue
    flavour_nps=${nps%% *}
  fi
  for np in $flavour_nps; do
    run_checked "$flavour" "$np" p2p "" --
    run_checked "$flavour" "$np" collectives "" --
    run_checked "$flavour" "$np" rma "" --
    run_checked "$flavour" "$np" pcontrol "" --
    run_checked "$flavour" "$np" fortran_p2p "" --
    run_checked "$flavour" "$np" fortran_f08_p2p "" --
    # farm: 60 jobs of ~20 us, worker 1 slow; which worker does what varies,
    # so only the transfers are compared between the runs.
    run_checked "$flavour" "$np" farm "--jobs 60" -- 60 20 1
    run_abort "$flavour" "$np"
    run_sigterm "$flavour" "$np"
  done
done

if [ $keep = 1 ]; then
  echo "counts kept in $work"
else
  rm -rf "$work"
fi
[ $failures = 0 ] && echo "all MPI test programs ok" || echo "$failures failed"
[ $failures = 0 ]
