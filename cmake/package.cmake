# `make package` (the `package` target): a Debian package of what
# cmake/install.cmake installs, under /usr, stripped.
#
# Depends: the Debian packages of every shared library the installed files
# link (checked by tests/install/deb_test.sh against readelf and ldd), but
# MPICH's only as Recommends: libparallax-mpich.so is loaded into MPICH jobs
# alone, which bring their MPICH with them, and parallax-mpi-mpich is run
# only under MPICH's launcher.
set(PLX_PACKAGE_CONTACT "Parallax maintainers <parallax@localhost>"
    CACHE STRING "Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME parallax)
set(CPACK_PACKAGE_VENDOR "Parallax")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${PLX_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "trace MPI and threaded programs and see them in a browser viewer")
set(CPACK_PACKAGE_DESCRIPTION
    "Parallax records what every thread and MPI process of a program does into a
compact, crash-safe trace (parallax record, or linking with -lparallax),
analyses it (wait states, critical path, imbalance, anomalies, deadlocks)
and serves a browser viewer on it (parallax view).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# Minimum versions as dpkg-shlibdeps gives them on Debian 12.
set(plx_depends "libc6 (>= 2.34)" "libstdc++6 (>= 12)" "libgcc-s1 (>= 4.2)" "zlib1g (>= 1:1.2.6)"
    "libzstd1 (>= 1.5.2)" "libxxhash0 (>= 0.7.0)" "libfmt9 (>= 9.1.0)"
    "libopen-trace-format2-10 (>= 3.0.2)" "libsqlite3-0 (>= 3.38.0)" "libedit2 (>= 3.1-20130611)")
if(PLX_JEMALLOC AND NOT PLX_SANITIZE)
  list(APPEND plx_depends "libjemalloc2 (>= 5.0.0)")
endif()
if(TARGET parallax-mpi OR TARGET parallax-mpich)
  list(APPEND plx_depends "libdw1 (>= 0.160)")
endif()
# `parallax record` preloads libparallax-mpi.so into every program it runs,
# MPI or not (unless --mpi mpich or an MPICH launcher): its Open MPI is needed.
if(TARGET parallax-mpi)
  list(APPEND plx_depends "libopenmpi3 (>= 4.1.4)")
endif()
list(JOIN plx_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# MPICH only for the MPICH jobs it traces: recommended.
if(TARGET parallax-mpich)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libmpich12 (>= 4.0.2)")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin | mpich, otf2-tools")

include(CPack)
