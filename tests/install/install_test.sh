#!/usr/bin/env bash
# An installed Parallax works from wherever its prefix ends up: installs the
# build into a temporary prefix, moves the prefix, and from there
#   - finds no path of the build or source tree in any installed file;
#   - `parallax record` preloads the prefix's own MPI library and traces an MPI
#     run of examples/mpi/mpi_ring;
#   - `parallax serve` serves the viewer of the prefix (a marker put into its
#     index.html comes back over 127.0.0.1) and the API, with the token;
#   - a project outside the tree builds against the prefix with
#     find_package(Parallax) and with `pkg-config parallax`, and writes a trace.
#   install_test.sh BUILD_DIR SOURCE_DIR
# Exits 77 (skipped) when the viewer is not built: installing needs it.
set -euo pipefail
build=$(cd "$1" && pwd -P)
source=$(cd "$2" && pwd -P)
if [ ! -f "$source/web/dist/index.html" ]; then
  echo "SKIP: the viewer is not built ($source/web/dist); run 'make web'"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plx-install-test.XXXXXX")
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "== $*"; }
# shellcheck source=installed.sh disable=SC1091
. "$(dirname "$0")/installed.sh"

step "install into $tmp/staged, move it to $tmp/moved"
cmake --install "$build" --prefix "$tmp/staged" >"$tmp/install.log" ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
mv "$tmp/staged" "$tmp/moved"
prefix=$tmp/moved
parallax=$prefix/bin/parallax
for f in bin/parallax bin/parallax-mpi lib/libparallax.so include/parallax/parallax.h include/parallax/parallax.hpp \
  lib/pkgconfig/parallax.pc lib/cmake/Parallax/ParallaxConfig.cmake \
  lib/cmake/Parallax/ParallaxConfigVersion.cmake share/parallax/web/index.html \
  share/man/man1/parallax.1 share/man/man1/parallax-record.1 share/doc/parallax/README.md; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done

step "no installed file names $build or $source"
# Text files whole; ELF files by their RUNPATH/RPATH and read-only data (their
# debug information may name the sources, and is no lookup path).
if grep -rIl -e "$build" -e "$source" "$prefix"; then
  fail "the files above name the build or source tree"
fi
while IFS= read -r -d '' f; do
  head -c 4 "$f" | grep -q 'ELF' || continue
  if readelf -d "$f" | grep -E 'RPATH|RUNPATH' | grep -e "$build" -e "$source"; then
    fail "$f has a run path into the build or source tree"
  fi
  if readelf -p .rodata "$f" 2>/dev/null | grep -a -e "$build" -e "$source"; then
    fail "$f holds a path of the build or source tree"
  fi
done < <(find "$prefix" -type f -print0)
page=$prefix/share/man/man1/parallax-record.1
grep -q '^\.TH PARALLAX\\-RECORD 1' "$page" || fail "$page has no .TH line"
if command -v man >/dev/null; then
  man -l "$page" 2>/dev/null | grep -q 'parallax record \[OPTIONS\] COMMAND' ||
    fail "man -l $page shows no synopsis"
fi

step "parallax record preloads the prefix's library"
expect_preload "$parallax" "$prefix/lib" "$tmp"

step "parallax record -- mpirun -np 2 mpi_ring"
if record_mpi_ring "$parallax" "$build" "$tmp"; then
  trace=$tmp/ring.plx
else
  trace=$tmp/sh.plx  # the traced shell's
  [ -f "$trace" ] || trace=
fi

python_dir=$prefix/lib/python3/dist-packages
if [ -d "$python_dir/parallax" ] && [ -n "$trace" ]; then
  step "the Python module imports from the moved prefix and reads the recorded trace"
  threads=$(PYTHONPATH=$python_dir /usr/bin/python3 -c \
    "import parallax, sys; print(len(parallax.open(sys.argv[1]).threads()))" "$trace") ||
    fail "import parallax from $python_dir"
  [ "$threads" -ge 1 ] || fail "the Python module reads $threads threads from $trace"
