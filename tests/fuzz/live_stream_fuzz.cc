// libFuzzer target for live ingest (src/server/live/): the input is the
// bytes one or two traced programs send to `parallax serve --listen`, fed in
// pieces to LiveSessions over one LiveTrace, then a snapshot is built from
// what was applied and loaded. Nothing may crash, and the counters must
// agree (applied <= received; a snapshot always loads).
//
// Input: byte 0 flags (bit 0: start each connection with a valid HELLO; bit
// 1: two connections), byte 1 the piece size, bytes 2-3 where the second
// connection's bytes start (u16le), then the stream bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "server/live/live_frame.h"
#include "server/live/live_publisher.h"
#include "server/live/live_session.h"

namespace {

using namespace plx::server;

void Append(std::vector<uint8_t>* out, bool hello) {
  if (!hello) return;
  live::Hello h;
  h.protocol = live::kProtocol;
  h.token = "fuzz";
  h.format_major = 1;
  h.pid = 1;
  const std::string json = live::HelloJson(h);
  live::AppendFrame(live::FrameKind::kHello, json.data(), json.size(), out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const bool hello = data[0] & 1, two = data[0] & 2;
  const size_t piece = data[1] == 0 ? 1 : data[1];
  size_t split = static_cast<size_t>(data[2]) | static_cast<size_t>(data[3]) << 8;
  data += 4, size -= 4;
  if (!two || split > size) split = size;

  live::LiveOptions options;
  options.token = "fuzz";
  options.max_buffered = 64;  // small bounds: forcing paths run too
  options.window_bytes = 1 << 16;
  options.stall = std::chrono::milliseconds(0);
  live::LiveTrace trace(options);
  TraceStore store;
  live::LivePublisher publisher(trace, store, nullptr);

  std::vector<uint8_t> streams[2];
  for (int i = 0; i < (two ? 2 : 1); ++i)
    Append(&streams[i], hello);
  streams[0].insert(streams[0].end(), data, data + split);
  if (two) streams[1].insert(streams[1].end(), data + split, data + size);
  live::LiveSession a(trace, "fuzz:1"), b(trace, "fuzz:2");
  live::LiveSession* sessions[2] = {&a, &b};
  size_t at[2] = {0, 0};
  bool open[2] = {true, two};
  while (open[0] || open[1]) {
    for (int i = 0; i < 2; ++i) {
      if (!open[i]) continue;
      const size_t n = std::min(piece, streams[i].size() - at[i]);
      if (n == 0 || !sessions[i]->Feed(streams[i].data() + at[i], n)) open[i] = false;
      at[i] += n;
    }
  }
  a.Close();
  b.Close();
  publisher.UpdateNow();
  const LiveStatus s = publisher.status();
  if (s.applied > s.received) std::abort();
  if (!publisher.current()->ready()) std::abort();
  return 0;
}
