// Host patterns and Match criteria of ssh_config (internal to ssh_config.cpp):
// reading a Match line into criteria, and deciding whether a block applies.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "distkit/ssh/ssh_config.hpp"

namespace distkit::ssh::detail {

// The words after `Match` as criteria. Throws UsageError naming `where` for
// an unknown criterion, a missing argument, or `all` combined with others.
std::vector<SshConfig::Criterion> parse_match(const std::vector<std::string>& words,
                                              const std::string& where);

// What a Match line is evaluated against: the state of the lookup so far.
struct MatchState {
  std::string_view original_host;  // as given (Host patterns see this too)
  std::string_view host_name;      // HostName so far (expanded), else original
  std::string_view user;           // user@ given, else User so far, else local
  std::string_view local_user;
};

enum class MatchResult { no, yes, undecided };

// yes when every criterion holds; no when a decidable one fails; otherwise
// undecided, with `*why` set to the first criterion only ssh(1) can decide.
MatchResult evaluate_match(const std::vector<SshConfig::Criterion>& criteria,
                           const MatchState& state, std::string* why);

}  // namespace distkit::ssh::detail
