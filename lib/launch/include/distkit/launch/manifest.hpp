// The run manifest (--record DIR, --log-dir DIR): what a lab needs to say
// how a result was produced. JSON, written atomically to DIR/manifest.json:
// command, cwd and its git commit, the hostfile and its SHA-256, backend,
// the environment given to each rank (never the secret), per-host OS /
// python / mlx versions, start and end times, and per rank its host, pid,
// exit status and duration.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "distkit/launch/options.hpp"
#include "distkit/launch/plan.hpp"
#include "distkit/launch/preflight.hpp"
#include "distkit/launch/supervisor.hpp"

namespace distkit::launch {

struct ManifestInputs {
  const LaunchOptions& options;
  const Plan& plan;
  const PreflightReport& facts;
  const JobResult& result;
  std::optional<std::string> hostfile_text;  // the bytes read, when a file was given
};

// Schema of the manifest ("schema" field; see distlaunch(1) JSON OUTPUT).
inline constexpr const char* kManifestSchema = "distkit.launch-manifest/2";

std::string render_manifest(const ManifestInputs& in);
// Writes render_manifest() to dir/manifest.json (creating dir); throws
// distkit::Error when it cannot.
std::filesystem::path write_manifest(const std::filesystem::path& dir, const ManifestInputs& in);

}  // namespace distkit::launch
