// The per-host network setup the Thunderbolt hostfiles assume (MLX's
// address plan, SPEC §4), printed for the user to run: automatic setup is
// part 2 of distconfig and not built yet.
#pragma once

#include <string>
#include <vector>

#include "distkit/topology/address_plan.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::configtool {

// "Setup for <host>" blocks like the reference prints, one per host.
std::string render_setup(const topology::Topology& t,
                         const std::vector<topology::LinkAddresses>& plan);

}  // namespace distkit::configtool
