// Text renderings of a topology and of what is wrong with it: the DOT graph
// (--dot), a plain-text connection matrix for terminals without Graphviz,
// the missing-cable message and the RDMA Recovery steps. Pure.
#pragma once

#include <string>

#include "distkit/topology/analysis.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::topology {

// MLX's DOT format: nodes a, b, ... labelled with the ssh names, one edge
// per cable labelled "<iface>/<iface>", from the lower host's side.
// Unlike MLX, links only one side lists are drawn too, dashed and with a
// comment naming the side that sees it; unmapped interfaces show as "?".
std::string render_dot(const Topology& t);

// One row and column per host, the number of cables in each cell; a '*'
// marks pairs with an asymmetric link.
std::string render_matrix(const Topology& t);

// Where a new cable could go on `host`: "studio-a: Thunderbolt 5 (en6),
// ..." or "studio-c: none".
std::string free_ports_text(const Topology& t, int host);

// The numbered Recovery steps for one host (templates/distconfig_rdma_recovery.txt).
std::string render_recovery(const Topology& t, const RdmaReadiness::HostGap& gap);

// A link's name, its two ends: "studio-a en3 <-> studio-b en3" ("?" for an
// end without an interface name). The subject of a link's Problems.
std::string link_name(const Topology& t, int link);

}  // namespace distkit::topology
