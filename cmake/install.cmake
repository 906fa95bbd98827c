# The install layout and its build-tree counterpart. The program finds its
# libraries and viewer from its own path (PLX_LIB_FROM_BIN, PLX_WEB_FROM_BIN,
# set in the top CMakeLists.txt), never through a path of the build.

# The build tree's counterpart of share/parallax/web, where a parallax run
# from the build tree finds the viewer (src/server/api/static_files.cc).
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/parallax)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/web/dist ${CMAKE_BINARY_DIR}/share/parallax/web SYMBOLIC)
