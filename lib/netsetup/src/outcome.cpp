// See outcome.hpp.
#include "distkit/netsetup/outcome.hpp"

#include <algorithm>

#include "distkit/util/strings.hpp"

namespace distkit::netsetup {

namespace {

// Why a script did not run to its "NS end" line.
std::string script_error(const ssh::CommandResult& r, const std::string& fallback) {
  if (!r.exit.error.empty()) return r.exit.error;
  std::string e = first_line(r.err);
  if (e.find("password is required") != std::string::npos ||
      e.find("terminal is required") != std::string::npos)
    return "sudo needs a password; run the commands printed for this host by hand, or allow "
           "passwordless sudo";
  if (!e.empty()) return e;
  if (r.exit.signal) return "killed by signal " + std::to_string(r.exit.signal);
  return fallback + " (exit status " + std::to_string(r.exit.exit_status) + ")";
}

}  // namespace

int HostOutcome::count(const std::string& verdict) const {
  return int(std::ranges::count(steps, verdict, &Step::verdict));
}

HostOutcome read_outcome(const std::string& host, const ssh::CommandResult& r) {
  HostOutcome o{host, {}, {}};
  bool ended = false;
  for (auto line : split_lines(r.out)) {
    if (line.rfind("NS ", 0) != 0) continue;
    std::string rest(line.substr(3));
    size_t sp = rest.find(' ');
    std::string verdict = rest.substr(0, sp),
                what = sp == std::string::npos ? "" : rest.substr(sp + 1);
    if (verdict == "end")
      ended = true;
    else if (verdict == "changed" || verdict == "same" || verdict == "failed" || verdict == "note")
      o.steps.push_back({verdict, what});
  }
  if (!ended) o.error = script_error(r, "the script stopped early");
  return o;
}

VerifyOutcome read_verify(const std::string& host, const ssh::CommandResult& r) {
  VerifyOutcome o{host, {}, {}, {}};
  bool ended = false;
  for (auto line : split_lines(r.out)) {
    if (line == "NS noperl")
      o.error =
          "no perl on this host; the TCP check needs /usr/bin/perl (macOS and Debian ship it)";
    if (line == "NS end 0") ended = true;
    auto f = split(line, '\t');
    if (f.size() >= 6 && f[0] == "NS verify")
      o.links.push_back({f[1], f[2], f[3], f[4], f[5] == "ok", f.size() > 6 ? f[6] : ""});
    else if (f.size() >= 3 && f[0] == "NS nolisten")
      o.not_listening.push_back(f[1] + ": " + f[2]);
  }
  if (o.error.empty() && !ended) o.error = script_error(r, "the check stopped early");
  return o;
}

std::string likely_cause(const LinkCheck& c, int port) {
  const std::string p = std::to_string(port);
  if (c.link == "missing")
    return "this host has no interface " + c.iface + " (renamed, or the adapter is gone)";
  if (c.link == "down")
    return c.iface +
           " is down here (cable unplugged, or the interface disabled): check the cable and the "
           "interface";
  if (c.route_iface.empty())
    return "no route to " + c.peer +
           ": the link's addresses are not set up (run distconfig --auto-setup)";
  if (c.route_iface != c.iface)
    return "traffic to " + c.peer + " leaves through " + c.route_iface + ", not " + c.iface +
           ": another interface (a LAN, a VPN, the Thunderbolt Bridge) holds a route to it";
  if (c.ok) return "";
  if (c.detail.find("refused") != std::string::npos)
    return "the peer answers but nothing listens on port " + p +
           " (its listener could not bind: port in use?)";
  return "no answer over " + c.iface + " (" + c.detail +
         "): cable unplugged or link down at either end, "
         "the peer's address not set up, or a firewall dropping port " +
         p;
}

}  // namespace distkit::netsetup
