// The tables' declarations. Each column is placed at its enum's position
// (schema.h), so the cursors that read by the enums and the docs printed
// from here name the same columns.
#include "query/schema.h"

#include <cstdlib>
#include <utility>

namespace plx::query {

namespace {

constexpr ColumnType kInt = ColumnType::kInteger;
constexpr ColumnType kReal = ColumnType::kReal;
constexpr ColumnType kText = ColumnType::kText;

// A table whose columns are given as (enum position, spec); every position
// below `count` must be given once.
TableSpec Table(const char* name, const char* row, const char* reads, int count,
                std::initializer_list<std::pair<int, ColumnSpec>> columns) {
  TableSpec t{name, row, reads, std::vector<ColumnSpec>(count, ColumnSpec{nullptr, kInt, ""})};
  for (const auto& [at, spec] : columns) {
    if (at < 0 || at >= count || t.columns[at].name != nullptr) std::abort();
    t.columns[at] = spec;
  }
  for (const ColumnSpec& c : t.columns)
    if (c.name == nullptr) std::abort();
  return t;
}

// Where a record belongs: the columns every per-thread table starts with.
constexpr const char* kThreadDoc = "its thread (threads.id)";
constexpr const char* kProcessDoc = "its process (processes.id)";
constexpr const char* kRankDoc = "its process's MPI rank; NULL outside MPI";

std::vector<TableSpec> MakeTables() {
  std::vector<TableSpec> t;
  t.push_back(Table(
      "slices", "One state instance: a function, MPI call or region, [begin, end) on a thread.",
      "Decodes the chunks of the threads asked for: `thread`, `process` and `rank` (=, IN, "
      "ranges) pick the threads; `begin` and `end` bounds pick each thread's chunks (a "
      "window `end >= A AND begin <= B` reads only the chunks over it); `id` = or IN reads "
      "only the chunks holding those slices (a join on `slices.id` decodes one chunk per "
      "row); `state` = or IN skips other states' rows.",
      kSliceColumns,
      {{kSliceId, {"id", kInt, "the slice's number: the same as the viewer's and the API's"}},
       {kSliceThread, {"thread", kInt, kThreadDoc}},
       {kSliceProcess, {"process", kInt, kProcessDoc}},
       {kSliceRank, {"rank", kInt, kRankDoc}},
       {kSliceState, {"state", kText, "the state's name"}},
       {kSliceStateId, {"state_id", kInt, "the state (states.id)"}},
       {kSliceCategory, {"category", kText, "the state's category; NULL when none"}},
       {kSliceBegin, {"begin", kInt, "enter time, ns"}},
       {kSliceEnd, {"end", kInt, "leave time, ns (never left: the thread's last record)"}},
       {kSliceDur, {"dur", kInt, "end - begin, ns"}},
       {kSliceSelf, {"self", kInt, "dur minus the durations of directly nested slices, ns"}},
       {kSliceDepth, {"depth", kInt, "nesting depth, 0 = outermost"}},
       {kSliceCallsite, {"callsite", kText, "where it was entered, file:line; NULL when unknown"}},
       {kSliceCallsiteId, {"callsite_id", kInt, "callsites.id; NULL when unknown"}},
       {kSliceUnclosed, {"unclosed", kInt, "1: never left before the thread's end"}}}));
  t.push_back(Table(
      "instants", "An instant event or annotation.",
      "As `slices`: `thread`, `process`, `rank`, `time` bounds (and `id`, where there is one) "
      "narrow what is decoded.",
      kInstantColumns,
      {{kInstantId, {"id", kInt, "the instant's number"}},
       {kInstantThread, {"thread", kInt, kThreadDoc}},
       {kInstantProcess, {"process", kInt, kProcessDoc}},
       {kInstantRank, {"rank", kInt, kRankDoc}},
       {kInstantTime, {"time", kInt, "when, ns"}},
       {kInstantName, {"name", kText, "its event type"}},
       {kInstantCategory, {"category", kText, "the event type's category; NULL when none"}},
       {kInstantValue, {"value", kText, "its payload (integer, real or text); NULL when none"}},
       {kInstantCallsite, {"callsite", kText, "file:line; NULL when unknown"}}}));
  t.push_back(Table(
      "counter_samples", "One sample of a counter on a thread.",
      "As `slices`: `thread`, `process`, `rank`, `time` bounds (and `id`, where there is one) "
      "narrow what is decoded.",
      kSampleColumns,
      {{kSampleThread, {"thread", kInt, kThreadDoc}},
       {kSampleProcess, {"process", kInt, kProcessDoc}},
       {kSampleRank, {"rank", kInt, kRankDoc}},
       {kSampleTime, {"time", kInt, "when, ns"}},
       {kSampleCounter, {"counter", kText, "the counter's name (counters.name)"}},
       {kSampleValue, {"value", kReal, "the value"}}}));
  t.push_back(Table(
      "collectives", "A collective operation as one participating thread saw it, at its end.",
      "As `slices`: `thread`, `process`, `rank`, `time` bounds (and `id`, where there is one) "
      "narrow what is decoded.",
      kCollectiveColumns,
      {{kCollectiveId, {"id", kInt, "the record's number"}},
       {kCollectiveThread, {"thread", kInt, kThreadDoc}},
       {kCollectiveProcess, {"process", kInt, kProcessDoc}},
       {kCollectiveRank, {"rank", kInt, kRankDoc}},
       {kCollectiveTime, {"time", kInt, "when it ended, ns"}},
       {kCollectiveOp, {"op", kText, "barrier, bcast, gather, ..., other"}},
       {kCollectiveComm, {"comm", kText, "the communicator's name; NULL when undefined"}},
       {kCollectiveRoot, {"root", kInt, "the root's world rank; NULL when it has none"}},
       {kCollectiveSent, {"sent", kInt, "bytes this process contributed"}},
       {kCollectiveReceived, {"received", kInt, "bytes this process received"}}}));
  t.push_back(Table(
      "messages",
      "A point-to-point message: a send paired with its receive, as `parallax matrix` pairs "
      "them; a send or receive left without partner has NULL on the other side.",
      "Paired by one pass over the whole trace the first time a statement reads it, then "
      "kept; = on any column looks rows up in an index made on first use.",
      kMessageColumns,
      {{kMessageId, {"id", kInt, "the message's number, in send time order"}},
       {kMessageSendThread, {"send_thread", kInt, "the sending thread (threads.id)"}},
       {kMessageRecvThread, {"recv_thread", kInt, "the receiving thread (threads.id)"}},
       {kMessageSender, {"sender", kInt, "the sending process (processes.id)"}},
       {kMessageReceiver, {"receiver", kInt, "the receiving process (processes.id)"}},
       {kMessageSendRank, {"send_rank", kInt, "the sender's MPI rank; NULL outside MPI"}},
       {kMessageRecvRank, {"recv_rank", kInt, "the receiver's MPI rank; NULL outside MPI"}},
       {kMessageComm, {"comm", kText, "the communicator's name; NULL when undefined"}},
       {kMessageTag, {"tag", kInt, "the tag"}},
       {kMessageBytes, {"bytes", kInt, "the size in bytes"}},
       {kMessageSendTime, {"send_time", kInt, "the send record's time, ns"}},
       {kMessageRecvTime, {"recv_time", kInt, "the receive record's time, ns"}},
       {kMessageLatency, {"latency", kInt, "recv_time - send_time, ns"}},
       {kMessageSendSlice, {"send_slice", kInt, "the call that sent it (slices.id); NULL if none"}},
       {kMessageRecvSlice, {"recv_slice", kInt, "the call that received it (slices.id)"}},
       {kMessageSendCall, {"send_call", kText, "that call's state, e.g. MPI_Send"}},
       {kMessageRecvCall, {"recv_call", kText, "that call's state, e.g. MPI_Recv"}}}));
  t.push_back(Table("threads", "A thread (stream) of a process: a row of the timeline.",
                    "From the trace's definitions; nothing is decoded.", kThreadColumns,
                    {{kThreadId, {"id", kInt, "the thread's number"}},
                     {kThreadProcess, {"process", kInt, kProcessDoc}},
                     {kThreadRank, {"rank", kInt, kRankDoc}},
                     {kThreadStream, {"stream", kInt, "stream number in the file"}},
                     {kThreadTid, {"tid", kInt, "operating-system thread id"}},
                     {kThreadName, {"name", kText, "thread name; NULL when none"}},
                     {kThreadBegin, {"begin", kInt, "its first record, ns"}},
                     {kThreadEnd, {"end", kInt, "its last record, ns"}},
                     {kThreadRecords, {"records", kInt, "records it holds"}}}));
  t.push_back(Table("processes", "A traced process.",
                    "From the trace's definitions; nothing is decoded.", kProcessColumns,
                    {{kProcessId, {"id", kInt, "the process's number"}},
                     {kProcessRank, {"rank", kInt, "MPI world rank; NULL outside MPI"}},
                     {kProcessPid, {"pid", kInt, "operating-system process id"}},
                     {kProcessHost, {"host", kText, "host name"}},
                     {kProcessExecutable, {"executable", kText, "path of the program"}},
                     {kProcessName, {"name", kText, "the name it gave itself; NULL when none"}},
                     {kProcessThreads, {"threads", kInt, "its threads"}}}));
  t.push_back(
      Table("states", "A state threads enter and leave.",
            "From the trace's definitions; nothing is decoded.", kStateColumns,
            {{kStateId, {"id", kInt, "the state's number"}},
             {kStateName, {"name", kText, "its name"}},
             {kStateCategory, {"category", kText, "its category; NULL when none"}},
             {kStateColor, {"color", kText, "#rrggbb when the trace set one, else NULL"}}}));
  t.push_back(Table("callsites", "A place in the source.",
                    "From the trace's definitions; nothing is decoded.", kCallsiteColumns,
                    {{kCallsiteId, {"id", kInt, "the call site's number"}},
                     {kCallsiteFile, {"file", kText, "source file"}},
                     {kCallsiteLine, {"line", kInt, "line in it"}},
                     {kCallsiteFunction, {"function", kText, "function name; NULL when none"}}}));
  t.push_back(Table("counters", "A counter whose samples are in counter_samples.",
                    "From the trace's definitions; nothing is decoded.", kCounterColumns,
                    {{kCounterId, {"id", kInt, "the counter's number"}},
                     {kCounterName, {"name", kText, "its name"}},
                     {kCounterUnit, {"unit", kText, "its unit; NULL when none"}}}));
  t.push_back(
      Table("wait_states",
            "Time an MPI call waited for another process: late sender, late receiver, or "
            "waiting at a collective (as `parallax waits` finds them).",
            "Found by one pass over the whole trace the first time a statement reads it, then "
            "kept; = on any column looks rows up in an index made on first use.",
            kWaitColumns,
            {{kWaitSlice, {"slice", kInt, "the waiting call (slices.id)"}},
             {kWaitKind, {"kind", kText, "late-sender, late-receiver or collective"}},
             {kWaitThread, {"thread", kInt, "the waiting thread (threads.id)"}},
             {kWaitProcess, {"process", kInt, "its process (processes.id)"}},
             {kWaitRank, {"rank", kInt, kRankDoc}},
             {kWaitBegin, {"begin", kInt, "the wait began (the call's begin), ns"}},
             {kWaitEnd, {"end", kInt, "the wait ended, ns"}},
             {kWaitDur, {"dur", kInt, "end - begin, ns"}},
             {kWaitCauseThread, {"cause_thread", kInt, "the thread it waited for"}},
             {kWaitCauseRank, {"cause_rank", kInt, "that thread's MPI rank; NULL outside MPI"}}}));
  t.push_back(
      Table("critical_path",
            "A segment of the critical path: the chain of work and waits that set the run's "
            "length (as `parallax critical-path` walks it).",
            "Walked once, after the wait states, the first time a statement reads it; then kept.",
            kPathColumns,
            {{kPathSegment, {"segment", kInt, "the segment's number, in time order"}},
             {kPathThread, {"thread", kInt, "the thread on the path (threads.id)"}},
             {kPathProcess, {"process", kInt, kProcessDoc}},
             {kPathRank, {"rank", kInt, kRankDoc}},
             {kPathBegin, {"begin", kInt, "ns"}},
             {kPathEnd, {"end", kInt, "ns"}},
             {kPathDur, {"dur", kInt, "end - begin, ns"}}}));
  t.push_back(
      Table("anomalies",
            "A slice far longer than usual for its state (and call site), as `parallax "
            "anomalies` finds them with its default options.",
            "Found by two passes over the whole trace the first time a statement reads it; then "
            "kept.",
            kAnomalyColumns,
            {{kAnomalySlice, {"slice", kInt, "the slice (slices.id)"}},
             {kAnomalyThread, {"thread", kInt, kThreadDoc}},
             {kAnomalyProcess, {"process", kInt, kProcessDoc}},
             {kAnomalyRank, {"rank", kInt, kRankDoc}},
             {kAnomalyState, {"state", kText, "its state"}},
             {kAnomalyBegin, {"begin", kInt, "ns"}},
             {kAnomalyDur, {"dur", kInt, "its duration, ns"}},
             {kAnomalyMedian, {"median", kReal, "the median duration of its group, ns"}},
             {kAnomalyLimit, {"limit", kReal, "the group's cut: longer is anomalous, ns"}},
             {kAnomalyScore, {"score", kReal, "(dur - median) / robust sigma"}},
             {kAnomalyGroupSize, {"group_size", kInt, "slices in its group"}}}));
  return t;
}

const char* TypeName(ColumnType t) {
  switch (t) {
    case ColumnType::kInteger:
      return "INTEGER";
    case ColumnType::kReal:
      return "REAL";
    case ColumnType::kText:
      return "TEXT";
  }
  return "";
}

}  // namespace

const std::vector<TableSpec>& Tables() {
  static const std::vector<TableSpec> tables = MakeTables();
  return tables;
}

const TableSpec* FindTable(std::string_view name) {
  for (const TableSpec& t : Tables())
    if (name == t.name) return &t;
  return nullptr;
}

int ColumnIndex(const TableSpec& table, std::string_view name) {
  for (size_t i = 0; i < table.columns.size(); ++i)
    if (name == table.columns[i].name) return static_cast<int>(i);
  return -1;
}

std::string CreateStatement(const TableSpec& table) {
  std::string s = std::string("CREATE TABLE ") + table.name + "(";
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (i > 0) s += ", ";
    // Quoted: `begin` and `end` are SQL keywords.
    s += std::string("\"") + table.columns[i].name + "\" " + TypeName(table.columns[i].type);
  }
  return s + ")";
}

std::string SchemaMarkdown() {
  std::string s =
      "# Query tables\n\n"
      "<!-- Printed by `parallax query --schema` from src/query/schema.cc; the test\n"
      "     query_schema_doc_current fails when this file is stale. -->\n\n"
      "The tables `parallax query` (docs/query.md) answers SQL over. Times are ns since\n"
      "the trace's first record, as `parallax dump` and the viewer's ruler show them, on\n"
      "the clocks as loaded (clock offsets applied, no causal repair), as `parallax\n"
      "stats` and the other commands analyse them.\n";
  for (const TableSpec& t : Tables()) {
    s += std::string("\n## ") + t.name + "\n\n" + t.row + "\n\n" + t.reads + "\n\n";
    s += "| column | type | meaning |\n|---|---|---|\n";
    for (const ColumnSpec& c : t.columns)
      s += std::string("| `") + c.name + "` | " + TypeName(c.type) + " | " + c.doc + " |\n";
  }
  return s;
}

}  // namespace plx::query
