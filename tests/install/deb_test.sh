#!/usr/bin/env bash
# The Debian package (cmake/package.cmake, `make package`): builds it with
# cpack from the build tree and checks with dpkg-deb
#   - its fields (Package, Version, Architecture);
#   - that it holds the program, the runtime and MPI libraries, the headers,
#     the pkg-config and CMake files, the viewer, the man pages and the docs,
#     all under /usr;
#   - its Depends: every library an ELF file of the package needs (readelf
#     NEEDED, located by ldd) comes from a package it depends on (for the
#     MPICH tracing library and parallax-mpi-mpich, one it recommends), and
#     every package it depends on is needed by some file;
#   - that the unpacked package's own `parallax record` traces an MPI run with
#     its own library.
#   deb_test.sh BUILD_DIR SOURCE_DIR
# Exits 77 (skipped) when the viewer is not built or dpkg-deb is missing.
set -euo pipefail
build=$(cd "$1" && pwd -P)
source=$(cd "$2" && pwd -P)
if [ ! -f "$source/web/dist/index.html" ]; then
  echo "SKIP: the viewer is not built ($source/web/dist); run 'make web'"
  exit 77
fi
command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plx-deb-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# shellcheck source=installed.sh disable=SC1091
. "$(dirname "$0")/installed.sh"

echo "== cpack -G DEB"
start=$(date +%s)
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack"; }
deb=$(find "$tmp/out" -maxdepth 1 -name '*.deb' | head -1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; fail "cpack made no .deb"; }
echo "   $(basename "$deb"): $(du -h "$deb" | cut -f1) in $(($(date +%s) - start)) s"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = parallax ] || fail "Package is '$(field Package)'"
version=$("$build/src/cli/parallax" --version | awk '{print $2}')  # "parallax 0.1.0"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', the program's is $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] ||
  fail "Architecture is '$(field Architecture)'"
echo "   Depends: $(field Depends)"
echo "   Recommends: $(field Recommends)"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/files"
for f in /usr/bin/parallax /usr/bin/parallax-mpi /usr/lib/libparallax.so /usr/lib/libparallax-mpi.so \
  /usr/include/parallax/parallax.h /usr/include/parallax/parallax.hpp \
  /usr/lib/pkgconfig/parallax.pc /usr/lib/cmake/Parallax/ParallaxConfig.cmake \
  /usr/lib/cmake/Parallax/ParallaxTargets.cmake /usr/share/parallax/web/index.html \
  /usr/share/man/man1/parallax.1 /usr/share/man/man1/parallax-serve.1 \
  /usr/share/doc/parallax/README.md; do
  grep -qx "$f" "$tmp/files" || fail "the package lacks $f"
done
if grep -v '^/usr\(/\|$\)' "$tmp/files" | grep -v '^/$'; then
  fail "the package installs the files above outside /usr"
fi

# Package names of a Depends-style field, without versions and alternatives' bars.
names() { sed 's/[,|]/\n/g' | sed 's/(.*)//; s/[[:space:]]//g' | grep -v '^$' || true; }
field Depends | names | sort -u >"$tmp/depends"
field Recommends | names | sort -u >"$tmp/recommends"
# The package that owns a library path (dpkg knows /lib and /usr/lib apart).
owner() {
  local path=$1 real
  real=$(readlink -f "$path")
  for p in "$path" "$real" "/usr$path" "${path#/usr}" "/usr$real" "${real#/usr}"; do
    dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1 && return 0
  done
  return 1
}

dpkg-deb -x "$deb" "$tmp/root"
: >"$tmp/needed"
while IFS= read -r -d '' f; do
  head -c 4 "$f" | grep -q 'ELF' || continue
  declared=$tmp/depends
  case $(basename "$f") in
    libparallax-mpich* | parallax-mpi-mpich) declared=$tmp/declared-mpich
      sort -u "$tmp/depends" "$tmp/recommends" >"$declared" ;;
  esac
  ldd "$f" >"$tmp/ldd"
  for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    # "libz.so.1 => /lib/.../libz.so.1 (0x...)", or "/lib64/ld-linux-x86-64.so.2 (0x...)".
    path=$(awk -v lib="$lib" '$1 == lib && $2 == "=>" {print $3}
      substr($1, length($1) - length(lib)) == "/" lib {print $1}' "$tmp/ldd" | head -1)
    if [ -z "$path" ] || [ "$path" = "not" ]; then
      fail "${f#"$tmp/root"} needs $lib, which ldd cannot find"
    fi
    pkg=$(owner "$path") || fail "no package owns $path (${f#"$tmp/root"} needs it)"
    echo "$pkg" >>"$tmp/needed"
    grep -qx "$pkg" "$declared" ||
      fail "${f#"$tmp/root"} needs $lib from $pkg, which the package does not declare"
  done
done < <(find "$tmp/root" -type f -print0)
sort -u -o "$tmp/needed" "$tmp/needed"
unneeded=$(comm -23 "$tmp/depends" "$tmp/needed")
[ -z "$unneeded" ] || fail "Depends names packages no file needs: $unneeded"

# The unpacked package as a root of its own: its program, with its own
# library, records an MPI run (nothing from the build tree but the example).
echo "== the package's parallax records mpirun -np 2 mpi_ring"
expect_preload "$tmp/root/usr/bin/parallax" "$tmp/root/usr/lib" "$tmp"
record_mpi_ring "$tmp/root/usr/bin/parallax" "$build" "$tmp" || true
echo "== ok: $(wc -l <"$tmp/files") entries; needed packages: $(tr '\n' ' ' <"$tmp/needed")"
