// Parallax capture API for C++: RAII scopes over the C API in parallax.h.
//
//   void solve() {
//     PLX_SCOPE("solve");            // enters "solve" here, leaves at the closing brace
//     PLX_SCOPE_COLOR("inner", 0x3366cc);
//     PLX_ANNOTATE("residual %g", r);
//   }
#ifndef PARALLAX_PARALLAX_HPP_
#define PARALLAX_PARALLAX_HPP_

#include "parallax/parallax.h"

namespace plx {

/// Enters a state on construction and leaves it on destruction.
class Scope {
 public:
  explicit Scope(plx_srcloc* loc) noexcept : loc_(loc) { plx_scope_enter(loc_); }
  ~Scope() { plx_scope_leave(loc_); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  plx_srcloc* loc_;
};

/// The same for a state handle from plx_state_define().
class StateScope {
 public:
  explicit StateScope(plx_state_t state) noexcept : state_(state) { plx_state_enter(state_); }
  ~StateScope() { plx_state_leave(state_); }
  StateScope(const StateScope&) = delete;
  StateScope& operator=(const StateScope&) = delete;

 private:
  plx_state_t state_;
};

}  // namespace plx

#define PLX_CONCAT_IMPL_(a, b) a##b
#define PLX_CONCAT2_(a, b) PLX_CONCAT_IMPL_(a, b)
#define PLX_UNIQUE_(prefix) PLX_CONCAT2_(prefix, __LINE__)

/// Records the enclosing block as a state named `name` (a string literal).
#define PLX_SCOPE(name) PLX_SCOPE_IN(name, PLX_COLOR_AUTO, nullptr)
/// The same with a colour 0xRRGGBB.
#define PLX_SCOPE_COLOR(name, color) PLX_SCOPE_IN(name, color, nullptr)
/// The same with a colour and a category (PLX_LEVEL selects categories).
#define PLX_SCOPE_IN(name, color, category)                                         \
  static plx_srcloc PLX_UNIQUE_(plx_loc_) = PLX_SRCLOC_INIT(name, color, category); \
  ::plx::Scope PLX_UNIQUE_(plx_scope_)(&PLX_UNIQUE_(plx_loc_))

#endif  // PARALLAX_PARALLAX_HPP_
