// Generic access to the record tables of a Trace: code that treats every
// table alike (copying one thread's rows, cutting tables back) goes through
// these instead of naming the eight tables itself.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace plx::model {

/// Calls f(column of a, column of b) for each pair of columns of two tables.
template <typename A, typename B, typename F>
void ZipColumns(A a, B b, F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (f(std::get<I>(a), std::get<I>(b)), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<A>>{});
}

/// A table's columns() must list all its columns (all of them vectors): a
/// column left out would be neither cut back nor copied.
template <typename Table>
constexpr bool ListsEveryColumn() {
  using Columns = decltype(std::declval<Table&>().columns());
  return sizeof(Table) == std::tuple_size_v<Columns> * sizeof(std::vector<uint8_t>);
}
static_assert(ListsEveryColumn<SliceTable>() && ListsEveryColumn<InstantTable>() &&
              ListsEveryColumn<MessageTable>() && ListsEveryColumn<CounterTable>() &&
              ListsEveryColumn<RmaTable>() && ListsEveryColumn<ControlTable>() &&
              ListsEveryColumn<CollectiveTable>() && ListsEveryColumn<RecvPostTable>());

/// The record tables, in the order ForEachTable visits them.
inline constexpr size_t kTableCount = 8;
static_assert(kTableCount == kRecordTableCount,
              "spec/model.toml's record tables and ForEachTable's differ");

/// Calls f(table of a, table of b) for every record table of two traces.
template <typename A, typename B, typename F>
void ForEachTable(A& a, B& b, F&& f) {
  f(a.slices, b.slices);
  f(a.instants, b.instants);
  f(a.messages, b.messages);
  f(a.counter_samples, b.counter_samples);
  f(a.rma, b.rma);
  f(a.controls, b.controls);
  f(a.collectives, b.collectives);
  f(a.recv_posts, b.recv_posts);
}

/// Calls f(table) for every record table of one trace.
template <typename T, typename F>
void ForEachTable(T& t, F&& f) {
  ForEachTable(t, t, [&](auto& table, const auto&) { f(table); });
}

/// Resizes every column of a table to n rows.
template <typename Table>
void ResizeTable(Table& table, size_t n) {
  std::apply([n](auto&... column) { (column.resize(n), ...); }, table.columns());
}

/// Gives every column of a table room for n rows.
template <typename Table>
void ReserveTable(Table& table, size_t n) {
  std::apply([n](auto&... column) { (column.reserve(n), ...); }, table.columns());
}

}  // namespace plx::model
