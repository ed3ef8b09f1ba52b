// Hosts given on the command line instead of in a file, and several ranks
// per host. Semantics follow mlx.launch (MLX python/mlx/_distributed_utils,
// Hostfile.from_list): `--hosts a,b,c` makes one host per entry, an entry
// that is an IP address also fills `ips` (a name leaves `ips` empty, `rdma`
// is always empty); `-n/--repeat-hosts N` repeats each host N times in
// place, so `--hosts a,b -n 2` gives ranks a,a,b,b (ranks 0,1 on a; 2,3 on b).
// Unlike mlx.launch, entries are trimmed, and an empty or repeated entry is
// an error (repeats are what -n is for).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "distkit/hostfile/hostfile.hpp"

namespace distkit::hostfile {

// Parses the value of `flag` (e.g. "--hosts"): comma-separated names or
// addresses, white space around entries ignored. Throws UsageError (subject
// `flag`) for an empty list or entry, an entry with white space or control
// characters inside or starting with '-', a repeated entry, or more than
// kMaxHosts entries. `repeated` is the remedy for a repeated entry: the
// default points a launcher's user at -n, which a tool without it replaces.
std::vector<Host> parse_host_list(
    std::string_view list, std::string_view flag = "--hosts",
    std::string_view repeated =
        "list each host once and use -n/--repeat-hosts for several ranks "
        "per host");

// Each host repeated `n` times in place (a,a,b,b), as mlx.launch -n does.
// Throws UsageError (subject `flag`) when n < 1, when the result would exceed
// kMaxHosts ranks, and when n > 1 for hosts with rdma rows (the RDMA matrix
// has one row and column per host, so it cannot be repeated).
std::vector<Host> repeat_hosts(const std::vector<Host>& hosts, int n,
                               std::string_view flag = "-n/--repeat-hosts");

// Ranks per distinct ssh name, in order of first appearance (the slots of an
// Open MPI hostfile): a,a,b,a -> {a: 3, b: 1}.
struct HostSlots {
  std::string host;
  int slots = 0;
  bool operator==(const HostSlots&) const = default;
};
std::vector<HostSlots> count_slots(const std::vector<Host>& ranks);

}  // namespace distkit::hostfile
