// Collective matching: which records of different processes are one
// collective operation. MPI requires every member of a communicator to call
// its collectives in the same order, so the k-th collective record of each
// process on a communicator belongs to the k-th operation on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::time {

/// Who waits for whom in a collective operation, from its `op` code
/// (spec/records.toml: 1 barrier ... 13 other).
enum class CollectiveShape : uint8_t {
  kUnknown,    // neighbourhood exchanges (depend on the topology), other
  kAllToAll,   // barrier, allgather, alltoall, allreduce, reduce_scatter
  kPrefix,     // scan, exscan: rank i needs the data of ranks below it
  kRootToAll,  // bcast, scatter: the members need the root
  kAllToRoot,  // gather, reduce: the root needs the members
};

/// The shape of collective `op`.
CollectiveShape CollectiveShapeOf(uint8_t op);

/// The records of each collective operation, grouped across processes.
struct CollectiveInstances {
  std::vector<uint32_t> first;        // instance i: rows[first[i] .. first[i+1])
  std::vector<uint32_t> rows;         // rows of Trace::collectives, ascending per instance
  std::vector<uint32_t> instance_of;  // per Trace::collectives row: its instance, or model::kNone
  std::vector<uint32_t> expected;     // per instance: communicator size (members), 0 = unknown
  size_t size() const { return first.empty() ? 0 : first.size() - 1; }
};

/// Groups Trace::collectives: per communicator (by global id, or by name when
/// the global id is 0) the k-th record of each process on it (in time order)
/// belongs to instance k. Records on an undefined communicator belong to no
/// instance. Instances are numbered in order of their earliest record.
CollectiveInstances GroupCollectives(const model::Trace& trace);

}  // namespace plx::time
