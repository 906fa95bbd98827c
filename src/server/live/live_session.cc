// LiveSession: HELLO first and only then, CHUNKs, END last.
#include "server/live/live_session.h"

#include <string_view>

#include "base/strings.h"
#include "server/api/access_token.h"

namespace plx::server::live {

namespace {

using ull = unsigned long long;

std::string_view Text(const std::vector<uint8_t>& payload) {
  return {reinterpret_cast<const char*>(payload.data()), payload.size()};
}

}  // namespace

LiveSession::LiveSession(LiveTrace& trace, std::string peer)
    : trace_(trace), peer_(std::move(peer)) {}

LiveSession::~LiveSession() {
  Close();
}

void LiveSession::Close() {
  if (closed_) return;
  closed_ = true;
  if (!failed_ && !ended_ && hello_ && !reader_.at_frame_boundary())
    trace_.BadInput(connection_, StrFormat("offset %llu: connection closed inside a frame",
                                           static_cast<ull>(reader_.offset())));
  if (hello_) trace_.Disconnect(connection_);
}

void LiveSession::Refuse(const std::string& why) {
  if (failed_ || closed_ || hello_) return;
  Bad(why);
  Close();
}

bool LiveSession::Bad(const std::string& what) {
  failed_ = true;
  if (hello_)
    trace_.BadInput(connection_, what);
  else
    trace_.Refused(peer_, what);
  return false;
}

bool LiveSession::Feed(const uint8_t* data, size_t size) {
  if (failed_ || closed_) return false;
  while (size > 0) {
    // Before HELLO, one step (a header, a payload) at a time: nothing past
    // the HELLO is read before it was checked.
    const size_t n = hello_ ? size : std::min(size, reader_.bytes_to_next_step());
    frames_.clear();
    const Status s = reader_.Feed(data, n, &frames_);
    data += n, size -= n;
    // Frames completed before a bad one still count.
    for (FrameReader::Frame& f : frames_)
      if (!HandleFrame(f)) return false;
    if (!s.ok()) return Bad(s.message());
  }
  return true;
}

bool LiveSession::HandleFrame(FrameReader::Frame& f) {
  const auto at = [&](const std::string& what) {
    return StrFormat("offset %llu: ", static_cast<ull>(f.offset)) + what;
  };
  if (ended_) return Bad(at("a frame after END"));
  switch (f.kind) {
    case FrameKind::kHello: {
      if (hello_) return Bad(at("a second HELLO"));
      StatusOr<live::Hello> hello = ParseHello(Text(f.payload));
      if (!hello.ok()) return Bad(at(hello.status().message()));
      if (!TokenEquals(hello->token, trace_.options().token))
        return Bad(at("HELLO: wrong token (use the PLX_LIVE_TOKEN parallax serve printed)"));
      if (hello->format_major != 0 && hello->format_major != format::kVersionMajor)
        return Bad(at(StrFormat("HELLO: format %u.%u; this server reads %u.x", hello->format_major,
                                hello->format_minor, format::kVersionMajor)));
      connection_ = trace_.Connect(peer_);
      hello_ = true;
      checker_ = std::make_unique<ChunkChecker>(connection_);
      trace_.Hello(connection_, *hello);
      return true;
    }
    case FrameKind::kChunk: {
      if (!hello_) return Bad(at("CHUNK before HELLO"));
      CheckedChunk chunk;
      const Status s = checker_->Check(f.payload, f.offset + kFrameHeaderSize, &chunk);
      if (!s.ok()) return Bad(s.message());
      checker_->Unpack(&f.payload, &chunk);
      trace_.AddChunk(connection_, chunk, std::move(f.payload), checker_->messages(),
                      checker_->rank());
      return true;
    }
    case FrameKind::kEnd: {
      if (!hello_) return Bad(at("END before HELLO"));
      StatusOr<live::End> end = ParseEnd(Text(f.payload));
      if (!end.ok()) return Bad(at(end.status().message()));
      ended_ = true;
      trace_.End(connection_, *end);
      return true;
    }
  }
  return Bad(at("unknown frame"));
}

}  // namespace plx::server::live
