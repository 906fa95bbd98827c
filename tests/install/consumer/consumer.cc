// A program that uses the installed instrumentation API, from C++ (scopes)
// and C (a state handle, an event): the install test runs it and looks for
// "consumer_solve" and "consumer_step" in the trace it writes to PLX_OUTPUT.
#include <cstdio>
#include <parallax/parallax.hpp>

namespace {

double Solve(int step) {
  PLX_SCOPE("consumer_solve");
  double sum = 0;
  for (int i = 1; i <= 1000 * (step + 1); ++i)
    sum += 1.0 / i;
  return sum;
}

}  // namespace

int main() {
  const plx_state_t step_state = plx_state_define("consumer_step", PLX_COLOR_AUTO, "user");
  const plx_event_t residual = plx_event_define("consumer_residual", "user");
  double total = 0;
  for (int step = 0; step < 10; ++step) {
    plx_state_enter(step_state);
    total += Solve(step);
    plx_event_double(residual, total);
    plx_state_leave(step_state);
  }
  std::printf("consumer: %.3f, tracing %s\n", total, plx_enabled() ? "on" : "off");
  return 0;
}
