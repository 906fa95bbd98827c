// Host and Origin checks (see request_checks.h).
#include "server/api/request_checks.h"

#include <algorithm>
#include <cctype>

#include "base/strings.h"

namespace plx::server {
namespace {

bool IsPort(std::string_view s) {
  return !s.empty() && s.size() <= 5 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

}  // namespace

std::string HostOf(std::string_view host_header) {
  std::string_view host = host_header;
  std::string_view port;
  if (host.starts_with('[')) {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return "";
    port = host.substr(close + 1);
    host = host.substr(0, close + 1);
    const std::string_view inside = host.substr(1, host.size() - 2);
    if (inside.empty() || !std::all_of(inside.begin(), inside.end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
        }))
      return "";
  } else {
    const size_t colon = host.find(':');
    if (colon != std::string_view::npos) {
      port = host.substr(colon);
      host = host.substr(0, colon);
    }
    if (host.empty() || !std::all_of(host.begin(), host.end(), IsNameChar)) return "";
  }
  if (!port.empty() && !(port.front() == ':' && IsPort(port.substr(1)))) return "";
  return AsciiLower(host);
}

bool HostAllowed(std::string_view host_header, std::initializer_list<std::string_view> addresses) {
  const std::string host = HostOf(host_header);
  if (host.empty()) return false;
  if (host == "localhost" || host == "127.0.0.1" || host == "[::1]") return true;
  for (std::string_view address : addresses) {
    if (address.empty()) continue;
    const std::string name = AsciiLower(address);
    if (host == (name.find(':') == std::string::npos ? name : "[" + name + "]")) return true;
  }
  return false;
}

bool SameOrigin(std::string_view origin, std::string_view host_header) {
  if (host_header.empty()) return false;
  const std::string o = AsciiLower(origin);
  const std::string h = AsciiLower(host_header);
  return o == "http://" + h || o == "https://" + h;
}

}  // namespace plx::server
