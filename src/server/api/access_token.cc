// Access tokens (see access_token.h).
#include "server/api/access_token.h"

#include <sys/random.h>

#include <cstdint>
#include <random>

#include "server/api/query_params.h"

namespace plx::server {

std::string NewAccessToken() {
  uint8_t bytes[16];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  if (got < sizeof bytes) {  // no getrandom (old kernel): the C++ runtime's source
    std::random_device device;
    for (uint8_t& b : bytes)
      b = static_cast<uint8_t>(device());
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (uint8_t b : bytes) {
    token.push_back(kHex[b >> 4]);
    token.push_back(kHex[b & 15]);
  }
  return token;
}

bool TokenEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string RequestToken(std::string_view query, std::string_view authorization,
                         std::string_view cookie) {
  if (auto params = QueryParams::Parse(query); params.ok()) {
    if (auto token = params->Get("token"); token && !token->empty()) return std::string(*token);
  }
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.starts_with(kBearer)) return std::string(authorization.substr(kBearer.size()));
  // Cookie: "a=1; plx_token=abc; b=2"
  while (!cookie.empty()) {
    const size_t semi = cookie.find(';');
    std::string_view item = cookie.substr(0, semi);
    cookie = semi == std::string_view::npos ? std::string_view() : cookie.substr(semi + 1);
    while (!item.empty() && item.front() == ' ')
      item.remove_prefix(1);
    constexpr std::string_view kName = "plx_token=";
    if (item.starts_with(kName)) return std::string(item.substr(kName.size()));
  }
  return "";
}

std::string TokenCookie(std::string_view token) {
  return "plx_token=" + std::string(token) + "; Path=/; HttpOnly; SameSite=Strict";
}

}  // namespace plx::server
