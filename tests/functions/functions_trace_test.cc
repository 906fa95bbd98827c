// Programs built with -finstrument-functions (by gcc and by clang) traced with
// `parallax record`: the trace's function states must form exactly the call
// tree each program logs for itself (programs/call_log.h), with names
// demangled, file:line at each function's definition, and the filters of
// PLX_FUNCTIONS / PLX_FUNCTIONS_EXCLUDE and the category switch applied.
#include <fnmatch.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

struct Call {
  std::string name;
  int depth = 0;
  std::string parent;  // "" at depth 0
  std::string file;    // from the trace only
  uint32_t line = 0;
};
using Calls = std::vector<Call>;
// Per thread, keyed by the name of its first outermost call (main, worker).
using Threads = std::map<std::string, Calls>;

// One line per call: indentation by depth, name, "< parent".
std::string Show(const Calls& calls) {
  std::string out;
  for (const Call& c : calls)
    out += std::string(2 * c.depth, ' ') + c.name + "  < " + c.parent + "\n";
  return out;
}

std::map<std::string, std::string> Show(const Threads& threads) {
  std::map<std::string, std::string> out;
  for (const auto& [root, calls] : threads)
    out[root] = Show(calls);
  return out;
}

// The program's own log: "T<n> > name" on entry, "T<n> <" on exit.
Threads ParseLog(const std::string& output) {
  std::map<int, Calls> by_index;
  std::map<int, std::vector<std::string>> stacks;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 4 || line[0] != 'T') continue;
    const size_t space = line.find(' ');
    const int t = std::atoi(line.substr(1, space).c_str());
    std::vector<std::string>& stack = stacks[t];
    if (line.compare(space, 3, " < ") == 0 || line.compare(space, 2, " <") == 0) {
      if (!stack.empty()) stack.pop_back();
      continue;
    }
    const std::string name = line.substr(space + 3);
    by_index[t].push_back(
        {name, static_cast<int>(stack.size()), stack.empty() ? "" : stack.back(), "", 0});
    stack.push_back(name);
  }
  Threads out;
  for (auto& [t, calls] : by_index)
    if (!calls.empty()) out[calls.front().name] = calls;
  return out;
}

struct Traced {
  Threads threads;
  uint64_t leave_mismatch = 0, leave_without_enter = 0, unclosed = 0;
};

// The slices of category "functions", per thread in enter order.
Traced ReadTrace(const std::string& path) {
  Traced out;
  StatusOr<std::unique_ptr<format::TraceFile>> file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return out;
  StatusOr<model::Trace> loaded = model::LoadTrace(**file);
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok()) return out;
  const model::Trace& trace = *loaded;
  out.leave_mismatch = trace.stats.leave_mismatch;
  out.leave_without_enter = trace.stats.leave_without_enter;
  std::map<uint32_t, Calls> by_thread;
  std::map<uint32_t, std::vector<std::string>> open;  // names by depth
  const model::SliceTable& s = trace.slices;
  for (size_t i = 0; i < s.size(); ++i) {
    const model::State& state = trace.states[s.state[i]];
    if (state.category == model::kNone || trace.categories[state.category].name != "functions")
      continue;
    std::vector<std::string>& names = open[s.thread[i]];
    const int depth = s.depth[i];
    names.resize(depth);
    Call c{state.name, depth, depth > 0 ? names[depth - 1] : "", "", 0};
    if (s.callsite[i] != model::kNone) {
      c.file = trace.callsites[s.callsite[i]].file;
      c.line = trace.callsites[s.callsite[i]].line;
    }
    if (s.flags[i] & model::SliceTable::kUnclosed) ++out.unclosed;
    names.push_back(state.name);
    by_thread[s.thread[i]].push_back(c);
  }
  for (auto& [t, calls] : by_thread)
    out.threads[calls.front().name] = calls;
  return out;
}

// The calls a filter keeps, each under its nearest kept caller.
Threads Keep(const Threads& threads, const std::function<bool(const std::string&)>& keep) {
  Threads out;
  for (const auto& [root, calls] : threads) {
    Calls kept;
    std::vector<std::pair<int, std::string>> stack;  // kept ancestors: (log depth, name)
    for (const Call& c : calls) {
      while (!stack.empty() && stack.back().first >= c.depth)
        stack.pop_back();
      if (!keep(c.name)) continue;
      kept.push_back({c.name, static_cast<int>(stack.size()),
                      stack.empty() ? "" : stack.back().second, "", 0});
      stack.emplace_back(c.depth, c.name);
    }
    if (!kept.empty()) out[kept.front().name] = kept;
  }
  return out;
}

