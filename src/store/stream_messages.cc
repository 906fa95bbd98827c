// StreamMessages: a consumer per partition counts and fills its part of the
// matrix; the parts add up (the matrix builder's sums are exact).
#include "store/stream_messages.h"

#include "store/message_pass.h"
#include "store/thread_pass.h"

namespace plx::store {

namespace {

class Counter : public MessageConsumer {
 public:
  Counter(const model::Trace& trace, const analysis::Selection* selection)
      : trace_(trace), selection_(selection), matrix(trace.processes.size()) {}
  void Pair(const MessageSide& send, const MessageSide& recv, bool, int64_t) override {
    if (!In(send) || !In(recv)) return;
    ++pairs;
    matrix.AddPair(trace_.threads[send.thread].process, trace_.threads[recv.thread].process,
                   send.bytes, recv.time - send.time);
  }
  void Unmatched(const MessageSide& m) override {
    if (!In(m)) return;
    ++(m.send ? unmatched_sends : unmatched_recvs);
    matrix.AddUnmatched(trace_.threads[m.thread].process, m.send);
  }

  bool In(const MessageSide& m) const {
    return selection_ == nullptr || selection_->Contains(m.thread, m.time);
  }

  const model::Trace& trace_;
  const analysis::Selection* selection_;
  uint64_t pairs = 0, unmatched_sends = 0, unmatched_recvs = 0;
  analysis::CommMatrixBuilder matrix;
};

class RmaVisitor : public ChunkVisitor {
 public:
  explicit RmaVisitor(const model::Trace& trace) : builder(trace) {}
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    builder.AddRows(rows.tables->rma, 0, rows.tables->rma.size());
  }
  analysis::RmaMatrixBuilder builder;
};

}  // namespace

MessageSums StreamMessageSums(const TraceStore& store,
                              const std::function<void(uint64_t, uint64_t)>& progress,
                              const std::vector<time::ThreadTimeMap>* maps,
                              const analysis::Selection* selection, PassSpread* spread) {
  const model::Trace& trace = store.trace();
  MessagePassOptions options;
  options.maps = maps;
  options.spread = spread;
  auto consumers = RunMessagePass(
      store, [&](size_t) { return std::make_unique<Counter>(trace, selection); }, options,
      progress);
  MessageSums out;
  out.matrix = analysis::CommMatrixBuilder(trace.processes.size());
  for (const auto& c : consumers) {
    const Counter& x = static_cast<const Counter&>(*c);
    out.pairs += x.pairs;
    out.unmatched_sends += x.unmatched_sends;
    out.unmatched_recvs += x.unmatched_recvs;
    out.matrix.Merge(x.matrix);
  }
  return out;
}

StreamedMessages StreamMessages(const TraceStore& store,
                                const std::function<void(uint64_t, uint64_t)>& progress,
                                const std::vector<time::ThreadTimeMap>* maps,
                                const analysis::Selection* selection) {
  const MessageSums sums = StreamMessageSums(store, progress, maps, selection, nullptr);
  return {sums.pairs, sums.unmatched_sends, sums.unmatched_recvs, sums.matrix.Finish()};
}

analysis::RmaMatrixBuilder StreamRmaBuilder(const TraceStore& store,
                                            const std::function<void(uint64_t, uint64_t)>& progress,
                                            const std::function<bool(uint32_t thread)>& only) {
  ThreadPassOptions options = WithProgress(progress);
  options.only = only;
  std::vector<RmaVisitor> visitors = RunThreadPass<RmaVisitor>(
      store, [&] { return RmaVisitor(store.trace()); }, options);
  for (size_t w = 1; w < visitors.size(); ++w)
    visitors[0].builder.Merge(visitors[w].builder);
  return std::move(visitors[0].builder);
}

analysis::RmaMatrix StreamRmaMatrix(const TraceStore& store,
                                    const std::function<void(uint64_t, uint64_t)>& progress) {
  return StreamRmaBuilder(store, progress, {}).matrix();
}

}  // namespace plx::store
