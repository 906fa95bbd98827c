// ApiResponse: what the API answers one request (api.h), also what a
// spread server's process answers process 0 for a row it owns.
#pragma once

#include <string>

namespace plx::server {

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  bool retry_after = false;  // 503 while loading: the client should retry in a second
};

}  // namespace plx::server
