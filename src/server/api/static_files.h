// The viewer's built files (web/dist) as the server hands them out: where
// they are, which file a URL path names, and its content type.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace plx::server {

/// The folder of the built viewer: `configured` when set, else $PLX_WEB_DIR,
/// else share/parallax/web of the prefix the program is installed in (found
/// from /proc/self/exe), else, for a program in a build tree, that tree's
/// share/parallax/web (a link to web/dist). Empty when none holds an index.html.
std::string FindWebRoot(const std::string& configured);

/// The file under `root` that URL `path` names ("/" → index.html); nullopt
/// for paths that leave the root ("..") or hold odd characters.
std::optional<std::string> ResolveWebPath(const std::string& root, std::string_view path);

/// The real path of `file` (as ResolveWebPath names it) when it is a regular
/// file whose real path, symbolic links followed, lies under the real path
/// of `root`; nullopt for a directory, a missing file or a link that leads
/// out of the folder.
std::optional<std::string> ServableFile(const std::string& root, const std::string& file);

/// "text/html; charset=utf-8" and so on, by extension.
std::string ContentTypeFor(std::string_view file);

}  // namespace plx::server
