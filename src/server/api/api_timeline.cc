// The timeline's endpoints: tiles, details of one slice / instant / message,
// and search by name.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "base/strings.h"
#include "server/api/api_handlers.h"
#include "server/timeline/rowmap.h"
#include "server/timeline/store_timeline.h"
#include "server/timeline/tile_builder.h"

namespace plx::server::handlers {
namespace {

Json Field(std::string label, std::string value) {
  return Json{{"label", std::move(label)}, {"value", std::move(value)}};
}

std::string Bytes(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string CommName(const model::Trace& t, uint32_t comm) {
  if (comm >= t.communicators.size()) return "?";
  const model::Communicator& c = t.communicators[comm];
  return c.name.empty() ? "comm " + std::to_string(c.file_id) : c.name;
}

// Row `id` of t's slices, or with `shown` its row `id` answered as slice `shown`
// (a trace served from its file holds only the slice's chunk).
ApiResponse SliceDetails(const model::Trace& t, uint32_t id, uint32_t shown) {
  const model::SliceTable& s = t.slices;
  const uint32_t thread = s.thread[id];
  Json fields = Json::array();
  fields.push_back(Field("self time", FormatDuration(s.self_ns[id])));
  const model::State& state = t.states[s.state[id]];
  if (state.category < t.categories.size())
    fields.push_back(Field("category", t.categories[state.category].name));
  if (s.callsite[id] < t.callsites.size()) {
    const model::Callsite& c = t.callsites[s.callsite[id]];
    fields.push_back(Field("source", c.file + ":" + std::to_string(c.line)));
    if (!c.function.empty()) fields.push_back(Field("function", c.function));
  }
  if (s.flags[id] & model::SliceTable::kUnclosed)
    fields.push_back(Field("unclosed", "never left; ends at the thread's last record"));
  return JsonResponse(Json{{"kind", "slice"},
                           {"id", shown},
                           {"name", state.name},
                           {"row", thread},
                           {"begin", TraceTime(t, s.begin[id])},
                           {"end", TraceTime(t, s.end[id])},
                           {"depth", s.depth[id]},
                           {"callsite", CallsiteJson(t, s.callsite[id])},
                           {"fields", std::move(fields)}});
}

ApiResponse InstantDetails(const model::Trace& t, uint32_t id, uint32_t shown) {
  const model::InstantTable& e = t.instants;
  Json fields = Json::array();
  switch (e.kind[id]) {
    case model::ValueKind::kInt:
      fields.push_back(Field("value", std::to_string(e.int_value[id])));
      break;
    case model::ValueKind::kDouble:
      fields.push_back(Field("value", Json(e.double_value[id]).dump()));
      break;
    case model::ValueKind::kString:
      if (e.text[id] < t.texts.size()) fields.push_back(Field("text", t.texts[e.text[id]]));
      break;
    case model::ValueKind::kNone:
      break;
  }
  if (e.callsite[id] < t.callsites.size()) {
    const model::Callsite& c = t.callsites[e.callsite[id]];
    fields.push_back(Field("source", c.file + ":" + std::to_string(c.line)));
  }
  const std::string name =
      e.type[id] < t.event_types.size() ? t.event_types[e.type[id]].name : "event";
  return JsonResponse(Json{{"kind", "instant"},
                           {"id", shown},
                           {"name", name},
                           {"row", e.thread[id]},
                           {"begin", TraceTime(t, e.time[id])},
                           {"end", TraceTime(t, e.time[id])},
                           {"depth", 0},
                           {"callsite", CallsiteJson(t, e.callsite[id])},
                           {"fields", std::move(fields)}});
}

// `id` is a message record: the send, or the receive (replay steps land on
// both), which shows its matched send's message.
ApiResponse MessageDetails(ServedTrace& served, uint32_t id) {
  const model::Trace& t = served.trace();
  const model::MessageTable& m = t.messages;
  if (!m.is_send[id]) {
    const uint32_t send = served.replay().partner(id);
    if (send != model::kNone) return MessageDetails(served, send);
    Json fields = Json::array();
    fields.push_back(Field("from", "(no send recorded)"));
    fields.push_back(Field("to", RowLabel(t, m.thread[id])));
    fields.push_back(Field("size", Bytes(m.bytes[id])));
    fields.push_back(Field("tag", std::to_string(m.tag[id])));
    fields.push_back(Field("communicator", CommName(t, m.comm[id])));
    return JsonResponse(Json{{"kind", "message"},
                             {"id", id},
                             {"name", "receive"},
                             {"row", m.thread[id]},
                             {"begin", TraceTime(t, m.time[id])},
                             {"end", TraceTime(t, m.time[id])},
                             {"depth", 0},
                             {"callsite", nullptr},
                             {"fields", std::move(fields)}});
  }
  const uint32_t send = id;
  const auto& pairs = served.pairs().pairs;
  const auto it =
      std::lower_bound(pairs.begin(), pairs.end(), send,
                       [](const time::MessagePair& p, uint32_t s) { return p.send < s; });
  const bool matched = it != pairs.end() && it->send == send;
  const uint32_t recv = matched ? it->recv : model::kNone;
  Json fields = Json::array();
  fields.push_back(Field("from", RowLabel(t, m.thread[send])));
  fields.push_back(Field("to", matched ? RowLabel(t, m.thread[recv]) : "(no receive recorded)"));
  if (matched) fields.push_back(Field("latency", FormatDuration(m.time[recv] - m.time[send])));
  fields.push_back(Field("size", Bytes(m.bytes[send])));
  fields.push_back(Field("tag", std::to_string(m.tag[send])));
  fields.push_back(Field("communicator", CommName(t, m.comm[send])));
  return JsonResponse(Json{{"kind", "message"},
                           {"id", send},
                           {"name", "message"},
                           {"row", m.thread[send]},
                           {"begin", TraceTime(t, m.time[send])},
                           {"end", TraceTime(t, matched ? m.time[recv] : m.time[send])},
                           {"depth", 0},
                           {"callsite", nullptr},
                           {"fields", std::move(fields)}});
}

}  // namespace

ApiResponse Tile(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  TileRequest request;
  const auto rows = q.IndexList("rows", UINT32_MAX - 1, true);
  if (!rows.ok()) return StatusResponse(rows.status());
  request.rows = *rows;
  const auto from = q.RequiredNumber("from", -1e18, 1e18);
  if (!from.ok()) return StatusResponse(from.status());
  const auto to = q.RequiredNumber("to", -1e18, 1e18);
  if (!to.ok()) return StatusResponse(to.status());
  const auto width = q.RequiredInteger("width", 1, 16384);
  if (!width.ok()) return StatusResponse(width.status());
  const auto arrows = q.Bool("arrows", true);
  if (!arrows.ok()) return StatusResponse(arrows.status());
  const auto counters = q.IndexList("counters", UINT32_MAX - 1, false);
  if (!counters.ok()) return StatusResponse(counters.status());
  if (*to <= *from) return ErrorResponse(400, "parameter 'to': must be greater than 'from'");
  for (uint32_t row : request.rows)
    if (row >= t.threads.size())
      return ErrorResponse(400, "parameter 'rows': no row " + std::to_string(row) +
                                    " (the trace has " + std::to_string(t.threads.size()) + ")");
  request.from = *from;
  request.to = *to;
  request.width = static_cast<uint32_t>(*width);
  request.arrows = *arrows;
  request.counters = *counters;
  ApiResponse r;
  r.content_type = "application/octet-stream";
  const Status status = served.Tile(request, &r.body);
  if (!status.ok()) return StatusResponse(status);
  return r;
}

ApiResponse Rowmap(ServedTrace& served, const QueryParams& q) {
  RowmapRequest request;
  const auto rows = q.IndexList("rows", UINT32_MAX - 1, true);
  if (!rows.ok()) return StatusResponse(rows.status());
  const auto from = q.RequiredNumber("from", -1e18, 1e18);
  if (!from.ok()) return StatusResponse(from.status());
  const auto to = q.RequiredNumber("to", -1e18, 1e18);
  if (!to.ok()) return StatusResponse(to.status());
  const auto width = q.RequiredInteger("width", 1, kMaxRowmapWidth);
  if (!width.ok()) return StatusResponse(width.status());
  const auto group = q.Integer("group", 1, 1, kMaxRowmapGroup);
  if (!group.ok()) return StatusResponse(group.status());
  const auto stats = q.Bool("stats", false);
  if (!stats.ok()) return StatusResponse(stats.status());
  const auto state = q.Integer("state", -1, -1, UINT32_MAX - 1);
  if (!state.ok()) return StatusResponse(state.status());
  request.rows = *rows;
  request.from = *from;
  request.to = *to;
  request.width = static_cast<uint32_t>(*width);
  request.group = static_cast<uint32_t>(*group);
  request.stats = *stats;
  request.state = *state;
  const model::Trace& trace = served.trace();
  if (Status s = CheckRowmapRequest(request, static_cast<uint32_t>(trace.threads.size()),
                                    static_cast<uint32_t>(trace.states.size()));
      !s.ok())
    return StatusResponse(s);
  ApiResponse r;
  r.content_type = "application/octet-stream";
  const TileSource tiles = [&served](const TileRequest& t, std::string* out) {
    return served.Tile(t, out);
  };
  const Status status = BuildRowmap(request, tiles, &r.body);
  if (!status.ok()) return StatusResponse(status);
  return r;
}

ApiResponse Details(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto kind = q.Choice("kind", "", {"slice", "instant", "message"});
  if (!kind.ok()) return StatusResponse(kind.status());
  const auto id = q.RequiredInteger("id", 0, UINT32_MAX - 1);
  if (!id.ok()) return StatusResponse(id.status());
  const auto row = static_cast<uint32_t>(*id);
  if (served.from_store()) {
    if (*kind == "message")
      return ErrorResponse(501, "message details need the messages paired: trace '" + served.id() +
                                    "' is served from its file");
    const StoreTimeline& st = served.store_timeline();
    const store::TableIndex table = *kind == "slice" ? store::kSlices : store::kInstants;
    if (std::optional<ApiResponse> owner =
            served.AskOwner(table, row, "details", "kind=" + *kind + "&id=" + std::to_string(row)))
      return *std::move(owner);
    uint32_t local = 0;
    const std::optional<model::Trace> chunk = st.RowsAround(table, row, &local);
    if (!chunk)
      return ErrorResponse(404, "parameter 'id': no " + *kind + " " + std::to_string(row));
    return table == store::kSlices ? SliceDetails(*chunk, local, row)
                                   : InstantDetails(*chunk, local, row);
  }
  const size_t size = *kind == "slice"     ? t.slices.size()
                      : *kind == "instant" ? t.instants.size()
                                           : t.messages.size();
  if (row >= size)
    return ErrorResponse(404, "parameter 'id': no " + *kind + " " + std::to_string(row));
  if (*kind == "slice") return SliceDetails(t, row, row);
  if (*kind == "instant") return InstantDetails(t, row, row);
  return MessageDetails(served, row);
}

ApiResponse Search(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto text = q.RequiredString("q");
  if (!text.ok()) return StatusResponse(text.status());
  if (text->empty()) return ErrorResponse(400, "parameter 'q': must not be empty");
  const auto from = q.Number("from", 0, -1e18, 1e18);
  if (!from.ok()) return StatusResponse(from.status());
  const auto limit = q.Integer("limit", 100, 1, 10000);
  if (!limit.ok()) return StatusResponse(limit.status());
  const std::string needle = AsciiLower(*text);
  std::vector<uint8_t> match(t.states.size(), 0);
  Json states = Json::array(), event_types = Json::array();
  for (uint32_t i = 0; i < t.states.size(); ++i)
    if (AsciiLower(t.states[i].name).find(needle) != std::string::npos) {
      match[i] = 1;
      states.push_back(i);
    }
  for (uint32_t i = 0; i < t.event_types.size(); ++i)
    if (AsciiLower(t.event_types[i].name).find(needle) != std::string::npos)
      event_types.push_back(i);
  // Slices are sorted by thread, then begin: collect the matches from `from`
  // on and keep the earliest `limit` of them.
  const int64_t begin = ModelTime(t, *from);
  std::vector<uint32_t> found;
  uint64_t total = 0;
  if (served.from_store()) {
    // The count from the statistics; the earliest slices from each thread's
    // chunks, already in order.
    StoreTimeline& store = served.store_timeline();
    for (const analysis::StateStats& row : store.stats().all.states)
      if (row.state < match.size() && match[row.state]) total += row.count;
    if (!states.empty()) found = store.Search(match, begin, static_cast<size_t>(*limit));
  } else if (!states.empty()) {
    const model::SliceTable& s = t.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!match[s.state[i]]) continue;
      ++total;
      if (s.begin[i] >= begin) found.push_back(i);
    }
    const size_t keep = std::min<size_t>(found.size(), static_cast<size_t>(*limit));
    std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep), found.end(),
                      [&](uint32_t a, uint32_t b) {
                        return s.begin[a] != s.begin[b] ? s.begin[a] < s.begin[b] : a < b;
                      });
    found.resize(keep);
  }
  Json slices = Json::array();
  const SliceRefs refs(served);
  for (uint32_t row : found)
    slices.push_back(refs.Ref(row));
  return JsonResponse(Json{{"states", std::move(states)},
                           {"event_types", std::move(event_types)},
                           {"slices", std::move(slices)},
                           {"total", total}});
}

}  // namespace plx::server::handlers
