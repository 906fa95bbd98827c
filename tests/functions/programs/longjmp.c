/* Functions left by longjmp, so their exit hooks never run, for tests/functions:
 * the trace must still nest every later call under its real caller. The log
 * records the skipped exits at the jump (call_log.h's log_unwind_to). */
#include <setjmp.h>
#include <stddef.h>

#include "call_log.h"

static jmp_buf* target;
static int target_depth;
volatile int sink;

static void jump(void) {
  log_enter("jump");
  log_unwind_to(target_depth);
  longjmp(*target, 1);
}

void deep2(void) {
  log_enter("deep2");
  jump();
}

void deep1(void) {
  log_enter("deep1");
  deep2();
  log_leave();
}

/* Jumps from its innermost call when `jump_at_bottom`. */
int rec(int n, int jump_at_bottom) {
  log_enter("rec");
  if (n == 1 && jump_at_bottom) jump();
  int r = n > 1 ? rec(n - 1, jump_at_bottom) + 1 : 0;
  log_leave();
  return r;
}

void after(void) {
  log_enter("after");
  sink = 1;
  log_leave();
}

/* The skipped frames are found when the next call enters (after). */
void jump_then_call(void) {
  log_enter("jump_then_call");
  jmp_buf env;
  target = &env;
  target_depth = log_depth();
  if (setjmp(env) == 0) deep1();
  after();
  log_leave();
}

/* Recursion abandoned at depth 3, then the same function called again. */
void jump_recursion(void) {
  log_enter("jump_recursion");
  jmp_buf env;
  target = &env;
  target_depth = log_depth();
  if (setjmp(env) == 0) sink = rec(3, 1);
  sink = rec(2, 0);
  log_leave();
}

/* The skipped frames are found when this function itself exits. */
void jump_then_return(void) {
  log_enter("jump_then_return");
  jmp_buf env;
  target = &env;
  target_depth = log_depth();
  if (setjmp(env) == 0) deep1();
  log_leave();
}

int main(void) {
  log_thread(0);
  log_enter("main");
  jump_then_call();
  jump_recursion();
  jump_then_return();
  after();
  log_leave();
  log_print(1);
  return 0;
}
