// TraceQueries: SQL over one served trace (/query, src/query). The query
// engine reads the trace store of the trace's file: the served one when the
// trace is served from its file, else one opened on the same file on first
// use (its index beside the trace, as the command's). Queries of a trace run
// one at a time; the running one stops when Cancel names its id.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "base/status.h"
#include "format/trace_file.h"
#include "query/query_engine.h"
#include "server/timeline/store_timeline.h"
#include "store/trace_store.h"

namespace plx::server {

class TraceQueries {
 public:
  /// Over the served store (kept alive here) ...
  explicit TraceQueries(std::shared_ptr<StoreTimeline> served);
  /// ... or over `file`, opened on first use with `index` settings.
  TraceQueries(std::string file, store::IndexSettings index);

  /// Runs `sql` (reads only) into `sink`, stopped after `limits.timeout_ms`
  /// or when Cancel(id) is called; waits while another query runs.
  Status Run(const std::string& sql, const std::string& id, query::QueryLimits limits,
             query::RowSink& sink);
  /// Stops the running query named `id`; false when none is.
  bool Cancel(const std::string& id);

 private:
  Status Ready();  // under run_mu_

  std::shared_ptr<StoreTimeline> served_;
  std::string path_;
  store::IndexSettings index_;
  std::unique_ptr<format::TraceFile> file_;
  std::unique_ptr<store::TraceStore> store_;
  std::unique_ptr<query::QueryEngine> engine_;
  Status open_status_;
  bool opened_ = false;

  std::mutex run_mu_;  // one query at a time
  std::mutex id_mu_;
  std::string running_;  // under id_mu_: the id of the running query
  std::atomic<bool> cancel_{false};
};

}  // namespace plx::server
