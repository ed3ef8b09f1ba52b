// Hostfiles for other launchers, so a cluster distconfig found can be used
// with mpirun, mpiexec (Hydra), Slurm/ClusterShell tools or DeepSpeed. The
// text is rendered from templates/export_<format>.line (one line per host,
// or one line for the node list). Hosts are named by their `ssh` name; the
// slots of a host are the ranks placed on it (after -n/--repeat-hosts).
//
//   openmpi    `studio-a slots=2`   (mpirun --hostfile)
//   mpich      `studio-a:2`         (Hydra mpiexec -f)
//   slurm      `node[1-4,7],login`  (a hostlist expression, as scontrol and
//                                    ClusterShell's nodeset read it; no slots)
//   deepspeed  `studio-a slots=2`   (deepspeed --hostfile)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "distkit/hostfile/hostfile.hpp"

namespace distkit::hostfile {

enum class ExportFormat { openmpi, mpich, slurm, deepspeed };

std::string_view to_string(ExportFormat f);
// Throws UsageError (subject `subject`) with a "did you mean" hint.
ExportFormat parse_export_format(std::string_view name, std::string_view subject);

// `ranks` has one entry per rank (e.g. repeat_hosts() output); each distinct
// ssh name appears once, in order of first appearance, with its rank count.
// Throws UsageError when a name holds a character the format gives a meaning
// to ('#' everywhere; ':' for mpich; '[', ']' and ',' for slurm).
std::string export_hosts(const std::vector<Host>& ranks, ExportFormat fmt);

// A Slurm/ClusterShell hostlist expression for `names` (duplicates dropped):
// names that differ only in a trailing number are folded into ranges,
// zero padding kept (node01,node02,node03,node07 -> node[01-03,07]); groups
// keep the order in which their prefix first appears; names without a
// trailing number, or that are IP addresses, are listed as they are.
std::string compress_node_list(const std::vector<std::string>& names);

}  // namespace distkit::hostfile
