// Frame cutting with bounds, and the HELLO / END JSON (nlohmann/json, which
// throws nothing here: parse errors come back as discarded values).
#include "server/live/live_frame.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "base/varint.h"

namespace plx::server::live {

using Json = nlohmann::json;

void AppendFrame(FrameKind kind, const void* payload, size_t size, std::vector<uint8_t>* out) {
  const size_t at = out->size();
  out->resize(at + kFrameHeaderSize + size);
  StoreLE<uint32_t>(out->data() + at, static_cast<uint32_t>(size + 1));
  (*out)[at + 4] = static_cast<uint8_t>(kind);
  if (size > 0) std::memcpy(out->data() + at + kFrameHeaderSize, payload, size);
}

// A payload starts with this much room and doubles as bytes arrive: a
// peer that declares a 64 MiB frame and sends nothing costs nothing.
constexpr size_t kFirstReserve = 256 << 10;

Status FrameReader::Feed(const uint8_t* data, size_t size, std::vector<Frame>* out) {
  while (size > 0) {
    if (!in_payload_) {
      if (header_fill_ == 0) frame_offset_ = offset_;
      const size_t n = std::min(size, kFrameHeaderSize - header_fill_);
      std::memcpy(header_ + header_fill_, data, n);
      header_fill_ += n, data += n, size -= n, offset_ += n;
      if (header_fill_ < kFrameHeaderSize) return Status::Ok();
      header_fill_ = 0;
      const uint32_t length = LoadLE<uint32_t>(header_);
      const uint8_t kind = header_[4];
      const auto where = [&] {
        return StrFormat("offset %llu: frame", static_cast<unsigned long long>(frame_offset_));
      };
      if (kind < 1 || kind > 3)
        return InvalidArgument(where() + StrFormat(" kind: %u is not HELLO, CHUNK or END", kind));
      if (length < 1 || length > kMaxFrameLength)
        return InvalidArgument(where() + StrFormat(" length: %u (1..%u)", length, kMaxFrameLength));
      kind_ = static_cast<FrameKind>(kind);
      if (frame_offset_ == 0 && kind_ != FrameKind::kHello)
        return InvalidArgument(where() +
                               StrFormat(" kind: %u; the first frame must be HELLO", kind));
      if (kind_ != FrameKind::kChunk && length - 1 > kMaxJsonFrame)
        return InvalidArgument(where() + StrFormat(" length: %u; HELLO and END are at most %u",
                                                   length, kMaxJsonFrame + 1));
      expected_ = length - 1;
      payload_.clear();
      payload_.reserve(std::min<size_t>(expected_, kFirstReserve));
      in_payload_ = true;
    }
    const size_t n = std::min(size, expected_ - payload_.size());
    payload_.insert(payload_.end(), data, data + n);
    data += n, size -= n, offset_ += n;
    if (payload_.size() == expected_) {
      out->push_back({kind_, frame_offset_, std::move(payload_)});
      payload_ = {};
      in_payload_ = false;
    }
  }
  return Status::Ok();
}

namespace {

// The JSON object of a frame, or an error naming the frame.
StatusOr<Json> ParseObject(std::string_view text, const char* frame) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return InvalidArgument(std::string(frame) + ": not a JSON object");
  return j;
}

// Reads an optional field of type T (numbers as integers); false when it is
// there with another type.
template <typename T>
bool Field(const Json& j, const char* name, T* out) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return true;
  if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return false;
    *out = it->template get<std::string>();
  } else {
    if (!it->is_number_integer()) return false;
    if constexpr (std::is_unsigned_v<T>) {
      if (it->is_number_unsigned()) {
        *out = static_cast<T>(it->template get<uint64_t>());
        return true;
      }
      if (it->template get<int64_t>() < 0) return false;
    }
    *out = static_cast<T>(it->template get<int64_t>());
  }
  return true;
}

}  // namespace

StatusOr<Hello> ParseHello(std::string_view json) {
  PLX_ASSIGN_OR_RETURN(Json j, ParseObject(json, "HELLO"));
  Hello h;
  std::string format;
  for (const auto& [name, ok] :
       {std::pair<const char*, bool>{"protocol", Field(j, "protocol", &h.protocol)},
        {"token", Field(j, "token", &h.token)},
        {"format", Field(j, "format", &format)},
        {"pid", Field(j, "pid", &h.pid)},
        {"host", Field(j, "host", &h.host)},
        {"executable", Field(j, "executable", &h.executable)}})
    if (!ok) return InvalidArgument(std::string("HELLO: field '") + name + "' has the wrong type");
  if (h.protocol != kProtocol)
    return InvalidArgument(
        StrFormat("HELLO: protocol %u; this server speaks %u", h.protocol, kProtocol));
  if (!format.empty()) {
    unsigned major = 0, minor = 0;
    if (std::sscanf(format.c_str(), "%u.%u", &major, &minor) != 2)
      return InvalidArgument("HELLO: format '" + format.substr(0, 32) + "' is not MAJOR.MINOR");
    h.format_major = major, h.format_minor = minor;
  }
  return h;
}

StatusOr<End> ParseEnd(std::string_view json) {
  PLX_ASSIGN_OR_RETURN(Json j, ParseObject(json, "END"));
  End e;
  std::string status;
  for (const auto& [name, ok] :
       {std::pair<const char*, bool>{"status", Field(j, "status", &status)},
        {"signal", Field(j, "signal", &e.signal)},
        {"records", Field(j, "records", &e.records)},
        {"dropped_chunks", Field(j, "dropped_chunks", &e.dropped_chunks)}})
    if (!ok) return InvalidArgument(std::string("END: field '") + name + "' has the wrong type");
  if (status != "finished" && status != "crashed")
    return InvalidArgument("END: status '" + status.substr(0, 32) +
                           "' is not 'finished' or 'crashed'");
  e.finished = status == "finished";
  return e;
}

std::string HelloJson(const Hello& h) {
  return Json{{"protocol", h.protocol},
              {"token", h.token},
              {"format", StrFormat("%u.%u", h.format_major, h.format_minor)},
              {"pid", h.pid},
              {"host", h.host},
              {"executable", h.executable}}
      .dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string EndJson(const End& e) {
  Json j{{"status", e.finished ? "finished" : "crashed"},
         {"records", e.records},
         {"dropped_chunks", e.dropped_chunks}};
  if (!e.finished) j["signal"] = e.signal;
  return j.dump();
}

}  // namespace plx::server::live
