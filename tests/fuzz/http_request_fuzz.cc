// libFuzzer target for the HTTP request reader (src/server/http/http_wire.cc):
// the input is what a client sends on one keep-alive connection. Requests
// are read one after another with the server's parser and limits, and each
// complete one goes through the server's checks on it (Host, Origin, the
// token's places, the WebSocket upgrade). Nothing may crash, and a request
// read must be within the limits.
#include <boost/beast/websocket/rfc6455.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "server/api/access_token.h"
#include "server/api/request_checks.h"
#include "server/http/http_wire.h"

namespace {

using namespace plx::server;
namespace http = boost::beast::http;

std::string_view View(boost::beast::string_view s) {
  return {s.data(), s.size()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  for (int i = 0; i < 64 && !rest.empty(); ++i) {
    ReadResult r = ReadRequest(rest);
    if (r.used > rest.size()) std::abort();
    if (r.kind != ReadResult::kComplete) return 0;
    if (r.used == 0) std::abort();  // a request is never empty
    const HttpRequest& req = r.request;
    if (req.body().size() > kMaxRequestBody) std::abort();
    const std::string_view host = View(req[http::field::host]);
    (void)HostAllowed(host, {"127.0.0.1", "::1"});
    (void)SameOrigin(View(req[http::field::origin]), host);
    const std::string_view target = View(req.target());
    const size_t q = target.find('?');
    const std::string token =
        RequestToken(q == target.npos ? "" : target.substr(q + 1),
                     View(req[http::field::authorization]), View(req[http::field::cookie]));
    (void)TokenEquals(token, "0123456789abcdef0123456789abcdef");
    (void)boost::beast::websocket::is_upgrade(req);
    if (!req.keep_alive()) return 0;  // the server closes after answering
    rest.remove_prefix(r.used);
  }
  return 0;
}