fi

step "parallax serve: the prefix's viewer and the API"
marker="<!-- served from the moved prefix $$ -->"
echo "$marker" >>"$prefix/share/parallax/web/index.html"
"$parallax" serve ${trace:+"$trace"} --no-browser --port 0 >"$tmp/serve.log" 2>&1 &
server=$!
url=
for _ in $(seq 200); do
  url=$(grep -Eo 'http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]+' "$tmp/serve.log" | head -1) || true
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/serve.log"; fail "parallax serve printed no URL"; }
base=${url%%/\?*}
token=${url##*token=}
# GET URL into FILE; prints the status code (python3: curl may be missing).
get() {
  python3 - "$1" "$2" <<'EOF'
import sys, urllib.error, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=20) as r:
        code, body = r.status, r.read()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read()
open(sys.argv[2], "wb").write(body)
print(code)
EOF
}
code=$(get "$base/?token=$token" "$tmp/index.html")
[ "$code" = 200 ] || fail "GET / gave $code"
grep -qF "$marker" "$tmp/index.html" || fail "GET / is not the prefix's index.html"
code=$(get "$base/api/v1/traces" "$tmp/denied.json")
[ "$code" = 401 ] || fail "GET /api/v1/traces without the token gave $code, not 401"
code=$(get "$base/api/v1/traces?token=$token" "$tmp/traces.json")
[ "$code" = 200 ] || fail "GET /api/v1/traces gave $code"
if [ -n "$trace" ]; then
  grep -q "$(basename "$trace" .plx)" "$tmp/traces.json" ||
    fail "/api/v1/traces does not list $trace: $(cat "$tmp/traces.json")"
fi
kill "$server"
wait "$server" 2>/dev/null || true
server=

check_consumer() {  # program, trace: runs it and finds its states in the trace
  PLX_OUTPUT=$2 "$1" >"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; fail "$1 failed"; }
  local lib
  lib=$(ldd "$1" | awk '$1 ~ /^libparallax\.so/ {print $3}')
  if [ -z "$lib" ] || [ "$(readlink -f "$lib")" != "$(readlink -f "$prefix/lib/libparallax.so")" ]; then
    fail "$1 does not load the prefix's libparallax.so: $(ldd "$1")"
  fi
  "$parallax" info --json "$2" >"$2.json" || fail "$1 wrote no readable trace $2"
  for state in consumer_solve consumer_step; do
    grep -q "\"$state\"" "$2.json" || fail "the trace of $1 lacks the state $state"
  done
}

step "an outside project with find_package(Parallax)"
if ! cmake -S "$source/tests/install/consumer" -B "$tmp/cmake-consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/consumer-cmake.log" 2>&1 ||
  ! cmake --build "$tmp/cmake-consumer" >>"$tmp/consumer-cmake.log" 2>&1; then
  cat "$tmp/consumer-cmake.log"
  fail "the find_package(Parallax) build"
fi
check_consumer "$tmp/cmake-consumer/consumer" "$tmp/cmake-consumer.plx"

step "an outside project with pkg-config parallax"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
version=$("$parallax" --version)
[ "parallax $(pkg-config --modversion parallax)" = "$version" ] ||
  fail "pkg-config --modversion parallax is not the program's version ($version)"
mkdir -p "$tmp/pc-consumer"
# shellcheck disable=SC2046  # the flags are words
g++ -O2 -o "$tmp/pc-consumer/consumer" "$source/tests/install/consumer/consumer.cc" \
  $(pkg-config --cflags --libs parallax) -Wl,-rpath,"$(pkg-config --variable=libdir parallax)" ||
  fail "the pkg-config build"
check_consumer "$tmp/pc-consumer/consumer" "$tmp/pc-consumer.plx"

echo "== ok: installed size $(du -sh "$prefix" | cut -f1)"
