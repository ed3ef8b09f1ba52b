// Reading what the setup/teardown/verify scripts printed on each host
// ("NS ..." lines, see templates/netsetup_common.sh and
// netsetup_verify.sh), and naming the likely cause of a failed link.
// Pure: no I/O.
#pragma once

#include <string>
#include <vector>

#include "distkit/ssh/executor.hpp"

namespace distkit::netsetup {

struct Step {
  std::string verdict;  // changed | same | failed | note
  std::string what;     // "address 10.213.0.1/30 on eth1"
};

struct HostOutcome {
  std::string host;
  std::vector<Step> steps;
  std::string error;  // the script did not finish (transport, sudo, crash)
  int count(const std::string& verdict) const;
  bool ok() const { return error.empty() && count("failed") == 0; }
};

// `r` is the result of running a setup or teardown script on `host`.
HostOutcome read_outcome(const std::string& host, const ssh::CommandResult& r);

struct LinkCheck {
  std::string iface;        // this host's interface on the link
  std::string peer;         // the peer's link address
  std::string route_iface;  // the interface the route to `peer` uses ("" none)
  std::string link = "up";  // up | down (no carrier, disabled) | missing
  bool ok = false;
  std::string detail;  // "from 10.213.0.1" or the connect error
};

struct VerifyOutcome {
  std::string host;
  std::vector<LinkCheck> links;
  std::vector<std::string> not_listening;  // "10.213.0.1: Address already in use"
  std::string error;
};

VerifyOutcome read_verify(const std::string& host, const ssh::CommandResult& r);

// "h1 eth1 -> 10.213.0.2 (h2 eth1)"-style naming is the caller's; this is
// the likely cause of a failed or misrouted check, for a user to act on
// ("" when the check passed over the right interface).
std::string likely_cause(const LinkCheck& c, int port);

}  // namespace distkit::netsetup
