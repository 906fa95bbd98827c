// ExportPicl: a model::Trace as a PICL trace in the MPICL ("new PICL") format
// ParaGraph reads: one record per line, "record event clock node process
// ndata [datatype data...]". Every record ends with the node's sequence number
// (Viper's convention); '#' lines carry names. See docs/interop.md.
#include <string>
#include <string_view>
#include <vector>

#include "interop/event_walk.h"
#include "interop/picl/picl.h"
#include "interop/text_file.h"

namespace plx::interop {

namespace {

// Event types (MPICL): -901 tracing open/close, -21 blocking send, -52
// blocking receive; user tasks (Parallax states) are 1, 2, ...
constexpr int kOpen = -901, kSend = -21, kRecv = -52;
constexpr int kEntry = -3, kExit = -4;

class Writer : public EventVisitor {
 public:
  Writer(const model::Trace& t, TextWriter& out) : t_(t), out_(out) {
    // A node per process: its MPI rank, else its index. Only the process's
    // first thread is written (PICL has one event stream per node).
    node_.resize(t.processes.size());
    seq_.assign(t.processes.size(), 0);
    first_thread_.assign(t.processes.size(), model::kNone);
    for (size_t p = 0; p < t.processes.size(); ++p)
      node_[p] = t.processes[p].rank >= 0 ? t.processes[p].rank : static_cast<int64_t>(p);
    for (size_t th = t.threads.size(); th-- > 0;)
      first_thread_[t.threads[th].process] = static_cast<uint32_t>(th);
  }

  void Header() {
    Put("# PICL trace (MPICL format) written by Parallax from ");
    Put(t_.source);
    Put("\n#plx seq\n");
    for (size_t p = 0; p < t_.processes.size(); ++p) {
      if (first_thread_[p] == model::kNone) continue;
      Put("#plx process ");
      Int(node_[p]);
      Char(' ');
      Quoted(t_.processes[p].name);
      Char(' ');
      Quoted(t_.threads[first_thread_[p]].name);
      Char('\n');
    }
    for (size_t s = 0; s < t_.states.size(); ++s) {
      Put("#plx state ");
      Int(static_cast<int64_t>(s) + 1);
      Char(' ');
      Quoted(t_.states[s].name);
      Char('\n');
    }
  }

  void Open(int record, int64_t ns) {
    for (size_t p = 0; p < t_.processes.size(); ++p) {
      if (first_thread_[p] == model::kNone) continue;
      Record(record, kOpen, ns, static_cast<uint32_t>(p), {});
    }
  }

  void Enter(uint32_t r) override {
    const uint32_t p = Node(t_.slices.thread[r]);
    if (p != model::kNone) Record(kEntry, State(r), t_.slices.begin[r], p, {});
  }
  void Leave(uint32_t r) override {
    const uint32_t p = Node(t_.slices.thread[r]);
    if (p != model::kNone) Record(kExit, State(r), t_.slices.end[r], p, {});
  }
  void Message(uint32_t r) override {
    const model::MessageTable& m = t_.messages;
    const uint32_t p = Node(m.thread[r]);
    // Only messages between ranks (communicators of kind 0) have a node as peer.
    if (p == model::kNone || m.comm[r] == model::kNone || t_.communicators[m.comm[r]].kind != 0) {
      return;
    }
    const auto bytes = static_cast<int64_t>(m.bytes[r]);
    if (m.is_send[r]) {
      Record(kEntry, kSend, m.time[r], p, {bytes, m.tag[r], m.peer[r], 0});
      Record(kExit, kSend, m.time[r], p, {});
    } else {
      Record(kEntry, kRecv, m.time[r], p, {m.tag[r], m.peer[r], 0});
      Record(kExit, kRecv, m.time[r], p, {bytes, m.tag[r], m.peer[r], 0});
    }
  }

 private:
  int State(uint32_t slice) const { return static_cast<int>(t_.slices.state[slice]) + 1; }
  // The process of `thread` when it is the one written for its process.
  uint32_t Node(uint32_t thread) const {
    const uint32_t p = t_.threads[thread].process;
    return first_thread_[p] == thread ? p : model::kNone;
  }

  void Record(int record, int event, int64_t ns, uint32_t p, std::initializer_list<int64_t> data) {
    Int(record);
    Char(' ');
    Int(event);
    Char(' ');
    Time(ns - t_.begin_ns);
    Char(' ');
    Int(node_[p]);
    Put(" 0 ");
    Int(static_cast<int64_t>(data.size()) + 1);
    Put(" 2");
    for (int64_t d : data) {
      Char(' ');
      Int(d);
    }
    Char(' ');
    Int(static_cast<int64_t>(++seq_[p]));
    Char('\n');
  }

  void Put(std::string_view s) { out_.Put(s); }
  void Char(char c) { out_.Put(c); }
  void Int(int64_t v) { out_.PutInt(v); }
  // Seconds with nine decimals: exact for any nanosecond count.
  void Time(int64_t ns) { out_.PutFixed(ns, 9); }
  void Quoted(std::string_view s) { out_.PutQuoted(s); }

  const model::Trace& t_;
  TextWriter& out_;
  std::vector<int64_t> node_;
  std::vector<uint64_t> seq_;
  std::vector<uint32_t> first_thread_;
};

}  // namespace

Status ExportPicl(const model::Trace& trace, const std::string& path, const Progress& progress) {
  PLX_ASSIGN_OR_RETURN(auto text, TextWriter::Create(path));
  Writer writer(trace, *text);
  writer.Header();
  writer.Open(kEntry, trace.begin_ns);
  WalkTrace(trace, writer, progress);
  writer.Open(kExit, trace.end_ns);
  return text->Finish();
}

}  // namespace plx::interop
