# Warnings for every target of ours: -Wall -Wextra everywhere, -Werror on request (CI).
add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-Wall;-Wextra;-Wshadow;-Wno-unused-parameter>"
                    $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
                    $<$<COMPILE_LANGUAGE:Fortran>:-Wall>)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-c99-designator>)
endif()
if(PLX_WERROR)
  add_compile_options(-Werror)
endif()
