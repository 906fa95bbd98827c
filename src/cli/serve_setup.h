// What `parallax serve` and `parallax-mpi serve` share: their options, the
// traces they serve (each served from its file above --memory, parts
// directories and other formats through a kept copy), and the progress
// lines they print.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "cli/command.h"
#include "server/api/api.h"
#include "server/http/http_server.h"
#include "server/http/trace_loader.h"

namespace plx::cli {

struct ServeOptions {
  std::vector<std::string> paths;
  std::string bind = "127.0.0.1";
  uint16_t port = 0;
  std::string token;
  std::string web_dir;
  bool no_browser = false;
  bool open_browser = false;  // view: true
  std::string listen;         // live: HOST:PORT
  double window_seconds = 60;
  std::string window_bytes = "1G";
  int update_ms = 100;
  std::vector<std::string> source_dirs;  // each may be DIR:DIR:...
};

/// The traces to serve: `o.paths`, or without them (and without --listen)
/// every .plx file of the current directory; NotFound for a path that is
/// neither a file nor a directory.
StatusOr<std::vector<std::string>> ServePaths(const ServeOptions& o);

/// Adds `paths` to `store` as `parallax serve` serves them, and the source
/// folders of --source-dir; warnings go to stderr under `print_mu`.
Status AddServedTraces(const std::vector<std::string>& paths, const ServeOptions& o,
                       const GlobalOptions& global, server::TraceStore* store,
                       std::mutex* print_mu);

/// How a trace served from its file is served: --memory, --index-dir, and
/// warnings to stderr under `print_mu`.
server::StoreServing ServingOf(const std::string& path, const GlobalOptions& global,
                               std::mutex* print_mu);

/// The line printed when a trace changes phase, `seconds` after the start.
std::string PhaseLine(const server::ServedTrace& t, const server::LoadProgressInfo& p,
                      double seconds);

/// The HTTP server's options of --bind, --port, --token and --web-dir.
server::ServerOptions ServerOptionsOf(const ServeOptions& o);

/// Prints the URL to stdout (flushed: tools read it from a pipe), and a
/// warning when the viewer is not built.
void PrintUrl(const server::TraceStore& store, const server::HttpServer& http);

/// Loads the traces of `store` in the background (TraceLoader), printing
/// each change of phase under `print_mu`.
std::unique_ptr<server::TraceLoader> LoadInBackground(server::TraceStore& store,
                                                      server::HttpServer& http,
                                                      std::mutex* print_mu);

}  // namespace plx::cli
