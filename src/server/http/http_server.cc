// The Boost.Beast side of the server: accepting, reading requests, checking
// the token, dispatching to the API (on its own thread pool, so that a slow
// analysis never stalls other clients), serving files, and the WebSocket.
#include "server/http/http_server.h"

#include <dlfcn.h>
#include <malloc.h>
#include <sys/resource.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "base/strings.h"
#include "server/api/access_token.h"
#include "server/api/request_checks.h"
#include "server/api/static_files.h"
#include "server/http/http_state.h"
#include "server/http/http_wire.h"
#include "server/http/ws_session.h"

namespace plx::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::string_view kApiPrefix = "/api/v1";
// An API answer at most (list limits keep them far smaller), and the size
// above which memory is given back to the system after it was sent.
constexpr size_t kMaxAnswerBytes = size_t{512} << 20;
constexpr size_t kTrimAfterBytes = size_t{4} << 20;
constexpr std::string_view kWsPath = "/api/v1/ws";

struct Target {
  std::string_view path;
  std::string_view query;
};

// Requests the timeline makes while the user zooms and pans: each answers in
// milliseconds from the timeline index (or the model), never from an analysis.
bool IsTimelineRequest(std::string_view path) {
  if (path == "/traces") return true;
  for (std::string_view end : {"/tile", "/details", "/summary", "/search", "/processes"})
    if (path.ends_with(end)) return true;
  return false;
}

std::string_view View(beast::string_view s) {
  return {s.data(), s.size()};
}

// The address a connection came in on, as text; an IPv4 client of a socket
// bound to "::" in its IPv4 form.
std::string LocalAddress(const tcp::socket& socket) {
  beast::error_code ec;
  net::ip::address address = socket.local_endpoint(ec).address();
  if (ec) return "";
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6());
  return address.to_string();
}

Target SplitTarget(std::string_view target) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return {target, {}};
  return {target.substr(0, q), target.substr(q + 1)};
}

// Out of file descriptors (or kernel memory): accept() fails at once until
// a connection closes, so trying again at once would spin.
bool OutOfDescriptors(const beast::error_code& ec) {
  return ec == net::error::no_descriptors || ec == net::error::no_buffer_space ||
         ec == net::error::no_memory ||
         (ec.category() == beast::system_category() && ec.value() == ENFILE);
}

// Gives freed heap memory back to the system now: parallax allocates with
// jemalloc where it is installed (src/cli/CMakeLists.txt), whose purge is
// found at run time; else glibc's malloc_trim.
void ReturnFreeMemory() {
  using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
  static const auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
  if (mallctl != nullptr) {
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);  // 4096: every arena
    return;
  }
  malloc_trim(0);
}

size_t DefaultMaxConnections() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 1024;
  return std::clamp<size_t>(r.rlim_cur / 2, 8, 1024);
}

}  // namespace

