// Query strings, access tokens and viewer file paths: the parts of the
// server that read what a client sends.
#include "server/api/query_params.h"

#include <gtest/gtest.h>

#include <set>

#include "server/api/access_token.h"
#include "server/api/static_files.h"

namespace plx::server {
namespace {

QueryParams Parse(std::string_view q) {
  auto p = QueryParams::Parse(q);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return *p;
}

TEST(QueryParamsTest, DecodesEscapesAndPlus) {
  const QueryParams q = Parse("q=MPI%5FSend+x&empty=&flag&a=1&a=2");
  EXPECT_EQ(q.String("q", ""), "MPI_Send x");
  EXPECT_EQ(q.String("empty", "d"), "");
  EXPECT_TRUE(q.Has("flag"));
  EXPECT_EQ(q.String("a", ""), "1");  // the first of repeated names
  EXPECT_EQ(q.String("none", "d"), "d");
  EXPECT_FALSE(QueryParams::Parse("q=%4").ok());
  EXPECT_FALSE(QueryParams::Parse("q=%g0").ok());
}

TEST(QueryParamsTest, NumbersAreCheckedAndNamed) {
  const QueryParams q = Parse("a=1.5&b=-3&c=1e3&d=x&e=inf&f=");
  EXPECT_EQ(*q.Number("a", 0, 0, 10), 1.5);
  EXPECT_EQ(*q.Number("c", 0, 0, 1e4), 1000);
  EXPECT_EQ(*q.Number("missing", 7, 0, 10), 7);
  EXPECT_EQ(*q.Integer("b", 0, -5, 5), -3);
  EXPECT_FALSE(q.Integer("a", 0, 0, 10).ok());
  EXPECT_FALSE(q.Number("b", 0, 0, 10).ok());
  EXPECT_FALSE(q.Number("e", 0, -1e300, 1e300).ok());
  EXPECT_FALSE(q.Number("f", 0, 0, 10).ok());
  const Status bad = q.Number("d", 0, 0, 10).status();
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("parameter 'd': 'x' is not a number in [0, 10]"), std::string::npos)
      << bad.message();
  EXPECT_NE(q.RequiredNumber("z", 0, 1).status().message().find("'z' is required"),
            std::string::npos);
}

TEST(QueryParamsTest, ListsBooleansAndChoices) {
  const QueryParams q = Parse("rows=0,3,2&bad=1,,2&big=9&t=true&f=0&x=maybe&m=rma");
  EXPECT_EQ(*q.IndexList("rows", 5, true), (std::vector<uint32_t>{0, 3, 2}));
  EXPECT_FALSE(q.IndexList("bad", 5, true).ok());
  EXPECT_FALSE(q.IndexList("big", 5, true).ok());
  EXPECT_TRUE(q.IndexList("none", 5, false)->empty());
  EXPECT_FALSE(q.IndexList("none", 5, true).ok());
  EXPECT_TRUE(*q.Bool("t", false));
  EXPECT_FALSE(*q.Bool("f", true));
  EXPECT_TRUE(*q.Bool("none", true));
  EXPECT_FALSE(q.Bool("x", true).ok());
  EXPECT_EQ(*q.Choice("m", "messages", {"messages", "rma"}), "rma");
  // Ranges: a-b stands for a..b; a reversed, open or oversized one is refused.
  const QueryParams r = Parse("rows=7,2-4,5-5&back=4-2&open=3-&huge=0-4294967294");
  EXPECT_EQ(*r.IndexList("rows", 9, true), (std::vector<uint32_t>{7, 2, 3, 4, 5}));
  EXPECT_FALSE(r.IndexList("rows", 4, true).ok());
  EXPECT_NE(r.IndexList("back", 9, true).status().message().find("'4-2' is not"),
            std::string::npos);
  EXPECT_FALSE(r.IndexList("open", 9, true).ok());
  EXPECT_NE(r.IndexList("huge", UINT32_MAX - 1, true).status().message().find("more than"),
            std::string::npos);
  EXPECT_EQ(*q.Choice("none", "messages", {"messages", "rma"}), "messages");
  EXPECT_NE(q.Choice("x", "a", {"a", "b"}).status().message().find("one of a b"),
            std::string::npos);
}

TEST(AccessTokenTest, TokensAreRandomHex) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string t = NewAccessToken();
    EXPECT_EQ(t.size(), 32u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 50u);
  EXPECT_TRUE(TokenEquals("abc", "abc"));
  EXPECT_FALSE(TokenEquals("abc", "abd"));
  EXPECT_FALSE(TokenEquals("abc", "ab"));
  EXPECT_FALSE(TokenEquals("", "abc"));
}

TEST(AccessTokenTest, FoundInQueryHeaderOrCookie) {
  EXPECT_EQ(RequestToken("a=1&token=q1", "Bearer h1", "plx_token=c1"), "q1");
  EXPECT_EQ(RequestToken("a=1", "Bearer h1", "plx_token=c1"), "h1");
  EXPECT_EQ(RequestToken("", "", "x=1; plx_token=c1; y=2"), "c1");
  EXPECT_EQ(RequestToken("token=", "Basic zzz", "other=1"), "");
  EXPECT_NE(TokenCookie("abc").find("HttpOnly"), std::string::npos);
}

TEST(StaticFilesTest, PathsStayInsideTheRoot) {
  EXPECT_EQ(*ResolveWebPath("/w", "/"), "/w/index.html");
  EXPECT_EQ(*ResolveWebPath("/w", "/assets/app.js"), "/w/assets/app.js");
  EXPECT_EQ(*ResolveWebPath("/w", "//assets/./app.js"), "/w/assets/app.js");
  EXPECT_FALSE(ResolveWebPath("/w", "/../etc/passwd").has_value());
  EXPECT_FALSE(ResolveWebPath("/w", "/assets/../../x").has_value());
  EXPECT_FALSE(ResolveWebPath("/w", "relative").has_value());
  EXPECT_EQ(ContentTypeFor("/w/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("/w/a.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("/w/a.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("/w/noext"), "application/octet-stream");
}

}  // namespace
}  // namespace plx::server
