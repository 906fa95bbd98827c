// The tables `parallax query` answers SQL over: their names, columns and
// what a row is, declared once. The virtual tables (query/*_tables.cc) take
// their columns from here, and docs/query-tables.md is printed from here
// (`parallax query --schema`), so the two cannot drift apart.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plx::query {

enum class ColumnType : uint8_t { kInteger, kReal, kText };

struct ColumnSpec {
  const char* name;
  ColumnType type;
  const char* doc;  // one line
};

struct TableSpec {
  const char* name;
  const char* row;    // what one row is
  const char* reads;  // what a scan reads, and which constraints narrow it
  std::vector<ColumnSpec> columns;
};

// The columns of each table, in the order TableSpec::columns has them (the
// cursors read by these; schema.cc places every spec by them).
enum SliceColumn : int {
  kSliceId,
  kSliceThread,
  kSliceProcess,
  kSliceRank,
  kSliceState,
  kSliceStateId,
  kSliceCategory,
  kSliceBegin,
  kSliceEnd,
  kSliceDur,
  kSliceSelf,
  kSliceDepth,
  kSliceCallsite,
  kSliceCallsiteId,
  kSliceUnclosed,
  kSliceColumns
};
enum InstantColumn : int {
  kInstantId,
  kInstantThread,
  kInstantProcess,
  kInstantRank,
  kInstantTime,
  kInstantName,
  kInstantCategory,
  kInstantValue,
  kInstantCallsite,
  kInstantColumns
};
enum SampleColumn : int {
  kSampleThread,
  kSampleProcess,
  kSampleRank,
  kSampleTime,
  kSampleCounter,
  kSampleValue,
  kSampleColumns
};
enum CollectiveColumn : int {
  kCollectiveId,
  kCollectiveThread,
  kCollectiveProcess,
  kCollectiveRank,
  kCollectiveTime,
  kCollectiveOp,
  kCollectiveComm,
  kCollectiveRoot,
  kCollectiveSent,
  kCollectiveReceived,
  kCollectiveColumns
};
enum MessageColumn : int {
  kMessageId,
  kMessageSendThread,
  kMessageRecvThread,
  kMessageSender,
  kMessageReceiver,
  kMessageSendRank,
  kMessageRecvRank,
  kMessageComm,
  kMessageTag,
  kMessageBytes,
  kMessageSendTime,
  kMessageRecvTime,
  kMessageLatency,
  kMessageSendSlice,
  kMessageRecvSlice,
  kMessageSendCall,
  kMessageRecvCall,
  kMessageColumns
};
enum ThreadColumn : int {
  kThreadId,
  kThreadProcess,
  kThreadRank,
  kThreadStream,
  kThreadTid,
  kThreadName,
  kThreadBegin,
  kThreadEnd,
  kThreadRecords,
  kThreadColumns
};
enum ProcessColumn : int {
  kProcessId,
  kProcessRank,
  kProcessPid,
  kProcessHost,
  kProcessExecutable,
  kProcessName,
  kProcessThreads,
  kProcessColumns
};
enum StateColumn : int { kStateId, kStateName, kStateCategory, kStateColor, kStateColumns };
enum CallsiteColumn : int {
  kCallsiteId,
  kCallsiteFile,
  kCallsiteLine,
  kCallsiteFunction,
  kCallsiteColumns
};
enum CounterColumn : int { kCounterId, kCounterName, kCounterUnit, kCounterColumns };
enum WaitColumn : int {
  kWaitSlice,
  kWaitKind,
  kWaitThread,
  kWaitProcess,
  kWaitRank,
  kWaitBegin,
  kWaitEnd,
  kWaitDur,
  kWaitCauseThread,
  kWaitCauseRank,
  kWaitColumns
};
enum PathColumn : int {
  kPathSegment,
  kPathThread,
  kPathProcess,
  kPathRank,
  kPathBegin,
  kPathEnd,
  kPathDur,
  kPathColumns
};
enum AnomalyColumn : int {
  kAnomalySlice,
  kAnomalyThread,
  kAnomalyProcess,
  kAnomalyRank,
  kAnomalyState,
  kAnomalyBegin,
  kAnomalyDur,
  kAnomalyMedian,
  kAnomalyLimit,
  kAnomalyScore,
  kAnomalyGroupSize,
  kAnomalyColumns
};

/// Every table, in the order the docs list them.
const std::vector<TableSpec>& Tables();
/// The table called `name`; null when there is none.
const TableSpec* FindTable(std::string_view name);
/// Index of column `name` in `table`; -1 when it has none.
int ColumnIndex(const TableSpec& table, std::string_view name);

/// "CREATE TABLE name(col TYPE, ...)", as SQLite's virtual tables declare
/// themselves and `.schema` shows them.
std::string CreateStatement(const TableSpec& table);
/// The tables as Markdown: docs/query-tables.md.
std::string SchemaMarkdown();

}  // namespace plx::query
