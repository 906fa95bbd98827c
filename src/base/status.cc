// Status helpers: code names, context prefixes, errno messages, check failures.
#include "base/status.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plx {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kDataLoss:
      return "data loss";
    case StatusCode::kIoError:
      return "i/o error";
    case StatusCode::kUnimplemented:
      return "unimplemented";
    case StatusCode::kInternal:
      return "internal error";
  }
  return "unknown";
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string m(context);
  m += ": ";
  m += message_;
  return Status(code_, std::move(m));
}

Status ErrnoError(std::string_view what, int errno_value) {
  std::string m(what);
  m += ": ";
  m += std::strerror(errno_value);
  return IoError(std::move(m));
}

void CheckFailed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "parallax: %s:%d: check failed: %s\n", file, line, condition);
  std::abort();
}

}  // namespace plx
