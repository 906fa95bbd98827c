// `parallax serve [FILE...]` and `parallax view FILE`: the viewer's server.
// Starts the HTTP + WebSocket server (src/server), prints the URL with its
// access token, loads the traces in the background, opens a browser (view,
// unless --no-browser) and serves until SIGINT or SIGTERM. With --listen it
// also takes live streams from traced programs (docs/live.md).
#include <fmt/core.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/serve_setup.h"
#include "cli/spread_serve.h"
#include "cli/trace_input.h"
#include "server/http/http_server.h"
#include "server/http/trace_loader.h"
#include "server/live/live_listener.h"
#include "server/live/live_publisher.h"

namespace plx::cli {
namespace {

// "HOST:PORT", "[V6]:PORT" or ":PORT" (127.0.0.1).
Status ParseListen(const std::string& text, std::string* host, uint16_t* port) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos)
    return InvalidArgument("--listen: '" + text + "' is not HOST:PORT");
  std::string h = text.substr(0, colon);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  *host = h.empty() ? "127.0.0.1" : h;
  const std::string p = text.substr(colon + 1);
  char* end = nullptr;
  const unsigned long n = std::strtoul(p.c_str(), &end, 10);
  if (p.empty() || *end != '\0' || n > 65535)
    return InvalidArgument("--listen: port '" + p + "' is not 0..65535");
  *port = static_cast<uint16_t>(n);
  return Status::Ok();
}

// "1073741824", "512M", "1G", "64k".
Status ParseBytes(const std::string& text, uint64_t* bytes) {
  char* end = nullptr;
  const double n = std::strtod(text.c_str(), &end);
  double unit = 1;
  const std::string suffix = end;
  if (suffix == "k" || suffix == "K") unit = 1024;
  if (suffix == "m" || suffix == "M") unit = 1024.0 * 1024;
  if (suffix == "g" || suffix == "G") unit = 1024.0 * 1024 * 1024;
  if (end == text.c_str() || !(n > 0) || (unit == 1 && !suffix.empty()) || n * unit > 1e18)
    return InvalidArgument("--window-bytes: '" + text + "' is not a size (e.g. 512M, 1G)");
  *bytes = static_cast<uint64_t>(n * unit);
  return Status::Ok();
}

// Opens `url` with $BROWSER or xdg-open when there is a display; false when
// there is nothing to open it with.
bool OpenBrowser(const std::string& url) {
  const char* browser = std::getenv("BROWSER");
  const bool display =
      std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr;
  std::string program;
  if (browser != nullptr && *browser != '\0') {
    program = browser;
  } else if (display) {
    program = "xdg-open";
  } else {
    return false;
  }
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    // Detach from our output: browsers are chatty.
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execlp(program.c_str(), program.c_str(), url.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return true;
}

Status RunServe(const ServeOptions& o, const GlobalOptions& global) {
  if (global.group != nullptr) return RunSpreadServe(o, global);
  std::vector<std::string> paths = o.paths;
  const bool live = !o.listen.empty();
  std::string live_host;
  uint16_t live_port = 0;
  uint64_t window_bytes = 0;
  if (live) {
    PLX_RETURN_IF_ERROR(ParseListen(o.listen, &live_host, &live_port));
    PLX_RETURN_IF_ERROR(ParseBytes(o.window_bytes, &window_bytes));
    if (!(o.window_seconds > 0)) return InvalidArgument("--window: must be more than 0 seconds");
    if (o.update_ms < 1 || o.update_ms > 60000)
      return InvalidArgument("--update-ms: must be 1..60000");
  }
  if (!paths.empty() || !live) {
    PLX_ASSIGN_OR_RETURN(paths, ServePaths(o));
  }

  // SIGINT and SIGTERM are waited for below; block them before any thread
  // starts so that every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  server::TraceStore store;
  std::mutex print_mu;
  PLX_RETURN_IF_ERROR(AddServedTraces(paths, o, global, &store, &print_mu));
  server::HttpServer http(store, ServerOptionsOf(o));

  std::unique_ptr<server::live::LiveTrace> live_trace;
  std::unique_ptr<server::live::LivePublisher> publisher;
  std::unique_ptr<server::live::LiveListener> listener;
  if (live) {
    server::live::LiveOptions lo;
    lo.token = http.token();
    lo.window_seconds = o.window_seconds;
    lo.window_bytes = window_bytes;
    live_trace = std::make_unique<server::live::LiveTrace>(lo);
    live_trace->SetLog([&print_mu](const std::string& line) {
      std::lock_guard lock(print_mu);
      fmt::print(stderr, "parallax: {}\n", line);
    });
    publisher = std::make_unique<server::live::LivePublisher>(
        *live_trace, store, [&http](const std::string& m) { http.Broadcast(m, true); },
        std::chrono::milliseconds(o.update_ms));
    listener = std::make_unique<server::live::LiveListener>(*live_trace, live_host, live_port);
    PLX_RETURN_IF_ERROR(listener->Start());
  }
  PLX_RETURN_IF_ERROR(http.Start());

  PrintUrl(store, http);
  if (live) {
    fmt::print(
        "parallax: live: trace a program with: PLX_LIVE={} PLX_LIVE_TOKEN={} "
        "parallax record -- ./app\n",
        listener->Endpoint(), http.token());
    std::fflush(stdout);
    publisher->Start();
  }
  if (o.open_browser && !o.no_browser && !OpenBrowser(http.Url()))
    fmt::print(stderr, "parallax: no display to open a browser on; open the URL above\n");
  fmt::print(stderr, "parallax: press Ctrl-C to stop\n");

  auto loader = LoadInBackground(store, http, &print_mu);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  fmt::print(stderr, "parallax: stopping\n");
  if (listener) listener->Stop();
  if (publisher) publisher->Stop();
  http.Stop();
  // A trace may still be loading; its thread cannot be interrupted, and
  // nothing it holds needs saving.
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);
}

