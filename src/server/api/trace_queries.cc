#include "server/api/trace_queries.h"

namespace plx::server {

TraceQueries::TraceQueries(std::shared_ptr<StoreTimeline> served) : served_(std::move(served)) {}

TraceQueries::TraceQueries(std::string file, store::IndexSettings index)
    : path_(std::move(file)), index_(std::move(index)) {}

Status TraceQueries::Ready() {
  if (opened_) return open_status_;
  opened_ = true;
  const store::TraceStore* store = nullptr;
  if (served_) {
    store = &served_->store();
  } else {
    auto file = format::TraceFile::Open(path_);
    if (!file.ok()) return open_status_ = file.status();  // it names the file
    file_ = std::move(*file);
    store::StoreOptions options;
    options.index = index_;
    options.warn = [](const std::string&) {};  // an index not kept only costs time
    auto opened = store::TraceStore::Open(*file_, options);
    if (!opened.ok()) return open_status_ = opened.status().WithContext(path_);
    store_ = std::move(*opened);
    store = store_.get();
  }
  auto engine = query::QueryEngine::Open(*store);
  if (!engine.ok()) return open_status_ = engine.status();
  engine_ = std::move(*engine);
  return open_status_ = Status::Ok();
}

Status TraceQueries::Run(const std::string& sql, const std::string& id, query::QueryLimits limits,
                         query::RowSink& sink) {
  std::lock_guard<std::mutex> run(run_mu_);
  PLX_RETURN_IF_ERROR(Ready());
  {
    std::lock_guard<std::mutex> lock(id_mu_);
    running_ = id;
    cancel_.store(false);
  }
  limits.read_only = true;
  limits.cancel = &cancel_;
  const Status status = engine_->Run(sql, sink, limits);
  std::lock_guard<std::mutex> lock(id_mu_);
  running_.clear();
  return status;
}

bool TraceQueries::Cancel(const std::string& id) {
  std::lock_guard<std::mutex> lock(id_mu_);
  if (id.empty() || id != running_) return false;
  cancel_.store(true);
  return true;
}

}  // namespace plx::server
