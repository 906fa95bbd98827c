# The layering of src/ (src/layers.txt) made physical: each layer compiles
# against an include root of its own, which holds only the layers it may
# reach, so a disallowed #include "layer/..." fails with "No such file".
# tools/check_layers.py still checks the table line by line (ctest
# LayeringTest.*); the roots make the compiler refuse the same includes.
#
# plx_layer_roots() reads the table once, at configure time, and makes under
# ${CMAKE_BINARY_DIR}/layer_include/<layer>/ (server/api etc. for the folders
# of a split layer):
#   include/  a symlink per layer reachable, to src/<layer>, and `parallax`
#             to include/parallax where the table allows it; for a split layer,
#             a real <layer>/ directory with a symlink per folder reachable;
#   gen/      a symlink per reachable layer to ${PLX_GEN_DIR}/<layer>, so the
#             generated headers (format/records.gen.h, ...) are held to the
#             same table.
# Reachable is the layer itself, the layers its line names, and what those may
# reach in turn: a header of an allowed layer must compile where it is
# included (capture/runtime.h includes format/, so counters and threads, which
# may include capture but not format, reach format too; the script still
# refuses their own "format/..." includes).
#
# plx_layer_includes(TARGET [LAYER layer] [SOURCES file...]) gives TARGET
# (PRIVATE) the roots of LAYER, by default the layer of the calling
# directory; with SOURCES only those files of TARGET get them (src/counters
# compiles inside the capture runtime's object library).

set(PLX_LAYER_TABLE ${PROJECT_SOURCE_DIR}/src/layers.txt)
set(PLX_LAYER_ROOTS ${CMAKE_BINARY_DIR}/layer_include)

# A layer that is `layer/folder` in the table; "" for one that is not.
function(_plx_layer_split key out)
  set(split "")
  if(key MATCHES "^([^/]+)/")
    set(split ${CMAKE_MATCH_1})
  endif()
  set(${out} "${split}" PARENT_SCOPE)
endfunction()

# The layers (or, for `layer/folder`, the folders) KEY reaches: itself, its
# line of the table, and what those reach in turn.
function(_plx_layer_reach key out)
  set(reach ${key})
  set(todo ${key})
  while(todo)
    list(POP_FRONT todo item)
    get_property(uses GLOBAL PROPERTY PLX_LAYER_USES_${item})
    foreach(used IN LISTS uses)
      if(NOT used IN_LIST reach)
        list(APPEND reach ${used})
        if(NOT used STREQUAL "parallax")
          list(APPEND todo ${used})
        endif()
      endif()
    endforeach()
  endwhile()
  set(${out} ${reach} PARENT_SCOPE)
endfunction()

function(_plx_layer_link target link)
  file(CREATE_LINK ${target} ${link} SYMBOLIC RESULT failed)
  if(failed)
    message(FATAL_ERROR "layers: cannot link ${link} -> ${target}: ${failed}")
  endif()
endfunction()

function(plx_layer_roots)
  # Re-run CMake when the table changes, so the roots follow it.
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${PLX_LAYER_TABLE})
  file(STRINGS ${PLX_LAYER_TABLE} lines)
  set(keys "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line STREQUAL "")
      continue()
    endif()
    if(NOT line MATCHES "^([A-Za-z0-9_]+(/[A-Za-z0-9_]+)?):(.*)$")
      message(FATAL_ERROR "${PLX_LAYER_TABLE}: expected 'layer: layers it may include', "
                          "got '${line}'")
    endif()
    set(key ${CMAKE_MATCH_1})
    string(REGEX MATCHALL "[^ \t]+" uses "${CMAKE_MATCH_3}")
    list(APPEND keys ${key})
    set_property(GLOBAL PROPERTY PLX_LAYER_USES_${key} ${uses})
  endforeach()
  set(split_layers "")
  foreach(key IN LISTS keys)
    _plx_layer_split(${key} split)
    if(split)
      list(APPEND split_layers ${split})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES split_layers)
  set_property(GLOBAL PROPERTY PLX_LAYER_KEYS ${keys})
  set_property(GLOBAL PROPERTY PLX_SPLIT_LAYERS ${split_layers})

  # Made afresh each time, so a layer taken off a line loses its link.
  # (REMOVE_RECURSE removes the symlinks, never what they point to.)
  file(REMOVE_RECURSE ${PLX_LAYER_ROOTS})
  foreach(key IN LISTS keys)
    _plx_layer_split(${key} split)
    if(key IN_LIST split_layers)
      continue()  # a split layer's folders get roots, not the layer
    endif()
    set(root ${PLX_LAYER_ROOTS}/${key})
    file(MAKE_DIRECTORY ${root}/include ${root}/gen)
    if(split)
      # The folders of its own layer it reaches, inside a real <layer>/.
      _plx_layer_reach(${key} folders)
      file(MAKE_DIRECTORY ${root}/include/${split})
      foreach(folder IN LISTS folders)
        _plx_layer_link(${PROJECT_SOURCE_DIR}/src/${folder} ${root}/include/${folder})
      endforeach()
      _plx_layer_reach(${split} layers)
    else()
      _plx_layer_reach(${key} layers)
    endif()
    foreach(layer IN LISTS layers)
      if(layer STREQUAL "parallax")
        _plx_layer_link(${PROJECT_SOURCE_DIR}/include/parallax ${root}/include/parallax)
        continue()
      endif()
      if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/src/${layer})
        message(FATAL_ERROR "${PLX_LAYER_TABLE}: '${key}' reaches '${layer}', which is no "
                            "layer of src/")
      endif()
      # Every layer's generated headers in one place, so no link dangles.
      file(MAKE_DIRECTORY ${PLX_GEN_DIR}/${layer})
      _plx_layer_link(${PLX_GEN_DIR}/${layer} ${root}/gen/${layer})
      if(NOT layer STREQUAL split)
        _plx_layer_link(${PROJECT_SOURCE_DIR}/src/${layer} ${root}/include/${layer})
      endif()
    endforeach()
  endforeach()
endfunction()

function(plx_layer_includes target)
  cmake_parse_arguments(ARG "" "LAYER" "SOURCES" ${ARGN})
  set(key ${ARG_LAYER})
  if(NOT key)
    # The calling directory's layer: src/<layer>/..., or src/<layer>/<folder>
    # for a layer split into folders in the table.
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
    string(REPLACE "/" ";" parts "${rel}")
    list(GET parts 0 key)
    get_property(split_layers GLOBAL PROPERTY PLX_SPLIT_LAYERS)
    if(key IN_LIST split_layers)
      list(GET parts 1 folder)
      set(key ${key}/${folder})
    endif()
  endif()
  get_property(keys GLOBAL PROPERTY PLX_LAYER_KEYS)
  if(NOT key IN_LIST keys OR NOT IS_DIRECTORY ${PLX_LAYER_ROOTS}/${key}/include)
    message(FATAL_ERROR "plx_layer_includes(${target}): '${key}' has no line of its own in "
                        "${PLX_LAYER_TABLE}")
  endif()
  set(dirs ${PLX_LAYER_ROOTS}/${key}/include ${PLX_LAYER_ROOTS}/${key}/gen)
  if(ARG_SOURCES)
    set_source_files_properties(${ARG_SOURCES} TARGET_DIRECTORY ${target}
                                PROPERTIES INCLUDE_DIRECTORIES "${dirs}")
  else()
    target_include_directories(${target} PRIVATE ${dirs})
  endif()
endfunction()
