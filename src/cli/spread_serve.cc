// `parallax-mpi serve`. Process 0 serves HTTP and loads the traces first (the
// viewer shows its progress; parts directories and indexes are made once,
// by it); then it sends the others a load message (which traces, and
// whether each is served from its file, with its budget, so that every
// process draws alike) and they load them too. From then on each of these
// is one step (a broadcast of the request, a gather of the answers):
// - a tile: each process draws the rows it owns (TileRequest::here) and
//   process 0 merges the parts (MergeTileParts) into the tile drawn whole;
// - the statistics of an area selection, from the file: each process's
//   pass over its threads' chunks, merged by bytes (exact sums);
// - the details of a slice or instant, from the file: asked of the process
//   that owns its row, whose chunk cache holds what its tiles decoded.
// Until every process has loaded, process 0 answers alone (the same
// bytes). The others wait for the next request without the step timeout:
// a server is idle as long as nobody looks.
#include "cli/spread_serve.h"

#include <fmt/core.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "base/strings.h"
#include "base/wire.h"
#include "distributed/group.h"
#include "distributed/share.h"
#include "server/http/http_server.h"
#include "server/http/trace_loader.h"

namespace plx::cli {
namespace {

enum Kind : uint8_t { kStop = 0, kLoad = 1, kTile = 2, kStats = 3, kAsk = 4 };
// How process 0 serves a trace, so the others serve it alike.
enum Served : uint8_t { kNotLoaded = 0, kInMemory = 1, kFromFile = 2 };

void PutRequest(std::string* out, const server::TileRequest& r) {
  WirePutAll(out, r.rows);
  WirePut(out, r.from);
  WirePut(out, r.to);
  WirePut(out, r.width);
  WirePut(out, static_cast<uint8_t>(r.arrows));
  WirePutAll(out, r.counters);
}

bool GetRequest(WireReader* in, server::TileRequest* r) {
  uint8_t arrows = 0;
  if (!in->GetAll(&r->rows) || !in->Get(&r->from) || !in->Get(&r->to) || !in->Get(&r->width) ||
      !in->Get(&arrows) || !in->GetAll(&r->counters))
    return false;
  r->arrows = arrows != 0;
  return true;
}

void PutSelection(std::string* out, const analysis::Selection& s) {
  WirePut(out, s.from);
  WirePut(out, s.to);
  WirePutAll(out, s.threads);
}

bool GetSelection(WireReader* in, analysis::Selection* s) {
  return in->Get(&s->from) && in->Get(&s->to) && in->GetAll(&s->threads);
}

class SpreadServer : public server::ServedSpread {
 public:
  SpreadServer(distributed::Group& group, server::TraceStore& store, const GlobalOptions& global,
               std::mutex* print_mu)
      : group_(group), store_(store), api_(store), global_(global), print_mu_(print_mu) {}

  // Process 0, once it has loaded its traces: the others load them, and
  // from then on the tiles are spread. The error names the processes that
  // could not.
  Status Start() {
    std::lock_guard lock(mu_);
    if (stopped_) return Status::Ok();
    std::string message;
    WirePut(&message, uint8_t{kLoad});
    for (const auto& trace : store_.traces()) {
      const uint8_t served = !trace->ready()       ? kNotLoaded
                             : trace->from_store() ? kFromFile
                                                   : kInMemory;
      WirePut(&message, served);
    }
    WirePut(&message, global_.resources().Memory());
    group_.Broadcast(message, false);
    const std::vector<std::string> errors = group_.Gather({});
    std::string failed;
    for (size_t r = 0; r < errors.size(); ++r)
      if (!errors[r].empty()) failed += (failed.empty() ? "" : "; ") + errors[r];
    if (!failed.empty()) return IoError(failed);
    spreading_.store(true, std::memory_order_release);
    return Status::Ok();
  }

  // Process 0: the tile of `request` (checked), from every process's part.
  Status Tile(const server::ServedTrace& served, const server::TileRequest& request,
              std::string* out) override {
    if (!spreading_.load(std::memory_order_acquire)) return served.DrawTile(request, out);
    std::vector<std::string> parts;
    {
      std::lock_guard lock(mu_);
      if (stopped_) return served.DrawTile(request, out);
      std::string message;
      WirePut(&message, uint8_t{kTile});
      WirePutBytes(&message, served.id());
      PutRequest(&message, request);
      group_.Broadcast(std::move(message), false);
      parts = group_.Gather(DrawPart(served, request));
    }
    // The long messages that cross the window, from the whole index (a
    // trace served from its file has no arrows).
    std::string long_part;
    if (request.arrows && !served.from_store()) {
      server::TileRequest only_long = request;
      only_long.here.assign(served.trace().threads.size(), 0);
      PLX_RETURN_IF_ERROR(served.DrawTile(only_long, &long_part));
    }
    if (Status merged = MergeTileParts(request, served.TileOrderOf(request), parts, long_part, out);
        !merged.ok())
      return Internal("the processes' tiles: " + merged.message());
    return Status::Ok();
  }

