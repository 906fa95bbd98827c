// FunctionFilter: the PLX_FUNCTIONS / PLX_FUNCTIONS_EXCLUDE semantics of
// docs/functions.md, on names and symbol names.
#include "threads/functions/filter.h"

#include <gtest/gtest.h>

namespace plx::functions {
namespace {

TEST(FunctionFilter, EverythingByDefault) {
  for (const char* all : {"", "all", "1", "on", " , "}) {
    FunctionFilter f(all, "");
    EXPECT_FALSE(f.off()) << all;
    EXPECT_TRUE(f.Selects("main", "main")) << all;
    EXPECT_TRUE(f.Selects("ns::f(int)", "_ZN2ns1fEi")) << all;
  }
}

TEST(FunctionFilter, Off) {
  for (const char* off : {"0", "none", "off", " none "}) {
    FunctionFilter f(off, "");
    EXPECT_TRUE(f.off()) << off;
    EXPECT_FALSE(f.Selects("main", "main")) << off;
  }
}

TEST(FunctionFilter, IncludeAndExclude) {
  FunctionFilter f(" solver_* , main,ns::*", "*helper*");
  EXPECT_TRUE(f.Selects("solver_step", "solver_step"));
  EXPECT_TRUE(f.Selects("main", "main"));
  EXPECT_FALSE(f.Selects("solver_helper", "solver_helper"));  // exclusion wins
  EXPECT_FALSE(f.Selects("fib", "fib"));
  EXPECT_TRUE(f.Selects("ns::Square<int>(int)", "_ZN2ns6SquareIiEET_S1_"));
  // The symbol name matches too.
  FunctionFilter mangled("_ZN2ns*", "");
  EXPECT_TRUE(mangled.Selects("ns::f(int)", "_ZN2ns1fEi"));
  EXPECT_FALSE(mangled.Selects("other(int)", "_Z5otheri"));
}

TEST(FunctionFilter, ExcludeOnly) {
  FunctionFilter f("", "twice,b_*");
  EXPECT_FALSE(f.Selects("twice", "twice"));
  EXPECT_FALSE(f.Selects("b_mid", "b_mid"));
  EXPECT_TRUE(f.Selects("a_top", "a_top"));
  EXPECT_TRUE(f.Selects("xb_mid", "xb_mid"));  // whole-name match
}

}  // namespace
}  // namespace plx::functions
