// Shared pieces of the OTF2 reader and writer (see otf2_common.h).
#include "interop/otf2/otf2_common.h"

#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <mutex>

namespace plx::interop::otf2 {

namespace {

thread_local std::string last_error;

OTF2_ErrorCode KeepError(void* /*user*/, const char* /*file*/, uint64_t /*line*/,
                         const char* /*function*/, OTF2_ErrorCode code, const char* format,
                         va_list args) {
  char text[512];
  text[0] = '\0';
  if (format != nullptr) std::vsnprintf(text, sizeof text, format, args);
  last_error = text;
  return code;
}

}  // namespace

void CaptureLibraryErrors() {
  static std::once_flag once;
  std::call_once(once, [] { OTF2_Error_RegisterCallback(KeepError, nullptr); });
}

std::string TakeLibraryError() {
  std::string e;
  e.swap(last_error);
  return e;
}

std::string ErrorText(OTF2_ErrorCode code) {
  std::string text = OTF2_Error_GetName(code);
  text += " (";
  text += OTF2_Error_GetDescription(code);
  text += ")";
  const std::string detail = TakeLibraryError();
  if (!detail.empty()) text += ": " + detail;
  return text;
}

bool SplitAnchor(const std::string& anchor, std::string* dir, std::string* name) {
  const std::filesystem::path path(anchor);
  if (path.extension() != ".otf2" || path.stem().empty()) return false;
  *name = path.stem().string();
  *dir = path.has_parent_path() ? path.parent_path().string() : std::string(".");
  return true;
}

OTF2_CollectiveOp ToOtf2CollectiveOp(uint8_t op) {
  switch (op) {
    case 1:
      return OTF2_COLLECTIVE_OP_BARRIER;
    case 2:
      return OTF2_COLLECTIVE_OP_BCAST;
    case 3:
      return OTF2_COLLECTIVE_OP_GATHER;
    case 4:
      return OTF2_COLLECTIVE_OP_SCATTER;
    case 5:
      return OTF2_COLLECTIVE_OP_ALLGATHER;
    case 6:
      return OTF2_COLLECTIVE_OP_ALLTOALL;
    case 7:
      return OTF2_COLLECTIVE_OP_REDUCE;
    case 8:
      return OTF2_COLLECTIVE_OP_ALLREDUCE;
    case 9:
      return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
    case 10:
      return OTF2_COLLECTIVE_OP_SCAN;
    case 11:
      return OTF2_COLLECTIVE_OP_EXSCAN;
    case 12:
      return OTF2_COLLECTIVE_OP_ALLTOALL;  // OTF2 has no neighbourhood collectives
    default:
      return OTF2_COLLECTIVE_OP_CREATE_HANDLE;  // "other": mostly communicator set-up
  }
}

uint8_t FromOtf2CollectiveOp(OTF2_CollectiveOp op) {
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      return 1;
    case OTF2_COLLECTIVE_OP_BCAST:
      return 2;
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
      return 3;
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
      return 4;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      return 5;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
      return 6;
    case OTF2_COLLECTIVE_OP_REDUCE:
      return 7;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      return 8;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      return 9;
    case OTF2_COLLECTIVE_OP_SCAN:
      return 10;
    case OTF2_COLLECTIVE_OP_EXSCAN:
      return 11;
    default:
      return 13;
  }
}

}  // namespace plx::interop::otf2
