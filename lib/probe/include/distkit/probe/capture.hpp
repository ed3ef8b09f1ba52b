// The capture format: what a probe script prints in its one round trip, and
// what --save-probes writes and --from-probes reads back.
//
//   distkit-probe 1 <boundary>
//   <boundary> begin <section>
//   <the command's stdout, byte for byte>
//   <boundary> end <section> <exit status>
//
// The boundary is a random token generated per run and passed to the script
// as an argument, so no command output can forge a section marker. The
// script writes one '\n' before each end marker; the parser removes exactly
// that one, so a section's text is the command's output unchanged.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::probe {

struct Section {
  std::string output;
  int status = 0;  // the command's exit status (127: command not found)
};

struct Capture {
  std::string boundary;
  std::map<std::string, Section, std::less<>> sections;

  // The section when it exists and its command exited 0.
  const Section* ok(std::string_view name) const;
  // The section whatever its exit status.
  const Section* find(std::string_view name) const;
};

// Parses a capture. Throws distkit::RemoteError (subject = `host`) when the
// header is missing; a truncated last section (no end marker) is kept with
// status -1 so a host that died mid-probe still shows what it printed.
Capture parse_capture(std::string_view text, std::string_view host);

// A fresh random boundary token: "DISTKIT-" + 32 hex digits.
std::string make_boundary();

}  // namespace distkit::probe
