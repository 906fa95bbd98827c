// parallax.hpp compiles on its own as C++ and its scopes nest.
#include <cstdio>
#include <parallax/parallax.hpp>

int main() {
  PLX_SCOPE("cxx.outer");
  {
    PLX_SCOPE_COLOR("cxx.inner", 0x445566);
    PLX_SCOPE_IN("cxx.io", PLX_COLOR_AUTO, "io");
  }
  plx::StateScope scope(plx_state_define("cxx.state", PLX_COLOR_AUTO, nullptr));
  std::printf("ok\n");
  return 0;
}
