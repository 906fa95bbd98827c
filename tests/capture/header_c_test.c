/* parallax.h compiles on its own as C11 and its macros work in C. */
#include <parallax/parallax.h>
#include <stdio.h>

int main(void) {
  PLX_BEGIN("c.region");
  PLX_MARK_INT("c.value", 42);
  PLX_MARK_DOUBLE("c.ratio", 0.5);
  PLX_MARK_STRING("c.text", "hello");
  PLX_ANNOTATE("c %d", 1);
  PLX_END("c.region");
  plx_state_t s = plx_state_define("c.state", 0x112233, "user");
  plx_state_enter(s);
  plx_state_leave(s);
  printf("ok\n");
  return 0;
}
