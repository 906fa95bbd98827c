/* The calls bench/functions_bench.cc measures: the same tiny function built
 * with -finstrument-functions (traced_tiny, excluded_tiny: this file is
 * compiled with it) and without instrumentation (plain_tiny). */
#define NOINLINE __attribute__((noinline))

NOINLINE int traced_tiny(int x) {
  __asm__ volatile("");
  return x + 1;
}

NOINLINE int excluded_tiny(int x) {
  __asm__ volatile("");
  return x + 1;
}

NOINLINE __attribute__((no_instrument_function)) int plain_tiny(int x) {
  __asm__ volatile("");
  return x + 1;
}
