// Which Host and Origin headers the HTTP server accepts. The token keeps
// other people out; these checks keep out other sites' pages in the user's
// own browser: a site whose name was made to resolve to this machine (DNS
// rebinding; its requests carry its own name as Host) and a page of another
// origin opening the WebSocket (browsers let any page try, and say whose
// page it is in Origin).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace plx::server {

/// The host part of a Host header value ("name", "name:port", "[v6]",
/// "[v6]:port") in lower case, IPv6 with its brackets; "" when the value is
/// not of that form.
std::string HostOf(std::string_view host_header);

/// Whether a Host header value names this server, with any port or none: a
/// loopback name (localhost, 127.0.0.1, [::1]) or one of `addresses` (IP
/// addresses as text, IPv6 without brackets: the address the server is bound
/// to, the one the connection came in on). A name that is not loopback's is
/// refused, since anyone's DNS can make it point here.
bool HostAllowed(std::string_view host_header, std::initializer_list<std::string_view> addresses);

/// Whether an Origin header value is the origin of a page served through
/// `host_header` (the request's Host): "http://" or "https://" and the same
/// host and port, letter case aside.
bool SameOrigin(std::string_view origin, std::string_view host_header);

}  // namespace plx::server
