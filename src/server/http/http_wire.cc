// The request parser's limits and a bytes-in form of reading a request.
#include "server/http/http_wire.h"

#include <boost/asio/buffer.hpp>

namespace plx::server {

namespace http = boost::beast::http;

void LimitRequest(RequestParser& parser) {
  parser.header_limit(kMaxRequestHeader);
  parser.body_limit(kMaxRequestBody);
}

ReadResult ReadRequest(std::string_view bytes) {
  ReadResult r;
  RequestParser parser;
  LimitRequest(parser);
  parser.eager(true);
  while (!parser.is_done()) {
    boost::beast::error_code ec;
    const size_t n =
        parser.put(boost::asio::buffer(bytes.data() + r.used, bytes.size() - r.used), ec);
    r.used += n;
    if (!ec && n == 0) return r;  // kIncomplete
    if (ec == http::error::need_more) {
      if (n == 0 || r.used == bytes.size()) return r;  // kIncomplete
      continue;
    }
    if (ec) {
      const bool large = ec == http::error::header_limit || ec == http::error::body_limit;
      r.kind = large ? ReadResult::kTooLarge : ReadResult::kBad;
      r.error = ec.message();
      return r;
    }
    if (!parser.is_done() && r.used == bytes.size()) return r;  // kIncomplete
  }
  r.kind = ReadResult::kComplete;
  r.request = parser.release();
  return r;
}

std::string AnswerWsMessage(std::string_view text) {
  if (text.find("\"ping\"") != std::string_view::npos) return R"({"type":"pong"})";
  return R"({"type":"error","error":"unknown message; only {\"type\":\"ping\"} is understood"})";
}

}  // namespace plx::server
