// Rendezvous: turns a Config into a fully connected, authenticated Mesh.
// Every rank listens on all of its endpoints; rank j connects to each lower
// rank i once per stripe (stripe s goes to i's endpoint s), retrying until
// the peer listens or Config::connect_timeout passes. Connections failing
// authentication are refused, logged on stderr and do not count.
#pragma once

#include <memory>

#include "distkit/runtime/config.hpp"
#include "transport/mesh.hpp"

namespace distkit::rt {

std::shared_ptr<Mesh> connect_mesh(const Config& cfg);

}  // namespace distkit::rt