void AddServerOptions(CLI::App* app, ServeOptions* o) {
  app->add_option("--bind", o->bind, "Address to listen on (0.0.0.0: every interface)")
      ->default_str("127.0.0.1");
  app->add_option("--port", o->port, "Port to listen on (0: a free one)")->default_str("0");
  app->add_option("--token", o->token,
                  "Access token to require (default: a new random one each start)");
  app->add_option("--web-dir", o->web_dir,
                  "Folder of the built viewer (default: found beside the program or in web/dist)");
  app->add_flag("--no-browser", o->no_browser, "Do not open a browser");
  app->add_option("--source-dir", o->source_dirs,
                  "Folder the source view looks up relative call-site files in, before the "
                  "trace file's folder (repeatable, or DIR:DIR)");
}

}  // namespace

Command AddServeCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* app = parent.add_subcommand(
      "serve", "Serve traces to the browser viewer (and the HTTP API) until Ctrl-C");
  app->footer(
      "Prints a URL with a random access token; requests without it are refused. Binds\n"
      "127.0.0.1 unless --bind says otherwise. Traces load in the background; the viewer\n"
      "shows their progress. Without FILE (and without --listen), serves every .plx file\n"
      "in this directory. The API is described in docs/api.md.\n"
      "\n"
      "With --listen, traced programs stream to the server while they run (PLX_LIVE and\n"
      "PLX_LIVE_TOKEN, printed at start) and it serves them as the trace 'live'\n"
      "(docs/live.md).\n"
      "\n"
      "Examples:\n"
      "  parallax serve run.plx other.plx\n"
      "  parallax serve run.plx --port 8080 --bind 0.0.0.0\n"
      "  parallax serve --listen 127.0.0.1:7000 --window 30");
  app->add_option(
      "FILE", o->paths,
      "The traces: .plx files, parts directories, or files of the formats convert reads");
  AddServerOptions(app, o.get());
  app->add_option("--listen", o->listen,
                  "Take live streams from traced programs on HOST:PORT (PORT 0: a free one)");
  app->add_option("--window", o->window_seconds,
                  "Live: seconds of trace time kept; older detail is dropped")
      ->default_str("60");
  app->add_option("--window-bytes", o->window_bytes,
                  "Live: chunk bytes kept at most, decompressed (K, M, G)")
      ->default_str("1G");
  app->add_option("--update-ms", o->update_ms, "Live: milliseconds between viewer updates")
      ->default_str("100");
  return {app, [o, &global] { return RunServe(*o, global); }};
}

Command AddViewCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<ServeOptions>();
  o->open_browser = true;
  CLI::App* app =
      parent.add_subcommand("view", "Open a trace in the browser viewer (serves it until Ctrl-C)");
  app->footer(
      "Like 'parallax serve FILE', and opens the URL in a browser ($BROWSER, else\n"
      "xdg-open when there is a display).\n"
      "\n"
      "Examples:\n"
      "  parallax view run.plx\n"
      "  parallax view run.plx --no-browser --port 8080");
  app->add_option("FILE", o->paths, "The .plx trace file")->required()->expected(1);
  AddServerOptions(app, o.get());
  return {app, [o, &global] { return RunServe(*o, global); }};
}

}  // namespace plx::cli
