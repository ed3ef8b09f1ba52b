// Signal names without "SIG" ("TERM"), as SSH's exit-signal (RFC 4254), the
// launcher's G frames to a rank and distkit's messages spell
// them, and their numbers on this system: one table. Header-only and libc
// only, so distkit-agent includes it too.
#pragma once

#include <csignal>
#include <string>
#include <string_view>

#include "distkit/util/decimal.hpp"

namespace distkit {

struct SignalName {
  const char* name;
  int number;
};

inline const SignalName kSignalNames[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT},  {"ILL", SIGILL},   {"ABRT", SIGABRT},
    {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"SEGV", SIGSEGV},  {"PIPE", SIGPIPE}, {"ALRM", SIGALRM},
    {"TERM", SIGTERM}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2},  {"BUS", SIGBUS},   {"CONT", SIGCONT},
    {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"WINCH", SIGWINCH}};

// "TERM", "SIGTERM" or a number ("15", up to 9 digits) to the number; 0
// when it names no signal.
inline int signal_number(std::string_view name) {
  if (auto n = parse_digits(name, 9)) return static_cast<int>(*n);
  if (name.substr(0, 3) == "SIG") name.remove_prefix(3);
  for (const auto& s : kSignalNames)
    if (name == s.name) return s.number;
  return 0;
}

// The name of signal `sig` ("TERM"), or its number as text.
inline std::string signal_name(int sig) {
  for (const auto& s : kSignalNames)
    if (s.number == sig) return s.name;
  return std::to_string(sig);
}

}  // namespace distkit
