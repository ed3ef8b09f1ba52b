// Probe captures on disk: --save-probes DIR writes each host's raw capture
// as DIR/<host>.probe; --from-probes DIR reads them back (no SSH at all).
// --from-probes also accepts one file per command, DIR/<host>.<section>.txt
// or .json (the layout of the shared scenarios and of hand-made bug
// reports): each file becomes that section with exit status 0.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "distkit/probe/capture.hpp"

namespace distkit::probe {

// Writes the raw capture atomically; throws distkit::Error naming the path.
void save_capture(const std::filesystem::path& dir, const std::string& host,
                  const std::string& raw);

// The host's capture from DIR, or nullopt when DIR has nothing for it.
// Throws RemoteError when a .probe file is not a capture.
std::optional<Capture> load_capture(const std::filesystem::path& dir, const std::string& host);

}  // namespace distkit::probe
