# shellcheck shell=bash
# What both install tests check on an installed `parallax` (sourced by
# install_test.sh and deb_test.sh, which define `fail`).

# expect_preload PARALLAX LIBDIR TMP: `parallax record` preloads the
# libparallax-mpi.so under LIBDIR (its own), not another one.
expect_preload() {
  local parallax=$1 libdir=$2 tmp=$3 preload
  # shellcheck disable=SC2016  # the traced shell expands it
  preload=$("$parallax" record -o "$tmp/sh.plx" -- sh -c 'echo "$LD_PRELOAD"' 2>"$tmp/sh.log") ||
    { cat "$tmp/sh.log"; fail "$parallax record -- sh"; }
  case "$preload" in
    "$libdir"/*libparallax-mpi*.so*) ;;
    *) fail "LD_PRELOAD is '$preload', not the library under $libdir" ;;
  esac
}

# record_mpi_ring PARALLAX BUILD TMP: `parallax record -- mpirun -np 2` of
# BUILD's examples/mpi/mpi_ring into TMP/ring.plx, whose ranks and MPI states
# are checked. Returns 1 (nothing recorded) without Open MPI or the example.
record_mpi_ring() {
  local parallax=$1 build=$2 tmp=$3
  local mpirun=/usr/bin/mpirun.openmpi ring=$build/examples/mpi/mpi_ring
  if [ ! -x "$mpirun" ] || [ ! -x "$ring" ]; then
    echo "   (no Open MPI or no examples/mpi/mpi_ring: the MPI run is left out)"
    return 1
  fi
  local root=()
  [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
  "$parallax" record -o "$tmp/ring.plx" -- "$mpirun" "${root[@]}" --oversubscribe \
    --mca btl self,vader -np 2 "$ring" --rounds 20 >"$tmp/ring.log" 2>&1 ||
    { cat "$tmp/ring.log"; fail "$parallax record of the MPI ring"; }
  "$parallax" info --json "$tmp/ring.plx" >"$tmp/ring.json"
  python3 - "$tmp/ring.json" <<'EOF' || fail "the ring's trace is not as expected"
import json, sys
info = json.load(open(sys.argv[1]))
ranks = sorted(p["rank"] for p in info["processes"])
assert ranks == [0, 1], ranks
assert "MPI_Send" in info["states"] and "MPI_Recv" in info["states"], info["states"]
print("   ranks", ranks, "states", len(info["states"]), "events", info["events"])
EOF
}
