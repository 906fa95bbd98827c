// A C++ program for tests/functions: functions in a namespace, a function
// template instantiated twice, member functions, and an exception thrown
// through two frames. Each logs the name the C++ ABI demangler gives it.
// "def:KEY" marks where a function is defined (the tests check file:line).
#include <cstdlib>

#include "call_log.h"

namespace {
volatile int sink;
}

// Logs entry and exit, exit also when an exception passes.
struct Scope {
  NOINST explicit Scope(const char* name) { log_enter(name); }
  NOINST ~Scope() { log_leave(); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
};

namespace geo {

template <typename T>
T Square(T x) {  // def:Square
  Scope s(sizeof(T) == sizeof(int) ? "int geo::Square<int>(int)"
                                   : "double geo::Square<double>(double)");
  return x * x;
}

class Circle {
 public:
  explicit Circle(double r) : r_(r) { Scope s("geo::Circle::Circle(double)"); }
  double Area() const {  // def:Area
    Scope s("geo::Circle::Area() const");
    return 3.0 * Square(r_);
  }

 private:
  double r_;
};

int Sum(int n) {  // def:Sum
  Scope s("geo::Sum(int)");
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += Square(i);
  return total;
}

}  // namespace geo

namespace errors {

void Thrower(int depth) {  // def:Thrower
  Scope s("errors::Thrower(int)");
  if (depth == 0) throw depth;
  Thrower(depth - 1);
}

void After() {  // def:After
  Scope s("errors::After()");
  sink = 1;
}

void Catcher() {  // def:Catcher
  Scope s("errors::Catcher()");
  try {
    Thrower(2);
  } catch (int) {
    After();
  }
  After();
}

}  // namespace errors

int main(int argc, char** argv) {
  log_thread(0);
  {
    Scope s("main");
    const int n = argc > 1 ? static_cast<int>(std::strtol(argv[1], nullptr, 10)) : 3;
    sink = geo::Sum(n);
    const geo::Circle c(2.0);
    sink = static_cast<int>(c.Area());
    errors::Catcher();
  }
  log_print(1);
  return 0;
}
