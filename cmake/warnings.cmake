# Warnings for every target of ours: -Wall -Wextra everywhere, -Werror on request (CI).
add_compile_options(-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wno-unused-parameter)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  add_compile_options(-Wno-c99-designator)
endif()
if(PLX_WERROR)
  add_compile_options(-Werror)
endif()