// One HTTP connection: reads requests one after another (keep-alive).
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, ServerState& server)
      : local_address_(LocalAddress(socket)),
        stream_(std::move(socket)),
        server_(server),
        slot_(std::make_shared<ConnectionSlot>(server.connections)) {}

  void Start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->Read(); });
  }

 private:
  using Response = http::response<http::string_body>;

  void Read() {
    parser_.emplace();
    LimitRequest(*parser_);
    stream_.expires_after(std::chrono::seconds(60));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       if (ec) return self->Close(ec);
                       self->Handle(self->parser_->release());
                     });
  }

  void Close(beast::error_code ec) {
    if (ec == http::error::header_limit || ec == http::error::body_limit) {
      // Answer, then close: the rest of the request cannot be read.
      auto r = std::make_shared<Response>(http::status::payload_too_large, 11);
      r->set(http::field::content_type, "application/json");
      r->body() = R"({"error":"request too large"})";
      r->keep_alive(false);
      r->prepare_payload();
      http::async_write(stream_, *r, [self = shared_from_this(), r](beast::error_code, size_t) {
        self->Shutdown();
      });
      return;
    }
    Shutdown();
  }

  void Shutdown() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  void Handle(http::request<http::string_body> req) {
    head_ = req.method() == http::verb::head;
    if (auto refused = CheckHostAndOrigin(req)) return Send(std::move(*refused));
    const Target target = SplitTarget(View(req.target()));
    const std::string token = RequestToken(target.query, View(req[http::field::authorization]),
                                           View(req[http::field::cookie]));
    const bool authorised = TokenEquals(token, server_.options.token);

    if (websocket::is_upgrade(req) && target.path == kWsPath) {
      if (!authorised)
        return Send(Json(req, 401, ErrorResponse(401, "missing or wrong access token").body));
      std::make_shared<WsSession>(stream_.release_socket(), server_, slot_)->Start(std::move(req));
      return;
    }
    if (!authorised)
      return Send(Json(req, 401,
                       ErrorResponse(401,
                                     "missing or wrong access token: open the URL that "
                                     "parallax printed (it carries ?token=...)")
                           .body));
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return Send(Json(req, 405, ErrorResponse(405, "only GET is supported").body));
    // A token that came in the query or a header becomes a cookie, so the
    // page's scripts, styles and API calls carry it without more work.
    set_cookie_ = View(req[http::field::cookie]).find("plx_token=" + server_.options.token) ==
                  std::string_view::npos;

    if (target.path.starts_with(kApiPrefix) &&
        (target.path.size() == kApiPrefix.size() || target.path[kApiPrefix.size()] == '/')) {
      const std::string path(target.path.substr(kApiPrefix.size()));
      const std::string query(target.query);
      // Off the socket threads, in the pool for this kind of request.
      net::post(IsTimelineRequest(path) ? *server_.timeline_pool : *server_.api_pool,
                [self = shared_from_this(), req = std::move(req), path, query] {
                  ApiResponse answer = self->server_.api.Handle(path, query);
                  net::post(self->stream_.get_executor(),
                            [self, req = std::move(req), answer = std::move(answer)]() mutable {
                              self->Send(self->FromApi(req, std::move(answer)));
                            });
                });
      return;
    }
    Send(File(req, target.path));
  }

  // Other sites' pages in the user's browser (request_checks.h): a name of
  // another site for this machine (DNS rebinding), or a page of another
  // origin opening the WebSocket or sending anything but GET or HEAD.
  std::optional<Response> CheckHostAndOrigin(const http::request<http::string_body>& req) {
    const std::string_view host = View(req[http::field::host]);
    if (host.empty()) {
      if (req.version() < 11) return std::nullopt;  // HTTP/1.0 may leave it out
      return Json(req, 400, ErrorResponse(400, "the request has no Host header").body);
    }
    if (!HostAllowed(host, {server_.options.bind, local_address_}))
      return Json(req, 403,
                  ErrorResponse(403,
                                "the Host header must name this server's address or "
                                "localhost, 127.0.0.1 or [::1]: open the URL that parallax printed")
                      .body);
    const std::string_view origin = View(req[http::field::origin]);
    const bool reads_only = req.method() == http::verb::get || req.method() == http::verb::head;
    if (!origin.empty() && (websocket::is_upgrade(req) || !reads_only) && !SameOrigin(origin, host))
      return Json(req, 403,
                  ErrorResponse(403,
                                "a page of another origin may not open the WebSocket or send "
                                "anything but GET")
                      .body);
    return std::nullopt;
  }

  Response Json(const http::request<http::string_body>& req, int status, std::string body) {
    Response r{static_cast<http::status>(status), req.version()};
    r.set(http::field::content_type, "application/json");
    r.keep_alive(req.keep_alive());
    r.body() = std::move(body);
    return r;
  }

  Response FromApi(const http::request<http::string_body>& req, ApiResponse answer) {
    if (answer.body.size() > kMaxAnswerBytes)
      answer = ErrorResponse(500, StrFormat("the answer would be %zu MiB (at most %zu): ask for a "
                                            "narrower range or a smaller limit",
                                            answer.body.size() >> 20, kMaxAnswerBytes >> 20));
    Response r = Json(req, answer.status, std::move(answer.body));
    r.set(http::field::content_type, answer.content_type);
    r.set(http::field::cache_control, "no-store");
    if (answer.retry_after) r.set(http::field::retry_after, "1");
    return r;
  }

  Response File(const http::request<http::string_body>& req, std::string_view path) {
    const std::string& root = server_.options.web_root;
    if (root.empty()) {
      Response r{http::status::service_unavailable, req.version()};
      r.set(http::field::content_type, "text/plain; charset=utf-8");
      r.keep_alive(req.keep_alive());
      r.body() =
          "The Parallax viewer is not built: run 'make' in the source tree (it builds web/), "
          "or set PLX_WEB_DIR. The API under /api/v1 works without it.\n";
      return r;
    }
    const auto file = ResolveWebPath(root, path);
    if (!file) return Json(req, 400, ErrorResponse(400, "bad path").body);
    // Directories and links out of the folder are not files of the viewer.
    const auto real = ServableFile(root, *file);
    std::ifstream in;
    if (real) in.open(*real, std::ios::binary);
    if (!in.is_open())
      return Json(req, 404, ErrorResponse(404, "no such file: " + std::string(path)).body);
    std::ostringstream content;
    content << in.rdbuf();
    Response r{http::status::ok, req.version()};
    r.set(http::field::content_type, ContentTypeFor(*file));
    // Hashed asset names may be cached; the page itself must be fresh.
    r.set(http::field::cache_control,
          path.starts_with("/assets/") ? "max-age=31536000, immutable" : "no-cache");
    r.keep_alive(req.keep_alive());
    r.body() = content.str();
    return r;
  }

  void Send(Response r) {
    r.set(http::field::server, "parallax");
    r.set("X-Content-Type-Options", "nosniff");
    if (set_cookie_) r.set(http::field::set_cookie, TokenCookie(server_.options.token));
    set_cookie_ = false;
    r.prepare_payload();
    // HEAD: the headers GET would have, Content-Length included, and no
    // body, else a keep-alive client reads the body as the next answer.
    if (head_) r.body().clear();
    auto response = std::make_shared<Response>(std::move(r));
    // A fresh deadline for the write: the read's may have passed while an
    // analysis computed the answer, and beast would fail the write at once.
    stream_.expires_after(std::chrono::seconds(60));
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code ec, size_t) {
                        if (response->body().size() >= kTrimAfterBytes) self->ReturnMemory();
                        if (ec) return;
                        if (!response->keep_alive()) return self->Shutdown();
                        self->Read();
                      });
  }

  // A big answer's JSON was many small blocks, freed by now: give the pages
  // back to the system (off the I/O threads; malloc keeps them otherwise).
  void ReturnMemory() {
    net::post(*server_.api_pool, [] { ReturnFreeMemory(); });
  }

  const std::string local_address_;  // the address the client connected to
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  ServerState& server_;
  std::shared_ptr<ConnectionSlot> slot_;  // passed on to a WebSocket
  bool set_cookie_ = false;
  bool head_ = false;  // the request being answered is a HEAD
};

