// CSV export: three files of one row per slice, per message (send and
// receive paired) and per counter sample. Times are ns since the trace began.
#include <string>

#include "interop/csv/csv.h"
#include "interop/text_file.h"
#include "time/message_pairs.h"

namespace plx::interop {

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
void Field(TextWriter& w, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    w.Put(text);
    return;
  }
  w.Put('"');
  for (char c : text) {
    if (c == '"') w.Put('"');
    w.Put(c);
  }
  w.Put('"');
}

class CsvExport {
 public:
  CsvExport(const model::Trace& trace, const Progress& progress) : t_(trace), progress_(progress) {
    total_ = trace.slices.size() + trace.messages.size() + trace.counter_samples.size();
  }

  Status States(const std::string& path) {
    PLX_ASSIGN_OR_RETURN(auto w, TextWriter::Create(path));
    w->Put(
        "process,rank,thread,thread_name,state,category,depth,begin_ns,end_ns,duration_ns,"
        "self_ns\n");
    const model::SliceTable& s = t_.slices;
    for (size_t r = 0; r < s.size(); ++r) {
      ThreadColumns(*w, s.thread[r]);
      const model::State& state = t_.states[s.state[r]];
      Field(*w, state.name);
      w->Put(',');
      if (state.category != model::kNone) Field(*w, t_.categories[state.category].name);
      w->Put(',').PutUint(s.depth[r]).Put(',').PutInt(s.begin[r] - t_.begin_ns).Put(',');
      w->PutInt(s.end[r] - t_.begin_ns).Put(',').PutInt(s.end[r] - s.begin[r]).Put(',');
      w->PutInt(s.self_ns[r]).Put('\n');
      Tick();
    }
    return w->Finish();
  }

  Status Messages(const std::string& path) {
    PLX_ASSIGN_OR_RETURN(auto w, TextWriter::Create(path));
    w->Put("send_process,send_thread,recv_process,recv_thread,comm,tag,bytes,send_ns,recv_ns\n");
    const time::MessagePairs pairs = time::MatchMessages(t_);
    for (const time::MessagePair& p : pairs.pairs)
      Message(*w, p.send, p.recv);
    for (uint32_t r : pairs.unmatched_sends)
      Message(*w, r, model::kNone);
    for (uint32_t r : pairs.unmatched_recvs)
      Message(*w, model::kNone, r);
    return w->Finish();
  }

  Status Counters(const std::string& path) {
    PLX_ASSIGN_OR_RETURN(auto w, TextWriter::Create(path));
    w->Put("process,rank,thread,thread_name,counter,unit,time_ns,value\n");
    const model::CounterTable& c = t_.counter_samples;
    for (size_t r = 0; r < c.size(); ++r) {
      ThreadColumns(*w, c.thread[r]);
      const model::Counter& def = t_.counters[c.counter[r]];
      Field(*w, def.name);
      w->Put(',');
      Field(*w, def.unit);
      w->Put(',').PutInt(c.time[r] - t_.begin_ns).Put(',');
      if (def.value_kind == model::ValueKind::kInt) {
        w->PutInt(static_cast<int64_t>(c.value[r]));
      } else {
        w->PutDouble(c.value[r]);
      }
      w->Put('\n');
      Tick();
    }
    return w->Finish();
  }

 private:
  // process,rank,thread,thread_name,
  void ThreadColumns(TextWriter& w, uint32_t thread) {
    const model::Thread& th = t_.threads[thread];
    const model::Process& p = t_.processes[th.process];
    w.PutUint(th.process).Put(',');
    if (p.rank >= 0) w.PutInt(p.rank);
    w.Put(',').PutUint(thread).Put(',');
    Field(w, th.name);
    w.Put(',');
  }

  void Message(TextWriter& w, uint32_t send, uint32_t recv) {
    const model::MessageTable& m = t_.messages;
    const uint32_t any = send != model::kNone ? send : recv;
    auto side = [&](uint32_t row) {
      if (row == model::kNone) {
        w.Put(",,");
        return;
      }
      w.PutUint(t_.threads[m.thread[row]].process).Put(',').PutUint(m.thread[row]).Put(',');
    };
    side(send);
    side(recv);
    if (m.comm[any] != model::kNone) Field(w, t_.communicators[m.comm[any]].name);
    w.Put(',').PutInt(m.tag[any]).Put(',').PutUint(m.bytes[any]).Put(',');
    if (send != model::kNone) w.PutInt(m.time[send] - t_.begin_ns);
    w.Put(',');
    if (recv != model::kNone) w.PutInt(m.time[recv] - t_.begin_ns);
    w.Put('\n');
    Tick();
    if (send != model::kNone && recv != model::kNone) Tick();
  }

  void Tick() {
    if (progress_ && (++done_ & 0xfffff) == 0) progress_(done_, total_);
  }

  const model::Trace& t_;
  const Progress& progress_;
  uint64_t done_ = 0;
  uint64_t total_ = 0;
};

}  // namespace

std::string CsvTablePath(const std::string& path, const char* table) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".csv") == 0)
    base.resize(base.size() - 4);
  return base + "." + table + ".csv";
}

Status ExportCsv(const model::Trace& trace, const std::string& path, const Progress& progress) {
  CsvExport e(trace, progress);
  PLX_RETURN_IF_ERROR(e.States(CsvTablePath(path, "states")));
  PLX_RETURN_IF_ERROR(e.Messages(CsvTablePath(path, "messages")));
  PLX_RETURN_IF_ERROR(e.Counters(CsvTablePath(path, "counters")));
  if (progress) {
    const uint64_t total =
        trace.slices.size() + trace.messages.size() + trace.counter_samples.size();
    progress(total, total);
  }
  return Status::Ok();
}

}  // namespace plx::interop
