// plx::Status and plx::StatusOr<T>: the one error type of the Parallax libraries.
// Messages name what failed and where (file, byte offset, field), so a caller can
// print them as they are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace plx {

enum class StatusCode : uint8_t {
  kOk = 0,
  kInvalidArgument,  // bad option or call
  kNotFound,         // no such file, stream, id
  kDataLoss,         // corrupt or truncated input
  kIoError,          // the system refused a read or write
  kUnimplemented,    // valid input we cannot handle yet
  kInternal,         // a bug of ours
};

/// Name of a status code ("data loss", ...).
const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  /// The same status with "context: " put in front of the message.
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return {StatusCode::kInvalidArgument, std::move(m)};
}
inline Status NotFound(std::string m) {
  return {StatusCode::kNotFound, std::move(m)};
}
inline Status DataLoss(std::string m) {
  return {StatusCode::kDataLoss, std::move(m)};
}
inline Status IoError(std::string m) {
  return {StatusCode::kIoError, std::move(m)};
}
inline Status Unimplemented(std::string m) {
  return {StatusCode::kUnimplemented, std::move(m)};
}
inline Status Internal(std::string m) {
  return {StatusCode::kInternal, std::move(m)};
}

/// IoError whose message ends with strerror(errno_value).
Status ErrnoError(std::string_view what, int errno_value);

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design
  StatusOr(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

/// Aborts with file:line and the message; for broken invariants only.
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition);

}  // namespace plx

#define PLX_CHECK(cond) \
  ((cond) ? static_cast<void>(0) : ::plx::CheckFailed(__FILE__, __LINE__, #cond))

#define PLX_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::plx::Status plx_status_ = (expr);        \
    if (!plx_status_.ok()) return plx_status_; \
  } while (0)

#define PLX_CONCAT_INNER_(a, b) a##b
#define PLX_CONCAT_(a, b) PLX_CONCAT_INNER_(a, b)
#define PLX_ASSIGN_OR_RETURN(lhs, expr)                                                     \
  auto PLX_CONCAT_(plx_or_, __LINE__) = (expr);                                             \
  if (!PLX_CONCAT_(plx_or_, __LINE__).ok()) return PLX_CONCAT_(plx_or_, __LINE__).status(); \
  lhs = std::move(PLX_CONCAT_(plx_or_, __LINE__)).value()  // NOLINT(bugprone-macro-parentheses)
