// WsSession: one viewer's WebSocket (/api/v1/ws): hello, the progress of
// every trace, then what HttpServer::Broadcast sends, with a bounded queue
// for slow readers; each message it reads (at most kMaxWsMessage bytes) is
// answered by AnswerWsMessage (http_wire.h). Include only from the server's
// Boost.Beast files.
#pragma once

#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <memory>
#include <string>

#include "server/http/http_state.h"

namespace plx::server {

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  /// Holds `slot` (one of the server's connections) while it lives.
  WsSession(tcp::socket&& socket, ServerState& server, std::shared_ptr<ConnectionSlot> slot)
      : ws_(std::move(socket)), server_(server), slot_(std::move(slot)) {}

  /// Answers the upgrade `request`, then sends hello and the traces' progress.
  void Start(beast::http::request<beast::http::string_body> request);
  /// Queues a text message (any thread). A `latest_only` one replaces the
  /// latest_only message still waiting (not the one being written).
  void Send(std::string message, bool latest_only = false);

 private:
  void Read();
  void Abandon();
  void WriteNext();

  beast::websocket::stream<beast::tcp_stream> ws_;
  ServerState& server_;
  std::shared_ptr<ConnectionSlot> slot_;
  beast::flat_buffer buffer_;
  struct Queued {
    std::string text;
    bool latest_only;
  };
  std::deque<Queued> queue_;  // front: being written
  bool closing_ = false;
};

}  // namespace plx::server
