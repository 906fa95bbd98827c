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
