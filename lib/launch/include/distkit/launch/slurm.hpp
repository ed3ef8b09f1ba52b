// Slurm allocations: when distlaunch runs inside one and no hosts are given,
// the ranks go to the allocation's nodes. SLURM_JOB_NODELIST uses Slurm's
// compressed host-list syntax, expanded here without calling scontrol.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace distkit::launch {

// "n[1-3,7],gpu[01-02]x,login" -> n1 n2 n3 n7 gpu01x gpu02x login. Zero
// padding of a range is kept (width of its lower bound). Throws UsageError
// (subject SLURM_JOB_NODELIST) for unbalanced brackets or bad ranges.
std::vector<std::string> expand_slurm_nodelist(std::string_view list);

}  // namespace distkit::launch
