// ImportPicl: reads a PICL trace in the MPICL ("new PICL") format through a
// TraceBuilder: a process with one thread per node, user tasks as states,
// blocking and non-blocking sends and receives as messages. Records are
// ordered per node by (clock, sequence number) before they are written, so a
// file need not be sorted and equal clocks keep the node's own order.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/strings.h"
#include "interop/picl/picl.h"
#include "interop/text_file.h"

namespace plx::interop {

namespace {

constexpr int64_t kEntry = -3, kExit = -4;
constexpr int64_t kOpenEvent = -901;
constexpr int64_t kSendEvent = -21, kIsendEvent = -27, kRecvEvent = -52, kWaitRecvEvent = -61;

// One record that maps onto the model, kept until its node is sorted.
struct Record {
  int64_t ns = 0;
  uint64_t seq = 0;   // the node's sequence number (file order without one)
  uint64_t line = 0;  // for errors
  int64_t record = 0, event = 0;
  int64_t data[4] = {};  // what the event needs: see Use()
};

class Reader {
 public:
  Reader(const std::string& path, TraceBuilder& out, const Progress& progress)
      : path_(path), b_(out), progress_(progress) {}

  Status Run() {
    uint64_t size = 0;
    PLX_ASSIGN_OR_RETURN(FILE * f, OpenInput(path_, &size));
    LineReader lines(f);
    std::string_view line;
    Status s;
    uint64_t next_report = 0;
    while (s.ok() && lines.Next(&line)) {
      ++line_no_;
      if (progress_ && lines.consumed() >= next_report) {
        progress_(lines.consumed(), size);
        next_report = lines.consumed() + (4 << 20);
      }
      s = Line(line);
    }
    if (s.ok() && lines.too_long())
      s = Error(line_no_ + 1, "",
                StrFormat("line longer than %zu MiB", LineReader::kMaxLine >> 20));
    std::fclose(f);
    if (!s.ok()) return s;
    if (records_ == 0) return InputError(path_, "", "", "empty input (no records)");
    return Write();
  }

 private:
  struct Node {
    std::vector<Record> records;
    std::string process_name, thread_name;
    bool named = false;  // by a "#plx process" line
  };

  Status Error(uint64_t line, std::string_view field, std::string_view what) const {
    return InputError(path_, std::to_string(line), field, what);
  }

  // Fields are words and "quoted strings" (a quote left open, as in a
  // damaged line, ends with the line).
  bool Split(std::string_view line) { return fields_.Split(line) == LineFields::Result::kOk; }

  Node& NodeOf(int64_t node) { return nodes_[node]; }

  // "#plx ..." lines: the sequence-number convention and names.
  Status Comment(std::string_view line) {
    if (line.substr(0, 5) != "#plx " || !Split(line.substr(5)) || fields_.size() == 0)
      return Status::Ok();
    int64_t n;
    if (fields_[0] == "seq") {
      if (records_ > 0) return Error(line_no_, "#plx seq", "after the first record");
      has_seq_ = true;
    } else if (fields_[0] == "process" && fields_.size() == 4) {
      if (!ParseInt(fields_[1], &n, Plus::kAccepted) || n < 0)
        return Error(line_no_, "node", "bad node number");
      NodeOf(n).process_name = std::string(fields_[2]);
      NodeOf(n).thread_name = std::string(fields_[3]);
      NodeOf(n).named = true;
    } else if (fields_[0] == "state" && fields_.size() == 3) {
      if (!ParseInt(fields_[1], &n, Plus::kAccepted))
        return Error(line_no_, "task", "bad task number");
      state_names_[n] = std::string(fields_[2]);
    }
    return Status::Ok();
  }

  Status Line(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && IsSpace(line[i]))
      ++i;
    if (i == line.size()) return Status::Ok();
    if (line[i] == '#') return Comment(line.substr(i));
    if (!Split(line.substr(i))) return Error(line_no_, "", "more than 64 fields");
    static constexpr const char* kHead[] = {"record type", "event type", "clock",
                                            "node",        "process",    "data count"};
    if (fields_.size() < 6)
      return Error(line_no_, kHead[fields_.size()], "missing (line has too few fields)");
    int64_t head[6];
    for (size_t k = 0; k < 6; ++k) {
      if (k == 2) continue;
      if (!ParseInt(fields_[k], &head[k], Plus::kAccepted))
        return Error(line_no_, kHead[k], "bad integer");
    }
    Record r;
    r.record = head[0];
    r.event = head[1];
    r.line = line_no_;
    if (!ParseSeconds(fields_[2], &r.ns)) return Error(line_no_, "clock", "bad time");
    const int64_t ndata = head[5];
    if (ndata < 0) return Error(line_no_, "data count", "negative");
    const size_t want = ndata > 0 ? static_cast<size_t>(ndata) + 7 : 6;
    if (want > fields_.size()) return Error(line_no_, "data", "missing (line has too few fields)");
    // More words than data fields: a format string with words (tracemsg);
    // only records this reader skips look like this.
    ++records_;
    const Use use = UseOf(r.record, r.event);
    if (use == Use::kSkip) {
      b_.Note(ImportCounter::kPiclRecordsSkipped);
      return Status::Ok();
    }
    if (want != fields_.size()) return Error(line_no_, "data", "more fields than the data count");
    if (ndata > 0 && fields_[6] != "2") return Error(line_no_, "data type", "not 2 (integers)");
    int64_t data[LineFields::kMax];
    for (int64_t k = 0; k < ndata; ++k) {
      if (!ParseInt(fields_[7 + k], &data[k], Plus::kAccepted))
        return Error(line_no_, "data", "bad integer");
    }
    int64_t n = ndata;
    if (has_seq_) {
      if (n == 0) return Error(line_no_, "sequence number", "missing");
      if (data[n - 1] < 0) return Error(line_no_, "sequence number", "negative");
      r.seq = static_cast<uint64_t>(data[--n]);
    } else {
      r.seq = records_;
    }
    const int64_t node = head[3];
    if (node < 0) return Error(line_no_, "node", "negative");
    if (r.ns < 0) return Error(line_no_, "clock", "negative");
    // Data each use needs: send entry: bytes, tag, destination; receive exit:
    // bytes, tag, source.
    if (use == Use::kSend || use == Use::kRecv) {
      if (n < 3) return Error(line_no_, "data", "a message needs bytes, tag and peer");
      if (data[2] < 0) return Error(line_no_, "data", "negative peer node");
      r.data[0] = data[0];
      r.data[1] = data[1];
      r.data[2] = data[2];
    }
    NodeOf(node).records.push_back(r);
    return Status::Ok();
  }

