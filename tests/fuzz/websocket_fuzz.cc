// libFuzzer target for the viewer's WebSocket reader (src/server/http/ws_session.cc,
// http_wire.h): after a valid upgrade request, the input is the frames a
// client sends. The server side reads messages with the server's limits
// (LimitWebSocket) and answers each (AnswerWsMessage) until the stream
// fails or ends. Nothing may crash, and no message read may exceed the limit.
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/http/http_wire.h"

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

constexpr char kUpgrade[] =
    "GET /api/v1/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  boost::asio::io_context ioc;
  beast::test::stream client(ioc);
  websocket::stream<beast::test::stream> ws(ioc);
  ws.next_layer().connect(client);  // the server's writes (101, pongs) go to `client`
  ws.next_layer().append(kUpgrade);
  ws.next_layer().append({reinterpret_cast<const char*>(data), size});
  ws.next_layer().close_remote();  // the end of the input is the end of the connection
  plx::server::LimitWebSocket(ws);
  beast::error_code ec;
  ws.accept(ec);
  if (ec) std::abort();  // the upgrade request is valid
  beast::flat_buffer buffer;
  for (int i = 0; i < 1024; ++i) {
    ws.read(buffer, ec);
    if (ec) break;
    if (buffer.size() > plx::server::kMaxWsMessage) std::abort();
    const std::string answer =
        plx::server::AnswerWsMessage(beast::buffers_to_string(buffer.data()));
    buffer.consume(buffer.size());
    ws.text(true);
    ws.write(boost::asio::buffer(answer), ec);
    if (ec) break;
  }
  return 0;
}
