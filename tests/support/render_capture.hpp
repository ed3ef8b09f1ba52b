// A capture written in probe/capture.hpp's format, as the hosts' writer
// (templates/capture_writer.sh) prints one: the model the capture tests and
// the capture fuzz target check the parser against.
#pragma once

#include <string>

#include "distkit/probe/capture.hpp"

namespace distkit::probe::test {

inline std::string render_capture(const Capture& c) {
  std::string out = "distkit-probe 1 " + c.boundary + "\n";
  for (const auto& [name, s] : c.sections) {
    out += c.boundary + " begin " + name + "\n" + s.output + "\n";
    out += c.boundary + " end " + name + " " + std::to_string(s.status) + "\n";
  }
  return out;
}

}  // namespace distkit::probe::test
