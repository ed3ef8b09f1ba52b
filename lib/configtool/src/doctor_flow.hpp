// distconfig --doctor (and the shared half of --watch): which hops the
// backend will use (each cable's two ends, a hostfile's ring hops, the jaccl
// coordinator connection), the per-host check script (templates/
// doctor_host.sh) run over SSH on every host at once, and the report: a
// table on stdout (or --json) with a verdict, the evidence and the fix for
// every check. Exit 0 when nothing failed, 1 otherwise.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/netsetup/plan.hpp"
#include "distkit/topology/topology.hpp"
#include "doctor_checks.hpp"
#include "gather.hpp"

namespace distkit::configtool {

// The hops and, per host (in g.infos order), which of them it runs and the
// interfaces that are its Thunderbolt links.
struct LinkChecks {
  std::vector<Hop> hops;
  std::vector<std::vector<size_t>> by_host;
  std::vector<std::set<std::string>> tb_ifaces;
};

// Usage checks of --doctor/--watch and their flags (before probing).
void check_doctor_flags(const Options& o);

// The hops of the backend. Throws UsageError when --test-port is one of the
// job's ports (the ring's, from --job-port on, or the coordinator's).
LinkChecks plan_link_checks(const Options& o, const Gathered& g, const topology::Topology& t,
                            const netsetup::Plan& plan);

// The script (templates/doctor_host.sh) for `host`, running hops[mine]
// and listening for the hops aimed at it. `rdma`: the doctor's one-off
// `ibv_devinfo -v`; `tb_speed`: the watch's system_profiler for a Mac's
// link speeds (the doctor has the probe's); `sample_bytes`: the bandwidth
// sample each connect sends (0: none); `state_file`: network setup's on
// that host, read for its location record ("": not read).
std::string link_check_script(const Options& o, const std::string& host,
                              const std::vector<Hop>& hops, const std::vector<size_t>& mine,
                              bool rdma, bool tb_speed, long sample_bytes,
                              const std::string& state_file);

// Runs the checks (link_check_script's, `tb_speed` on the Macs when not
// `rdma`) on every host at once.
std::vector<HostResult> run_link_checks(const Options& o, const Gathered& g, const LinkChecks& lc,
                                        bool rdma, long sample_bytes);

// The report of `fs` on `out`: the table, causes and fixes, and the count,
// or with --json one distkit.doctor/1 document, its "problems" the run's
// `problems` and then the findings' failures and warnings. Returns 1 when
// one failed.
int report_findings(const Options& o, std::ostream& out, const std::vector<Finding>& fs,
                    std::vector<Problem> problems = {});

// --doctor: runs the checks once and prints the report.
int run_doctor(const Options& o, Services& s, Gathered& g, const topology::Topology& t,
               const netsetup::Plan& plan);

}  // namespace distkit::configtool
