// See watch_flow.hpp.
#include "watch_flow.hpp"

#include <fmt/format.h>
#include <chrono>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "diagnostics.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/utc_time.hpp"
#include "doctor_flow.hpp"

namespace distkit::configtool {

namespace {

constexpr long kSampleBytes = 1 << 20;
// An RTT counts as drift over 3x the first round's and at least this much
// over it (sub-millisecond times on a cable jitter by more than 3x; a VPN
// path adds tens of ms, exo#1723).
constexpr double kRttFloorMs = 2.0;

std::string utc_now() {
  return utc_time(std::time(nullptr));
}

std::string down_reason(const HopResult& r) {
  if (r.link != "up") return "interface " + r.link;
  if (r.route_iface.empty()) return "no route";
  return r.errno_name.empty() ? r.errno_text : r.errno_name + " (" + r.errno_text + ")";
}

nlohmann::json sample_json(int round, const Hop& h, const HopResult& r,
                           const std::vector<std::string>& changes) {
  return {{"time", utc_now()},     {"round", round},
          {"host", h.host},        {"iface", h.iface},
          {"peer", h.peer},        {"address", h.address},
          {"kind", h.kind},        {"route_iface", r.route_iface},
          {"link", r.link},        {"ok", r.connected},
          {"errno", r.errno_name}, {"rtt_ms", r.rtt_ms},
          {"mbps", r.mbps},        {"speed_mbps", r.speed_mbps},
          {"changes", changes}};
}

}  // namespace

std::vector<std::string> hop_changes(const Hop& hop, const std::optional<HopResult>& prev,
                                     const std::optional<HopResult>& base, const HopResult& cur) {
  std::vector<std::string> out;
  if (!prev) {  // the first round: only what is already wrong
    if (!cur.connected) out.push_back("down: " + down_reason(cur));
    if (!hop.iface.empty() && cur.route_iface != hop.iface)
      out.push_back("route leaves by " + (cur.route_iface.empty() ? "nothing" : cur.route_iface) +
                    ", not " + hop.iface);
    return out;
  }
  if (prev->route_iface != cur.route_iface)
    out.push_back("route moved from " + (prev->route_iface.empty() ? "none" : prev->route_iface) +
                  " to " + (cur.route_iface.empty() ? "none" : cur.route_iface));
  if (prev->link != cur.link)
    out.push_back(hop.iface + " went from " + prev->link + " to " + cur.link);
  if (prev->connected && !cur.connected) out.push_back("down: " + down_reason(cur));
  if (!prev->connected && cur.connected) out.push_back("up again");
  if (prev->speed_mbps >= 0 && cur.speed_mbps >= 0 && prev->speed_mbps != cur.speed_mbps)
    out.push_back("speed changed from " + std::to_string(prev->speed_mbps) + " to " +
                  std::to_string(cur.speed_mbps) + " Mb/s");
  auto slow = [&](const HopResult& r) {
    return base && base->rtt_ms > 0 && r.connected && r.rtt_ms > 3 * base->rtt_ms &&
           r.rtt_ms - base->rtt_ms >= kRttFloorMs;
  };
  if (slow(cur) && !slow(*prev))
    out.push_back(fmt::format("connect time {:.2f} ms, over 3x the first round's {:.2f} ms",
                              cur.rtt_ms, base->rtt_ms));
  return out;
}

std::string location_change(const std::optional<std::string>& prev, const HostResult& cur) {
  if (!cur.location) return "";
  if (prev)
    return *prev == *cur.location
               ? ""
               : "network location changed from " + *prev + " to " + *cur.location;
  if (cur.setup_location && *cur.setup_location != *cur.location)
    return "network location is " + *cur.location + ", not " + *cur.setup_location +
           " (where distconfig set up the link addresses)";
  return "";
}

int run_watch(const Options& o, Services& s, Gathered& g, const topology::Topology& t,
              const netsetup::Plan& plan) {
  auto lc = plan_link_checks(o, g, t, plan);
  std::ofstream hist(o.history, std::ios::app);
  if (!hist)
    throw UsageError("--history", "cannot open " + o.history.string() + " for appending",
                     "pick a writable file");
  note(s, fmt::format("watching {} hop(s) every {:.2f} s on port {}; one line per check in {}",
                      lc.hops.size(), *o.watch, o.test_port, o.history.string()));
  std::vector<std::optional<HopResult>> prev(lc.hops.size()), base(lc.hops.size());
  std::vector<std::optional<std::string>> location(g.infos.size());
  bool drift = false;
  for (int round = 1; o.count == 0 || round <= o.count; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    auto results = run_link_checks(o, g, lc, false, kSampleBytes);
    for (size_t i = 0; i < results.size(); ++i) {
      std::string moved = location_change(location[i], results[i]);
      if (results[i].location) location[i] = results[i].location;
      if (!moved.empty())
        s.out << utc_now() << " round " << round << " " << results[i].host << ": " << moved << "\n";
      drift = drift || !moved.empty();
      for (size_t k = 0; k < lc.by_host[i].size(); ++k) {
        size_t h = lc.by_host[i][k];
        HopResult cur;
        if (!results[i].error.empty() || k >= results[i].hops.size()) {
          cur.route_iface = prev[h] ? prev[h]->route_iface : "";
          cur.errno_text = "host check failed: " + results[i].error;
        } else {
          cur = results[i].hops[k];
        }
        auto changes = hop_changes(lc.hops[h], prev[h], base[h], cur);
        auto logged = changes;
        if (!moved.empty()) logged.push_back(moved);
        hist << sample_json(round, lc.hops[h], cur, logged).dump() << "\n";
        for (const auto& c : changes)
          s.out << utc_now() << " round " << round << " " << lc.hops[h].name() << ": " << c << "\n";
        drift = drift || !changes.empty();
        if (!base[h] && cur.connected) base[h] = cur;
        prev[h] = cur;
      }
    }
    hist.flush();
    s.out.flush();
    if (drift && o.fail_on_drift) {
      report(s, {{"watch", "drift",
                  "drift in round " + std::to_string(round) + " (--fail-on-drift)", ""}});
      return 1;
    }
    if (o.count != 0 && round == o.count) break;
    auto next = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(*o.watch));
    std::this_thread::sleep_until(next);
  }
  return 0;
}

}  // namespace distkit::configtool