bool Matches(const std::vector<std::string>& patterns, const std::string& name) {
  for (const std::string& p : patterns)
    if (::fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

#ifdef PLX_SANITIZE_BUILD
constexpr bool kSanitizer = true;
#else
constexpr bool kSanitizer = false;
#endif

struct Recorded {
  int exit_code = -1;
  Threads logged;
  Traced traced;
};

// `parallax record` of tests/functions/<program> with `args` and `env`.
Recorded Record(const std::string& program, const std::vector<std::string>& args,
                std::vector<std::string> env = {}) {
  TempDir dir;
  const std::string trace = dir.File("t.plx");
  std::vector<std::string> argv = {"/usr/bin/timeout",
                                   "120",
                                   BuildPath("src/cli/parallax"),
                                   "record",
                                   "-o",
                                   trace,
                                   "--",
                                   BuildPath("tests/functions/" + program)};
  argv.insert(argv.end(), args.begin(), args.end());
  const char* libdir = std::getenv("PLX_MPI_LIBDIR");  // else this build's library
  env.push_back("PLX_MPI_LIBDIR=" + (libdir ? std::string(libdir) : BuildPath("src/mpi")));
  env.push_back("ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0");
  RunResult r = RunProgram(argv, env);
  Recorded run;
  run.exit_code = r.exit_code;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  run.logged = ParseLog(r.output);
  run.traced = ReadTrace(trace);
  return run;
}

// The programs as each compiler built them; a visible note for those not built.
std::vector<std::string> Variants(const std::string& program) {
  std::vector<std::string> out;
  for (const char* cc : {"gcc", "clang"}) {
    const std::string name = program + "_" + cc;
    if (::access(BuildPath("tests/functions/" + name).c_str(), X_OK) == 0)
      out.push_back(name);
    else
      std::printf("note: %s is not tested: %s\n", name.c_str(),
                  kSanitizer && std::string(cc) == "gcc"
                      ? "gcc's sanitizer runtime cannot join clang's in a sanitizer build"
                      : "the compiler is not installed");
  }
  return out;
}

// Exactly the logged tree, well nested, nothing left open.
void ExpectSameTree(const std::string& program, const Recorded& run, const Threads& expected) {
  EXPECT_EQ(Show(run.traced.threads), Show(expected)) << program;
  EXPECT_EQ(run.traced.leave_mismatch, 0u) << program;
  EXPECT_EQ(run.traced.leave_without_enter, 0u) << program;
  EXPECT_EQ(run.traced.unclosed, 0u) << program;
}

size_t Count(const Calls& calls, const std::string& name) {
  size_t n = 0;
  for (const Call& c : calls)
    n += c.name == name;
  return n;
}

int FibCalls(int n) {
  return n < 2 ? 1 : 1 + FibCalls(n - 1) + FibCalls(n - 2);
}

// The line of programs/<source> holding "def:<key>".
uint32_t DefinitionLine(const std::string& source, const std::string& key) {
  std::istringstream in(ReadFile(SourcePath("tests/functions/programs/" + source)));
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n)
    if ((line + " ").find("def:" + key + " ") != std::string::npos) return n;
  return 0;
}

TEST(Functions, CallTreeOfACProgram) {
  const int k = 3, n = 5;
  for (const std::string& program : Variants("calls")) {
    SCOPED_TRACE(program);
    Recorded run = Record(program, {std::to_string(k), std::to_string(n)});
    ASSERT_EQ(run.logged.size(), 2u) << "main and worker log their calls";
    ExpectSameTree(program, run, run.logged);
    // Counts the program's structure dictates, apart from its log.
    const Calls& main = run.traced.threads["main"];
    const Calls& worker = run.traced.threads["worker"];
    EXPECT_EQ(Count(main, "a_top"), static_cast<size_t>(k));
    EXPECT_EQ(Count(main, "c_leaf"), static_cast<size_t>(k));
    EXPECT_EQ(Count(main, "fib"), static_cast<size_t>(FibCalls(n)));
    EXPECT_EQ(Count(worker, "fib"), static_cast<size_t>(FibCalls(n - 1)));
    EXPECT_EQ(Count(main, "twice"), static_cast<size_t>(k + 2));  // chain + 2 solver steps
    EXPECT_EQ(Count(main, "solver_step"), 2u);
    // Every function with the file:line of its definition (debug info).
    for (const auto& [root, calls] : run.traced.threads)
      for (const Call& c : calls) {
        EXPECT_TRUE(c.file.ends_with("/calls.c")) << c.name << " in " << c.file;
        EXPECT_EQ(c.line, DefinitionLine("calls.c", c.name)) << c.name;
      }
  }
}

TEST(Functions, DemangledCxxNames) {
  for (const std::string& program : Variants("templates")) {
    SCOPED_TRACE(program);
    Recorded run = Record(program, {"4"});
    ASSERT_EQ(run.logged.size(), 1u);
    ExpectSameTree(program, run, run.logged);
    const Calls& main = run.traced.threads["main"];
    EXPECT_EQ(Count(main, "int geo::Square<int>(int)"), 4u);
    EXPECT_EQ(Count(main, "errors::Thrower(int)"), 3u);
    const std::map<std::string, std::string> keys = {
        {"int geo::Square<int>(int)", "Square"}, {"double geo::Square<double>(double)", "Square"},
        {"geo::Circle::Area() const", "Area"},   {"geo::Sum(int)", "Sum"},
        {"errors::Thrower(int)", "Thrower"},     {"errors::After()", "After"},
        {"errors::Catcher()", "Catcher"}};
    for (const Call& c : main) {
      auto key = keys.find(c.name);
      if (key == keys.end()) continue;
      EXPECT_TRUE(c.file.ends_with("/templates.cc")) << c.name << " in " << c.file;
      EXPECT_EQ(c.line, DefinitionLine("templates.cc", key->second)) << c.name;
    }
  }
}

// longjmp skips exit hooks: the skipped frames are closed when a later hook
// shows they are gone, and once the function that called setjmp returns
// everything nests as it did.
TEST(Functions, LongjmpSkipsExits) {
  for (const std::string& program : Variants("longjmp")) {
    SCOPED_TRACE(program);
    Recorded run = Record(program, {});
    ASSERT_EQ(run.logged.size(), 1u);
    EXPECT_EQ(run.traced.leave_mismatch, 0u);
    EXPECT_EQ(run.traced.unclosed, 0u);
    // The outer levels exactly; inside a jump_* function, the same calls.
    auto outer = [](const Threads& t) {
      return Keep(t, [](const std::string& name) {
        return name == "main" || name.starts_with("jump_") || name == "after";
      });
    };
    Threads expected_outer = outer(run.logged);
    Threads traced_outer = outer(run.traced.threads);
    // "after" inside jump_then_call may nest under the skipped frames; compare
    // the outermost two levels.
    for (Threads* t : {&expected_outer, &traced_outer})
      for (auto& [root, calls] : *t)
        std::erase_if(calls, [](const Call& c) { return c.depth > 1; });
    EXPECT_EQ(Show(traced_outer), Show(expected_outer));
    for (const char* name : {"rec", "deep1", "deep2", "jump", "after"})
      EXPECT_EQ(Count(run.traced.threads["main"], name), Count(run.logged["main"], name)) << name;
    // Detected when jump_then_return exits: exact.
    auto sub = [](const Calls& calls, const std::string& root) {
      Calls out;
      int depth = -1;
      for (const Call& c : calls) {
        if (depth >= 0 && c.depth <= depth) break;
        if (depth < 0 && c.name == root) depth = c.depth;
        if (depth >= 0) out.push_back(c);
      }
      return Show(out);
    };
    EXPECT_EQ(sub(run.traced.threads["main"], "jump_then_return"),
              sub(run.logged["main"], "jump_then_return"));
    EXPECT_EQ(sub(run.traced.threads["main"], "jump_recursion"),
              sub(run.logged["main"], "jump_recursion"));
  }
}

TEST(Functions, IncludeFilter) {
  const std::vector<std::string> include = {"fib", "a_*", "c_leaf", "worker"};
  for (const std::string& program : Variants("calls")) {
    SCOPED_TRACE(program);
    Recorded run = Record(program, {"2", "4"}, {"PLX_FUNCTIONS=fib, a_*,c_leaf,worker"});
    ExpectSameTree(program, run,
                   Keep(run.logged, [&](const std::string& n) { return Matches(include, n); }));
    EXPECT_EQ(Count(run.traced.threads["a_top"], "b_mid"), 0u);
  }
}

TEST(Functions, ExcludeFilter) {
  const std::vector<std::string> exclude = {"*helper*", "twice", "b_*"};
  for (const std::string& program : Variants("calls")) {
    SCOPED_TRACE(program);
    Recorded run = Record(program, {"2", "4"}, {"PLX_FUNCTIONS_EXCLUDE=*helper*,twice,b_*"});
    ExpectSameTree(program, run,
                   Keep(run.logged, [&](const std::string& n) { return !Matches(exclude, n); }));
  }
}

TEST(Functions, IncludeThenExclude) {
  for (const std::string& program : Variants("calls")) {
    SCOPED_TRACE(program);
    Recorded run = Record(program, {"2", "4"},
                          {"PLX_FUNCTIONS=solver_*,main,*helper*", "PLX_FUNCTIONS_EXCLUDE=*_step"});
    ExpectSameTree(program, run, Keep(run.logged, [](const std::string& n) {
                     return n == "main" || n == "solver_run" || n == "step_helper";
                   }));
    EXPECT_EQ(Count(run.traced.threads["main"], "step_helper"), 2u);
  }
}

TEST(Functions, SwitchedOff) {
  for (const std::string& program : Variants("calls")) {
    SCOPED_TRACE(program);
    for (const char* setting :
         {"PLX_FUNCTIONS=0", "PLX_FUNCTIONS=none", "PLX_LEVEL=all,-functions"}) {
      Recorded run = Record(program, {"2", "4"}, {setting});
      EXPECT_EQ(run.logged.size(), 2u) << setting;
      EXPECT_TRUE(run.traced.threads.empty()) << setting << "\n"
                                              << Show(run.traced.threads)["main"];
    }
  }
}

}  // namespace
}  // namespace plx::testing