  // Process 0: the statistics of a selection of a trace served from its
  // file, each process's pass over its threads merged (exact sums).
  store::StreamedStateStats SelectionStats(const server::ServedTrace& served,
                                           const analysis::Selection& selection) override {
    // Held for the request: the repaired timeline may replace the one on
    // the recorded times meanwhile.
    const std::shared_ptr<server::StoreTimeline> timeline = served.store_timeline_held();
    if (!spreading_.load(std::memory_order_acquire)) return timeline->SelectionStats(selection);
    std::optional<analysis::StateStatsBuilder> builder;
    std::vector<std::string> parts;
    {
      std::lock_guard lock(mu_);
      if (stopped_) return timeline->SelectionStats(selection);
      std::string message;
      WirePut(&message, uint8_t{kStats});
      WirePutBytes(&message, served.id());
      PutSelection(&message, selection);
      group_.Broadcast(std::move(message), false);
      builder.emplace(StatsPart(served, selection));
      parts = group_.Gather({});
    }
    for (size_t r = 1; r < parts.size(); ++r)
      if (Status merged = builder->MergeSaved(parts[r]); !merged.ok()) {
        std::lock_guard lock(*print_mu_);
        fmt::print(stderr, "parallax: warning: {}: process {}'s statistics: {}; computed here\n",
                   served.name(), r, merged.message());
        return timeline->SelectionStats(selection);
      }
    return {builder->Report(), builder->CallsiteRows()};
  }

  // Process 0: the owner's answer about a row it owns (its chunks are in
  // its cache, where its tiles decoded them).
  std::optional<server::ApiResponse> AskOwner(const server::ServedTrace& served, uint32_t thread,
                                              std::string_view endpoint,
                                              std::string_view query) override {
    if (!spreading_.load(std::memory_order_acquire)) return std::nullopt;
    const std::vector<uint32_t> first = distributed::ShareThreads(served.trace(), group_.size());
    uint32_t owner = 0;
    while (owner + 1 < static_cast<uint32_t>(group_.size()) && first[owner + 1] <= thread)
      ++owner;
    if (owner == 0) return std::nullopt;
    std::vector<std::string> parts;
    {
      std::lock_guard lock(mu_);
      if (stopped_) return std::nullopt;
      std::string message;
      WirePut(&message, uint8_t{kAsk});
      WirePut(&message, owner);
      WirePutBytes(&message, served.id());
      WirePutBytes(&message, endpoint);
      WirePutBytes(&message, query);
      group_.Broadcast(std::move(message), false);
      parts = group_.Gather({});
    }
    WireReader in(parts[owner]);
    server::ApiResponse answer;
    int32_t status = 0;
    uint8_t retry = 0;
    std::string_view type, body;
    if (!in.Get(&status) || !in.Get(&retry) || !in.GetBytes(&type) || !in.GetBytes(&body))
      return std::nullopt;  // answered here instead
    answer.status = status;
    answer.retry_after = retry != 0;
    answer.content_type = type;
    answer.body = body;
    return answer;
  }

  // Process 0: the others end their Serve().
  void Stop() {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    spreading_.store(false, std::memory_order_release);
    std::string message;
    WirePut(&message, uint8_t{kStop});
    group_.Broadcast(std::move(message), false);
  }

  // The other processes: load when told, draw their parts of the tiles,
  // until process 0 stops.
  Status Serve() {
    for (;;) {
      const std::string message = group_.Broadcast({}, true);
      WireReader in(message);
      uint8_t kind = kStop;
      if (!in.Get(&kind)) return Internal("process 0 sent an empty message");
      if (kind == kStop) return Status::Ok();
      if (kind == kLoad) {
        group_.Gather(LoadHere(&in));
      } else if (kind == kTile) {
        std::string_view id;
        server::TileRequest request;
        std::shared_ptr<server::ServedTrace> served;
        if (in.GetBytes(&id) && GetRequest(&in, &request)) served = store_.Find(id);
        group_.Gather(served && served->ready() ? DrawPart(*served, request) : std::string());
      } else if (kind == kAsk) {
        uint32_t owner = 0;
        std::string_view id, endpoint, query;
        std::string answer;
        if (in.Get(&owner) && in.GetBytes(&id) && in.GetBytes(&endpoint) && in.GetBytes(&query) &&
            owner == static_cast<uint32_t>(group_.rank())) {
          const server::ApiResponse r =
              api_.Handle("/traces/" + std::string(id) + "/" + std::string(endpoint), query);
          WirePut(&answer, static_cast<int32_t>(r.status));
          WirePut(&answer, static_cast<uint8_t>(r.retry_after));
          WirePutBytes(&answer, r.content_type);
          WirePutBytes(&answer, r.body);
        }
        group_.Gather(std::move(answer));
      } else if (kind == kStats) {
        std::string_view id;
        analysis::Selection selection;
        std::shared_ptr<server::ServedTrace> served;
        if (in.GetBytes(&id) && GetSelection(&in, &selection)) served = store_.Find(id);
        group_.Gather(served && served->ready() && served->from_store()
                          ? StatsPart(*served, selection).Save()
                          : std::string());
      } else {
        return Internal(StrFormat("process 0 sent a message of unknown kind %u", kind));
      }
    }
  }

