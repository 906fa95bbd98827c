// Status, StatusOr and the PLX_RETURN_IF_ERROR / PLX_ASSIGN_OR_RETURN / PLX_CHECK macros.
#include "base/status.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

namespace plx {
namespace {

TEST(Status, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_TRUE(Status::Ok().ok());
}

TEST(Status, FactoriesSetCodeAndMessage) {
  EXPECT_EQ(InvalidArgument("a").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(NotFound("a").code(), StatusCode::kNotFound);
  EXPECT_EQ(DataLoss("a").code(), StatusCode::kDataLoss);
  EXPECT_EQ(IoError("a").code(), StatusCode::kIoError);
  EXPECT_EQ(Unimplemented("a").code(), StatusCode::kUnimplemented);
  EXPECT_EQ(Internal("a").code(), StatusCode::kInternal);
  Status s = DataLoss("x.plx: offset 64: bad chunk magic");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "x.plx: offset 64: bad chunk magic");
}

TEST(Status, CodeNames) {
  EXPECT_STREQ(StatusCodeName(StatusCode::kOk), "ok");
  EXPECT_STREQ(StatusCodeName(StatusCode::kDataLoss), "data loss");
  EXPECT_STREQ(StatusCodeName(StatusCode::kNotFound), "not found");
  EXPECT_STREQ(StatusCodeName(StatusCode::kIoError), "i/o error");
  EXPECT_STREQ(StatusCodeName(static_cast<StatusCode>(200)), "unknown");
}

TEST(Status, WithContextPrefixesErrorsOnly) {
  Status s = NotFound("stream 3").WithContext("trace.plx");
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "trace.plx: stream 3");
  Status ok = Status::Ok().WithContext("trace.plx");
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.message(), "");
}

TEST(Status, ErrnoErrorEndsWithStrerror) {
  Status s = ErrnoError("/nonexistent", ENOENT);
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.message(), std::string("/nonexistent: ") + std::strerror(ENOENT));
}

TEST(StatusOr, HoldsValueOrStatus) {
  StatusOr<int> v = 42;
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 42);
  EXPECT_EQ(v.value(), 42);
  EXPECT_TRUE(v.status().ok());

  StatusOr<int> e = DataLoss("gone");
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(e.status().message(), "gone");
}

TEST(StatusOr, MoveOnlyValues) {
  StatusOr<std::unique_ptr<std::string>> v = std::make_unique<std::string>("abc");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->get()->size(), 3u);
  std::unique_ptr<std::string> taken = std::move(v).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, "abc");
}

Status FailIf(bool fail, int* reached) {
  PLX_RETURN_IF_ERROR(fail ? InvalidArgument("first") : Status::Ok());
  ++*reached;
  PLX_RETURN_IF_ERROR(Status::Ok());
  ++*reached;
  return Status::Ok();
}

TEST(Macros, ReturnIfError) {
  int reached = 0;
  EXPECT_TRUE(FailIf(false, &reached).ok());
  EXPECT_EQ(reached, 2);
  reached = 0;
  Status s = FailIf(true, &reached);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "first");
  EXPECT_EQ(reached, 0);
}

StatusOr<int> Half(int v) {
  if (v % 2 != 0) return InvalidArgument("odd: " + std::to_string(v));
  return v / 2;
}

// Two PLX_ASSIGN_OR_RETURN in one scope: their hidden temporaries must not clash.
StatusOr<int> Quarter(int v) {
  PLX_ASSIGN_OR_RETURN(int h, Half(v));
  PLX_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

StatusOr<std::unique_ptr<int>> Boxed(int v) {
  if (v < 0) return NotFound("negative");
  return std::make_unique<int>(v);
}

Status Unbox(int v, int* out) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<int> p, Boxed(v));
  *out = *p;
  return Status::Ok();
}

TEST(Macros, AssignOrReturn) {
  StatusOr<int> q = Quarter(12);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(*q, 3);
  StatusOr<int> bad1 = Quarter(7);
  EXPECT_EQ(bad1.status().message(), "odd: 7");
  StatusOr<int> bad2 = Quarter(6);  // 6 -> 3 -> odd
  EXPECT_EQ(bad2.status().message(), "odd: 3");

  int out = 0;
  EXPECT_TRUE(Unbox(5, &out).ok());
  EXPECT_EQ(out, 5);
  out = 0;
  Status s = Unbox(-1, &out);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(out, 0);
}

TEST(MacrosDeathTest, CheckAbortsWithCondition) {
  EXPECT_DEATH(PLX_CHECK(1 + 1 == 3), "check failed: 1 \\+ 1 == 3");
  PLX_CHECK(1 + 1 == 2);  // passes silently
}

}  // namespace
}  // namespace plx
