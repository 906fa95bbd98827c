// CheckEveryCut: the reader's promise for files cut short by a crash, checked
// on any .plx file (written by TraceWriter or by the capture runtime): every
// prefix of the file opens with exactly the whole chunks it holds.
#pragma once

#include <cstdint>
#include <string>

namespace plx::format::testing {

/// Cuts the (undamaged) file at `path` at every chunk boundary -1/0/+1, inside
/// the file header, and at `random_cuts` offsets drawn with `seed`, and checks
/// each prefix with gtest assertions: a cut inside the 16-byte file header
/// fails with a one-line DataLoss error; any other cut opens with exactly the
/// whole chunks before the cut (counts, streams, definitions, records), every
/// EVENTS chunk decodes, `truncated` is set unless the cut is on a boundary,
/// and nothing is reported damaged. Stops at the first cut that fails. Costs
/// about (cuts x file size): keep the file to a few hundred chunks.
void CheckEveryCut(const std::string& path, int random_cuts, uint32_t seed);

}  // namespace plx::format::testing
