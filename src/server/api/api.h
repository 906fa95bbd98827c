// The query API of docs/api.md over the traces a server serves: a pure
// function from (path, query) to an answer, so that it is tested without
// sockets and the HTTP layer only moves bytes.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "server/api/api_response.h"
#include "server/api/served_trace.h"

namespace plx::server {

/// The traces of one server, each with a URL-safe id made from its file name.
/// A live trace's entry is replaced by each newer snapshot while requests go
/// on with the one they found (they hold its shared_ptr). Thread-safe.
class TraceStore {
 public:
  /// Adds a trace (not yet loaded); returns it.
  ServedTrace& Add(const std::string& path);
  /// Adds a trace made elsewhere (the live trace), under its own id.
  void AddShared(std::shared_ptr<ServedTrace> trace);
  /// Puts `trace` in place of the entry with its id (added if none).
  void Replace(std::shared_ptr<ServedTrace> trace);
  std::shared_ptr<ServedTrace> Find(std::string_view id) const;
  /// The traces now, in the order they were added.
  std::vector<std::shared_ptr<ServedTrace>> traces() const;
  /// The folders /source looks up relative source file names in (serve
  /// --source-dir), before the trace file's own folder.
  void SetSourceDirs(std::vector<std::string> dirs);
  std::vector<std::string> source_dirs() const;

 private:
  std::shared_ptr<ServedTrace> FindLocked(std::string_view id) const;

  mutable std::mutex mu_;
  std::vector<std::shared_ptr<ServedTrace>> traces_;
  std::vector<std::string> source_dirs_;
};

class Api {
 public:
  explicit Api(TraceStore& store) : store_(store) {}

  /// Answers a GET of `path` (below /api/v1, e.g. "/traces/x/summary") with
  /// the raw query string (without '?').
  ApiResponse Handle(std::string_view path, std::string_view query);

 private:
  TraceStore& store_;
};

/// {"error": message} with `status`.
ApiResponse ErrorResponse(int status, std::string_view message);

/// The JSON message the WebSocket sends for a trace's progress (docs/api.md).
std::string ProgressMessage(const ServedTrace& trace, const LoadProgressInfo& progress);
/// The WebSocket's first message.
std::string HelloMessage();
/// The `live` WebSocket message: {"type": "live", ...LiveStatus}, and with a
/// new snapshot its TraceSummary as `summary` (`summary_json`: the body
/// /summary answers; empty: none).
std::string LiveMessage(const LiveStatus& status, std::string_view summary_json = {});

}  // namespace plx::server
