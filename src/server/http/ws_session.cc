// WsSession: the viewer's WebSocket on the server's Asio threads.
#include "server/http/ws_session.h"

#include "server/http/http_wire.h"

namespace plx::server {

namespace http = beast::http;
namespace websocket = beast::websocket;

void WsSession::Start(http::request<http::string_body> request) {
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  LimitWebSocket(ws_);
  ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
    if (ec) return;
    self->server_.AddSocket(self);
    self->Send(HelloMessage());
    for (const auto& t : self->server_.store.traces()) {
      self->Send(ProgressMessage(*t, t->progress()));
      if (t->live()) self->Send(LiveMessage(t->live_status()), true);
    }
    self->Read();
  });
}

void WsSession::Send(std::string message, bool latest_only) {
  net::post(ws_.get_executor(),
            [self = shared_from_this(), m = std::move(message), latest_only]() mutable {
              auto& q = self->queue_;
              if (self->closing_) return;
              if (latest_only) {
                for (size_t i = 1; i < q.size(); ++i) {
                  if (q[i].latest_only) {
                    q[i].text = std::move(m);
                    return;
                  }
                }
              }
              if (q.size() >= HttpServer::kMaxQueuedMessages) {
                // A reader this far behind is gone or stuck: close it rather than grow.
                self->Abandon();
                return;
              }
              q.push_back({std::move(m), latest_only});
              if (q.size() == 1) self->WriteNext();
            });
}

void WsSession::Read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
    if (ec) return;  // closed, or a message above kMaxWsMessage
    const std::string text = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    self->Send(AnswerWsMessage(text));
    self->Read();
  });
}

// Closes the connection and drops what waits to be written. The front
// message is being written (the queue is never empty while a write is under
// way): its text is the write's buffer, and the write's handler pops it, so
// it stays until that handler has run.
void WsSession::Abandon() {
  closing_ = true;
  beast::get_lowest_layer(ws_).close();
  if (queue_.size() > 1) queue_.erase(queue_.begin() + 1, queue_.end());
}

void WsSession::WriteNext() {
  ws_.text(true);
  ws_.async_write(net::buffer(queue_.front().text),
                  [self = shared_from_this()](beast::error_code ec, size_t) {
                    // Closing, the write may still have succeeded: stop either way.
                    if (ec || self->closing_) {
                      self->queue_.clear();
                      return;
                    }
                    self->queue_.pop_front();
                    if (!self->queue_.empty()) self->WriteNext();
                  });
}

}  // namespace plx::server