  enum class Use { kSkip, kOpen, kBegin, kEnd, kSend, kRecv };
  static Use UseOf(int64_t record, int64_t event) {
    if (record != kEntry && record != kExit) return Use::kSkip;
    if (event >= 1) return record == kEntry ? Use::kBegin : Use::kEnd;
    if (event == kOpenEvent) return Use::kOpen;
    if (record == kEntry && (event == kSendEvent || event == kIsendEvent)) return Use::kSend;
    if (record == kExit && (event == kRecvEvent || event == kWaitRecvEvent)) return Use::kRecv;
    return Use::kSkip;
  }

  Status Write() {
    uint64_t unclosed = 0;
    // Messages per channel (sender, receiver, tag) in each side's order.
    std::map<std::tuple<int64_t, int64_t, int64_t>, uint64_t> sends, recvs;
    for (auto& [node, n] : nodes_) {
      if (n.records.empty() && !n.named) continue;
      ProcessInfo info;
      info.name = n.named ? n.process_name : "node " + std::to_string(node);
      info.rank = node;
      const uint32_t process = b_.AddProcess(info);
      const uint32_t thread = b_.AddThread(process, {0, n.thread_name});
      // Every node is in "world" and peers are node numbers (world ranks):
      // no member list, which readers take as every rank. A list per node
      // would make the file quadratic in the nodes.
      const uint32_t comm = b_.Communicator(process, "world", 0, 1, {});
      std::stable_sort(n.records.begin(), n.records.end(), [](const Record& a, const Record& b) {
        return a.ns != b.ns ? a.ns < b.ns : a.seq < b.seq;
      });
      std::vector<uint32_t> stack;
      for (const Record& r : n.records) {
        bool ok = true;
        switch (UseOf(r.record, r.event)) {
          case Use::kSkip:
          case Use::kOpen:
            break;
          case Use::kBegin: {
            const uint32_t s = StateOf(r.event);
            ok = b_.Enter(thread, r.ns, s);
            stack.push_back(s);
            break;
          }
          case Use::kEnd: {
            const uint32_t s = StateOf(r.event);
            if (stack.empty() || stack.back() != s) {
              b_.Note(ImportCounter::kPiclUnmatchedTaskEnds);
              break;
            }
            ok = b_.Leave(thread, r.ns, s);
            stack.pop_back();
            break;
          }
          case Use::kSend: {
            const uint64_t match = ++sends[{node, r.data[2], r.data[1]}];
            ok = b_.Send(thread, r.ns, comm, r.data[2], r.data[1],
                         static_cast<uint64_t>(std::max<int64_t>(r.data[0], 0)), match);
            break;
          }
          case Use::kRecv: {
            const uint64_t match = ++recvs[{r.data[2], node, r.data[1]}];
            ok = b_.Recv(thread, r.ns, comm, r.data[2], r.data[1],
                         static_cast<uint64_t>(std::max<int64_t>(r.data[0], 0)), match);
            break;
          }
        }
        if (!ok) return Error(r.line, "clock", "out of order");
      }
      for (; !stack.empty(); stack.pop_back(), ++unclosed)
        b_.Leave(thread, b_.LastTime(thread), stack.back());
      std::vector<Record>().swap(n.records);
    }
    if (unclosed > 0) b_.Note(ImportCounter::kPiclTasksOpenAtEnd, unclosed);
    return Status::Ok();
  }

  uint32_t StateOf(int64_t task) {
    auto [it, added] = states_.try_emplace(task, 0u);
    if (added) {
      auto name = state_names_.find(task);
      it->second =
          b_.State(name != state_names_.end() ? name->second : "task " + std::to_string(task));
    }
    return it->second;
  }

  const std::string& path_;
  TraceBuilder& b_;
  const Progress& progress_;
  uint64_t line_no_ = 0;
  uint64_t records_ = 0;
  bool has_seq_ = false;
  LineFields fields_{{.quotes = "\"", .open_quote_to_end = true}};
  std::map<int64_t, Node> nodes_;
  std::unordered_map<int64_t, std::string> state_names_;
  std::unordered_map<int64_t, uint32_t> states_;
};

}  // namespace

Status ImportPicl(const std::string& path, TraceBuilder& out, const Progress& progress) {
  Reader reader(path, out, progress);
  return reader.Run();
}

}  // namespace plx::interop
