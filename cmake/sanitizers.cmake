# ASan + UBSan for the whole build when PLX_SANITIZE is on. UBSan is made fatal so a
# test that trips it fails instead of printing and passing.
if(PLX_SANITIZE)
  set(PLX_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
  # C and C++ only: gfortran would bring gcc's sanitizer runtime next to clang's.
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${PLX_SAN_FLAGS}>")
  add_link_options("$<$<LINK_LANGUAGE:C,CXX>:${PLX_SAN_FLAGS}>")
endif()
if(PLX_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "PLX_FUZZ needs clang (libFuzzer)")
endif()
