# How much debug information a RelWithDebInfo build carries (docs/install.md).
# "lines" (the default) keeps functions and file:line tables: enough for
# backtraces, sanitizer reports and profilers, and it halves compile and link
# times against "full", which adds variables and types for a debugger.
set(PLX_DEBUG_INFO lines CACHE STRING "Debug information in RelWithDebInfo builds: lines or full")
set_property(CACHE PLX_DEBUG_INFO PROPERTY STRINGS lines full)
if(PLX_DEBUG_INFO STREQUAL "lines")
  foreach(lang C CXX)
    string(REGEX REPLACE "(^| )-g( |$)" "\\1-g1\\2" CMAKE_${lang}_FLAGS_RELWITHDEBINFO
                         "${CMAKE_${lang}_FLAGS_RELWITHDEBINFO}")
  endforeach()
elseif(NOT PLX_DEBUG_INFO STREQUAL "full")
  message(FATAL_ERROR "PLX_DEBUG_INFO is '${PLX_DEBUG_INFO}': it must be lines or full")
endif()
