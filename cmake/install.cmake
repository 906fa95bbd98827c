# What `cmake --install` (and `make install`, the .deb) puts under a prefix:
#   bin/parallax                      the command
#   lib/libparallax.so*               the runtime (-lparallax), with
#   lib/libparallax-mpi*.so*          the MPI tracing libraries `parallax record` preloads
#   lib/pkgconfig/parallax.pc         pkg-config
#   lib/cmake/Parallax/               find_package(Parallax): Parallax::parallax
#   include/parallax/                 the instrumentation API
#   share/parallax/web/               the built viewer (web/dist)
#   share/man/man1/parallax*.1        from the program's own --help
#   share/doc/parallax/               README.md and docs/
# Nothing installed names the build or source tree: the program finds its
# libraries and viewer from its own path (PLX_LIB_FROM_BIN, PLX_WEB_FROM_BIN,
# set in the top CMakeLists.txt), the pkg-config and CMake files from theirs,
# so a prefix still works after it is moved (tests/install).

# The build tree's counterpart of share/parallax/web, where a parallax run
# from the build tree finds the viewer (src/server/api/static_files.cc).
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/parallax)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/web/dist ${CMAKE_BINARY_DIR}/share/parallax/web SYMBOLIC)

set(PLX_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Parallax)

# The program; RUNPATH relative to it, should it ever link a library of ours.
set_target_properties(parallax_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${PLX_LIB_FROM_BIN}")
install(TARGETS parallax_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# parallax-mpi and parallax-mpi-mpich, where they are built (docs/distributed.md).
foreach(program parallax_mpi_cli parallax_mpich_cli)
  if(TARGET ${program})
    set_target_properties(${program} PROPERTIES INSTALL_RPATH "$ORIGIN/${PLX_LIB_FROM_BIN}")
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

install(TARGETS parallax EXPORT ParallaxTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(lib parallax-mpi parallax-mpich)
  if(TARGET ${lib})
    install(TARGETS ${lib} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/parallax
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

# The viewer: built by scripts/build-web (make web), not by CMake.
install(CODE "
  if(NOT EXISTS \"${PROJECT_SOURCE_DIR}/web/dist/index.html\")
    message(FATAL_ERROR \"the viewer is not built (${PROJECT_SOURCE_DIR}/web/dist): \"
                        \"run 'make web' or scripts/build-web first\")
  endif()")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/web/dist/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/parallax/web)

# Man pages from the built program's --help, one per command (scripts/gen-man).
set(PLX_MAN_DIR ${CMAKE_BINARY_DIR}/man/man1)
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/man/stamp
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${PLX_MAN_DIR}
  # (In a sanitizer build, a leak at exit must not fail the build.)
  COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
          $<TARGET_FILE:Python3::Interpreter> ${PROJECT_SOURCE_DIR}/scripts/gen-man
          $<TARGET_FILE:parallax_cli> ${PLX_MAN_DIR} --version ${PROJECT_VERSION}
  COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/man/stamp
  DEPENDS parallax_cli ${PROJECT_SOURCE_DIR}/scripts/gen-man
  COMMENT "Generating man pages from parallax --help")
add_custom_target(plx_man ALL DEPENDS ${CMAKE_BINARY_DIR}/man/stamp)
install(DIRECTORY ${PLX_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# find_package(Parallax): the exported target plus a version file. The
# generated files locate the prefix from their own folder.
include(CMakePackageConfigHelpers)
install(EXPORT ParallaxTargets NAMESPACE Parallax:: DESTINATION ${PLX_CMAKE_PACKAGE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ParallaxConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/cmake/ParallaxConfig.cmake
                              INSTALL_DESTINATION ${PLX_CMAKE_PACKAGE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/ParallaxConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/ParallaxConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/ParallaxConfigVersion.cmake
        DESTINATION ${PLX_CMAKE_PACKAGE_DIR})

# pkg-config: the prefix from the .pc file's own folder (${pcfiledir}).
file(RELATIVE_PATH PLX_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" PLX_PC_TO_PREFIX "${PLX_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/parallax.pc.in ${CMAKE_BINARY_DIR}/parallax.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/parallax.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