 private:
  // The rows this process owns in `served`, drawn: a tile with only them.
  std::string DrawPart(const server::ServedTrace& served, server::TileRequest request) const {
    const model::Trace& trace = served.trace();
    const distributed::ThreadShare share =
        distributed::ShareOf(trace, group_.rank(), group_.size());
    request.here.assign(trace.threads.size(), 0);
    for (uint32_t t = share.begin; t < share.end; ++t)
      request.here[t] = 1;
    request.long_arrows = false;
    std::string part;
    if (!served.DrawTile(request, &part).ok()) part.clear();
    return part;
  }

  // This process's threads' part of the statistics of `selection`.
  analysis::StateStatsBuilder StatsPart(const server::ServedTrace& served,
                                        const analysis::Selection& selection) const {
    const distributed::ThreadShare share =
        distributed::ShareOf(served.trace(), group_.rank(), group_.size());
    return served.store_timeline().SelectionStatsBuilder(
        selection, [share](uint32_t thread) { return share.Has(thread); });
  }

  // Loads the traces process 0 loaded, as it serves them; what failed, or
  // nothing.
  std::string LoadHere(WireReader* in) {
    const auto traces = store_.traces();
    std::vector<uint8_t> served(traces.size(), kNotLoaded);
    uint64_t memory = 0;
    for (uint8_t& s : served)
      if (!in->Get(&s)) return "a load message that is cut short";
    if (!in->Get(&memory)) return "a load message that is cut short";
    std::string failed;
    for (size_t i = 0; i < traces.size(); ++i) {
      if (served[i] == kNotLoaded) continue;
      server::ServedTrace& trace = *traces[i];
      server::StoreServing serving = ServingOf(trace.path(), global_, print_mu_);
      serving.memory_bytes = memory;
      serving.warn = {};  // process 0 says it (the others print only their errors)
      trace.ServeLargeFromFile(std::move(serving),
                               served[i] == kFromFile ? 0 : std::numeric_limits<uint64_t>::max());
      // On a thread of its own: loading lowers its thread's priority once
      // the timeline is served, and this thread goes on to draw tiles.
      std::thread([&trace] { trace.Load({}, false); }).join();
      if (!trace.ready())
        failed += StrFormat("%sprocess %d could not load %s: %s", failed.empty() ? "" : "; ",
                            group_.rank(), trace.name().c_str(), trace.progress().error.c_str());
      else if (trace.from_store() != (served[i] == kFromFile))
        failed += StrFormat("%sprocess %d: %s is not served as process 0 serves it",
                            failed.empty() ? "" : "; ", group_.rank(), trace.name().c_str());
    }
    return failed;
  }

  distributed::Group& group_;
  server::TraceStore& store_;
  server::Api api_;  // the others': answers about their rows
  const GlobalOptions& global_;
  std::mutex* print_mu_;
  std::mutex mu_;  // one step at a time
  bool stopped_ = false;
  std::atomic<bool> spreading_{false};
};

}  // namespace

Status RunSpreadServe(const ServeOptions& o, const GlobalOptions& global) {
  distributed::Group& group = *global.group;
  const bool first = group.rank() == 0;
  if (!o.listen.empty())
    return InvalidArgument(
        "--listen: live streams are served by 'parallax serve', not spread over processes");
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  if (first) pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // Every process adds the same traces; an error anywhere ends them all.
  server::TraceStore store;
  std::mutex print_mu;
  StatusOr<std::vector<std::string>> paths = ServePaths(o);
  Status setup = paths.status();
  if (setup.ok()) setup = AddServedTraces(*paths, o, global, &store, &print_mu);
  if (!group.AllOk(setup.ok()))
    return setup.ok() ? Internal("another process could not find the traces") : setup;
  SpreadServer spread(group, store, global, &print_mu);
  if (!first) return spread.Serve();

  for (const auto& trace : store.traces())
    trace->Spread(&spread);
  server::HttpServer http(store, ServerOptionsOf(o));
  if (Status started = http.Start(); !started.ok()) {
    spread.Stop();
    return started;
  }
  PrintUrl(store, http);
  fmt::print(stderr, "parallax: {} processes draw the tiles; press Ctrl-C to stop\n", group.size());

  auto loader = LoadInBackground(store, http, &print_mu);
  // Once process 0 has loaded (and analysed) its traces, the others load.
  std::atomic<bool> started{false};
  Status spread_status;
  std::thread starter([&] {
    loader.reset();
    spread_status = spread.Start();
    {
      std::lock_guard lock(print_mu);
      if (spread_status.ok())
        fmt::print(stderr, "parallax: every process has loaded; tiles are drawn by {} processes\n",
                   group.size());
    }
    started.store(true, std::memory_order_release);
    if (!spread_status.ok()) kill(getpid(), SIGTERM);
  });

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  fmt::print(stderr, "parallax: stopping\n");
  http.Stop();
  spread.Stop();
  if (!started.load(std::memory_order_acquire)) {
    // A trace is still loading here; its thread cannot be interrupted.
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  starter.join();
  return spread_status;
}

}  // namespace plx::cli
