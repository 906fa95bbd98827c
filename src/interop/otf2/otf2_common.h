// What the OTF2 reader and writer share: the library's error reports caught
// instead of printed, the anchor path split into OTF2's (directory, name),
// and the collective operation codes both ways.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <string>

namespace plx::interop::otf2 {

/// Routes the OTF2 library's error reports to LastLibraryError() instead of
/// stderr (installed once per process; the report is kept per thread).
void CaptureLibraryErrors();
/// The last report of the library on this thread ("" when none); clears it.
std::string TakeLibraryError();
/// "NAME: description" of `code`, with the library's last report if any.
std::string ErrorText(OTF2_ErrorCode code);

/// NAME.otf2 -> directory "DIR" and archive name "NAME"; false when the path
/// does not end in ".otf2" or the name is empty.
bool SplitAnchor(const std::string& anchor, std::string* dir, std::string* name);

/// format-records.md `collective` op (1 barrier .. 13 other) to OTF2's.
OTF2_CollectiveOp ToOtf2CollectiveOp(uint8_t op);
/// OTF2's collective op to format-records.md's (v/w variants to their base).
uint8_t FromOtf2CollectiveOp(OTF2_CollectiveOp op);

}  // namespace plx::interop::otf2
