// The remote side of a rank: the POSIX sh wrapper (templates/launch_rank.sh)
// each rank's host runs as the command, and the framed stdin protocol the
// launcher speaks to it. The wrapper writes the rank's data files and secret
// into a private temp dir, starts the command in its own process group,
// reports the pid, forwards stdin, and kills the group when told to or when
// the launcher is gone (EOF without the end marker, missing heartbeats).
// It also watches the rank's own heartbeat file (DISTKIT_HEARTBEAT_FILE, in
// the temp dir): once the rank has created it, a stop in its updates longer
// than the stall limit is reported on stderr ("rank R on HOST: stalled"),
// and so is the resumption.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "distkit/launch/plan.hpp"

namespace distkit::launch {

struct WrapperSettings {
  std::chrono::milliseconds grace{3000};     // TERM -> KILL
  std::chrono::seconds heartbeat_limit{5};   // silence before the rank is killed
  // A rank (the runtime) that touches DISTKIT_HEARTBEAT_FILE and then stops
  // touching it for this long is reported as stalled (not stopped); 0: off.
  std::chrono::seconds stall_limit{60};
  std::optional<std::string> cwd;            // directory to run in
  bool cwd_required = false;                 // false: stay put when it is absent
  // false: the rank's stdin is /dev/null (no FIFO made; D frames ignored),
  // for ranks that get no stdin (--no-stdin, --stdin-rank, stdin /dev/null).
  bool stdin_forwarded = true;
  // true: the perl wrapper (templates/launch_rank.pl) where the host has
  // perl, the sh one elsewhere; false: always the sh one (its tests).
  bool use_perl = true;
  // distlaunch-rank (the compiled wrapper) to try first, in order: a name
  // without '/' is looked up on the host's PATH, a path must be executable
  // there. Empty: never (the perl or sh wrapper).
  std::vector<std::string> rank_helpers;
  // What the preflight found per host (ssh name): the one of rank_helpers
  // that runs there, whose ranks are then handed to it directly (no search,
  // no fallbacks), or "" when none does (no search: the perl or sh wrapper
  // at once, so a helper of another version is passed over). Hosts not in
  // the map (no preflight) get the search.
  std::map<std::string, std::string> helper_on_host;
  // Hosts (ssh names) whose ranks all go through one host agent (the
  // helper of helper_on_host, see host_agent.hpp): their ranks' command is
  // the agent's start request instead of a script.
  std::set<std::string> agent_hosts;
};

// The full sh script for one rank (pass it as the executor's command), or
// for a host in agent_hosts the host agent's start request.
std::string render_rank_script(const Plan& plan, const RankSpec& rank,
                               const WrapperSettings& settings);

// Frames of the stdin protocol (each ends with '\n'; data is raw after it).
namespace frame {
std::string secret(std::string_view hex);
inline std::string heartbeat() { return "H\n"; }
std::string data(std::string_view bytes);  // "D <n>\n" + bytes
inline std::string end_of_input() { return "E\n"; }
std::string signal(std::string_view name);  // "G INT"
inline std::string terminate() { return "T\n"; }
inline std::string kill() { return "K\n"; }
}  // namespace frame

// The line the wrapper prints on stderr once the rank runs.
inline constexpr std::string_view kPidMarker = "@@distlaunch:pid ";

}  // namespace distkit::launch