// At the connection cap or out of descriptors, accepting waits a little
// (new connections wait in the listen queue meanwhile) instead of spinning.
void ServerState::Accept() {
  if (connections.load() >= options.max_connections)
    return AcceptLater(std::chrono::milliseconds(20));
  acceptor->async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec) {
      if (ec == net::error::operation_aborted || !acceptor->is_open()) return;
      if (OutOfDescriptors(ec)) return AcceptLater(std::chrono::milliseconds(100));
    } else {
      // Answers are written whole; without this, the last segment of a big
      // tile can wait for the client's delayed ACK (tens of ms).
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), *this)->Start();
    }
    Accept();
  });
}

void ServerState::AcceptLater(std::chrono::milliseconds wait) {
  accept_timer->expires_after(wait);
  accept_timer->async_wait([this](beast::error_code ec) {
    if (!ec && acceptor->is_open()) Accept();
  });
}

HttpServer::HttpServer(TraceStore& store, ServerOptions options)
    : impl_(std::make_unique<ServerState>(store, std::move(options))) {
  if (impl_->options.token.empty()) impl_->options.token = NewAccessToken();
  impl_->options.web_root = FindWebRoot(impl_->options.web_root);
  if (impl_->options.max_connections == 0) impl_->options.max_connections = DefaultMaxConnections();
}

HttpServer::~HttpServer() {
  Stop();
}

Status HttpServer::Start() {
  ServerState& s = *impl_;
  beast::error_code ec;
  const auto address = net::ip::make_address(s.options.bind, ec);
  if (ec) return InvalidArgument("--bind: '" + s.options.bind + "' is not an IP address");
  const tcp::endpoint endpoint(address, s.options.port);
  s.acceptor = std::make_unique<tcp::acceptor>(s.ioc);
  s.accept_timer = std::make_unique<net::steady_timer>(s.ioc);
  if (s.acceptor->open(endpoint.protocol(), ec); ec)
    return IoError("cannot open a socket: " + ec.message());
  s.acceptor->set_option(net::socket_base::reuse_address(true), ec);
  if (s.acceptor->bind(endpoint, ec); ec)
    return IoError("cannot listen on " + s.options.bind + ":" + std::to_string(s.options.port) +
                   ": " + ec.message());
  if (s.acceptor->listen(net::socket_base::max_listen_connections, ec); ec)
    return IoError("cannot listen: " + ec.message());
  s.port = s.acceptor->local_endpoint().port();
  s.api_pool = std::make_unique<net::thread_pool>(std::max(1, s.options.api_threads));
  s.timeline_pool = std::make_unique<net::thread_pool>(std::max(1, s.options.api_threads));
  s.Accept();
  for (int i = 0; i < std::max(1, s.options.io_threads); ++i)
    s.threads.emplace_back([&s] { s.ioc.run(); });
  return Status::Ok();
}

uint16_t HttpServer::port() const {
  return impl_->port;
}

const std::string& HttpServer::token() const {
  return impl_->options.token;
}

const std::string& HttpServer::web_root() const {
  return impl_->options.web_root;
}

std::string HttpServer::Url() const {
  std::string host = impl_->options.bind;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  if (host == "0.0.0.0") host = "127.0.0.1";
  return "http://" + host + ":" + std::to_string(impl_->port) + "/?token=" + impl_->options.token;
}

void HttpServer::Broadcast(const std::string& message, bool latest_only) {
  std::vector<std::shared_ptr<WsSession>> live;
  {
    std::lock_guard lock(impl_->ws_mu);
    for (const auto& w : impl_->sockets)
      if (auto s = w.lock()) live.push_back(std::move(s));
  }
  for (const auto& s : live)
    s->Send(message, latest_only);
}

void HttpServer::Stop() {
  ServerState& s = *impl_;
  if (s.stopped || !s.acceptor) return;
  s.stopped = true;
  net::post(s.ioc, [&s] {
    beast::error_code ignored;
    s.acceptor->close(ignored);
    s.accept_timer->cancel();
  });
  s.ioc.stop();
  for (auto& t : s.threads)
    t.join();
  s.threads.clear();
  if (s.api_pool) s.api_pool->join();
  if (s.timeline_pool) s.timeline_pool->join();
}

}  // namespace plx::server
