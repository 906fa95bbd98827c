// The server's access token: made at random, found in a request (query,
// Authorization header or cookie), compared in constant time.
#pragma once

#include <string>
#include <string_view>

namespace plx::server {

/// 32 hex digits from the system's random source.
std::string NewAccessToken();

/// True when a and b are equal; takes the same time for every a of b's length.
bool TokenEquals(std::string_view a, std::string_view b);

/// The token a request carries: `token=` of the query string, else the
/// bearer token of `authorization`, else the `plx_token` cookie; empty if none.
std::string RequestToken(std::string_view query, std::string_view authorization,
                         std::string_view cookie);

/// The Set-Cookie value that hands `token` to the browser for later requests.
std::string TokenCookie(std::string_view token);

}  // namespace plx::server
