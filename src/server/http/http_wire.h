// What the server reads from its HTTP clients, apart from the sockets: the
// request parser with the server's limits, the WebSocket's limits, and the
// answer to a WebSocket message. http_server.cc and ws_session.cc read
// through these; the fuzz targets (tests/fuzz/http_request_fuzz.cc,
// websocket_fuzz.cc) feed them bytes. Boost.Beast.
#pragma once

#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace plx::server {

/// A request's header and body at most (a larger one gets 413 and is closed).
inline constexpr size_t kMaxRequestHeader = 16 * 1024;
inline constexpr size_t kMaxRequestBody = 64 * 1024;
/// A WebSocket message from a viewer at most (it sends pings); a larger
/// one closes the socket.
inline constexpr size_t kMaxWsMessage = 64 * 1024;

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using RequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

/// A parser with the server's limits.
void LimitRequest(RequestParser& parser);

/// The server's limits on a WebSocket it accepted.
template <class Stream>
void LimitWebSocket(boost::beast::websocket::stream<Stream>& ws) {
  ws.read_message_max(kMaxWsMessage);
}

struct ReadResult {
  enum Kind { kComplete, kIncomplete, kTooLarge, kBad } kind = kIncomplete;
  size_t used = 0;  // bytes of the input the request took (kComplete)
  HttpRequest request;
  std::string error;  // kTooLarge, kBad: the parser's words
};
/// Reads the first request of `bytes` as a connection's reads would.
ReadResult ReadRequest(std::string_view bytes);

/// The server's answer to a text message a viewer sent on the WebSocket.
std::string AnswerWsMessage(std::string_view text);

}  // namespace plx::server
