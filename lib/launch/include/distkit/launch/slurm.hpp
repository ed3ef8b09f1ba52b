// Slurm allocations: when distlaunch runs inside one and no hosts are given,
// the ranks go to the allocation's nodes, as many on each as the
// allocation's task layout says; inside one, srun reaches the nodes
// (--launcher). SLURM_JOB_NODELIST uses Slurm's compressed host-list
// syntax, SLURM_TASKS_PER_NODE its run-length counts ("2(x3),1", srun(1)
// OUTPUT ENVIRONMENT VARIABLES), both read here without calling scontrol.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::launch {

// "n[1-3,7],gpu[01-02]x,login" -> n1 n2 n3 n7 gpu01x gpu02x login. Zero
// padding of a range is kept (width of its lower bound). Throws UsageError
// (subject SLURM_JOB_NODELIST) for unbalanced brackets or bad ranges.
std::vector<std::string> expand_slurm_nodelist(std::string_view list);

// "2(x3),1" -> 2 2 2 1. Throws UsageError (subject SLURM_TASKS_PER_NODE)
// for anything else, or a count below 1.
std::vector<int> expand_slurm_tasks_per_node(std::string_view counts);

// Ranks on each of `nodes` nodes: SLURM_TASKS_PER_NODE when set, else
// SLURM_NTASKS_PER_NODE for every node, else 1 each (null: unset). Throws
// UsageError when the counts do not match the node list.
std::vector<int> slurm_tasks_per_node(const char* tasks_per_node, const char* ntasks_per_node,
                                      std::size_t nodes);

// How commands reach the hosts: ssh (SSH, or a local process for this
// machine) or srun (a job step per node, inside a Slurm allocation).
enum class Launcher { ssh, srun };

// --launcher as given, else srun inside an allocation (`slurm_job_id` set
// and not empty), else ssh. srun outside an allocation is a UsageError.
Launcher choose_launcher(const std::optional<std::string>& flag, const char* slurm_job_id);

// Under srun, every host must be a node of the allocation (`nodelist`,
// SLURM_JOB_NODELIST's value; nothing is checked when it is empty): throws
// UsageError naming the first that is not.
void check_allocation_hosts(const std::vector<std::string>& hosts, std::string_view nodelist);

}  // namespace distkit::launch
