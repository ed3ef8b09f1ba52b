// Running the probe on hosts: one command per host, one round trip, all
// hosts at once. The only part of lib/probe that does I/O (through the
// ssh::Executor interface, so tests can use a LocalExecutor).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distkit/probe/capture.hpp"
#include "distkit/ssh/executor.hpp"

namespace distkit::probe {

struct ProbeResult {
  std::string host;
  std::string raw;                 // the probe's stdout, as received
  std::optional<Capture> capture;  // set when the output had a capture header
  std::string error;               // non-empty: what went wrong, for the user
};

// The script sent on stdin: probes/macos.sh or probes/linux.sh chosen on the
// host by `uname -s` (templates/distconfig_probe.sh).
std::string probe_script();

// The command line: `sh -s -- <boundary> <launcher>`. An empty launcher
// makes the script use the client address of $SSH_CONNECTION.
std::string probe_command(const std::string& boundary, const std::string& launcher);

// Probes every executor in parallel; a nullptr executor gives a result with
// error "not connected". A local executor's route is looked up towards the
// address the user named it by (when an IP), or 127.0.0.1 when every host is
// local; remote hosts use $SSH_CONNECTION. Results are in the executors'
// order. Never throws for a host's failure. `on_done(i, result)`, when
// given, is called from host i's thread as soon as its probe ends (for
// per-host progress); it must be thread-safe.
using ProbeDone = std::function<void(size_t, const ProbeResult&)>;
std::vector<ProbeResult> run_probes(const std::vector<std::shared_ptr<ssh::Executor>>& executors,
                                    const std::vector<std::string>& hosts,
                                    std::chrono::milliseconds timeout,
                                    const ProbeDone& on_done = {});

}  // namespace distkit::probe
