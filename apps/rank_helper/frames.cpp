#include "frames.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace distlaunch_rank {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

std::optional<Frame> FrameReader::next() {
  std::size_t nl = buf_.find('\n', pos_);
  if (nl == std::string::npos) {
    if (pos_ > 0 && pos_ == buf_.size()) buf_.clear(), pos_ = 0;
    return std::nullopt;
  }
  Frame f;
  f.line = buf_.substr(pos_, nl - pos_);
  std::size_t after = nl + 1;
  const std::string& l = f.line;
  if (l.size() > 2 && l[0] == 'D' && l[1] == ' ' && all_digits(l.substr(2))) {
    std::size_t n = std::strtoul(l.c_str() + 2, nullptr, 10);
    if (buf_.size() - after < n) return std::nullopt;  // wait for the bytes
    f.kind = 'D';
    f.payload = buf_.substr(after, n);
    after += n;
  } else if (l.size() > 2 && l[0] == 'S' && l[1] == ' ') {
    f.kind = 'S';
    f.payload = l.substr(2);
  } else if (l.size() > 2 && l[0] == 'G' && l[1] == ' ') {
    f.kind = 'G';
    f.payload = l.substr(2);
  } else if (l == "H" || l == "E" || l == "T" || l == "K") {
    f.kind = l[0];
  } else {
    f.kind = '?';
  }
  pos_ = after;
  // Compact once the consumed prefix dominates: amortised O(1) per byte.
  if (pos_ > 65536 && pos_ * 2 > buf_.size()) buf_.erase(0, pos_), pos_ = 0;
  return f;
}

int signal_number(const std::string& name) {
  if (all_digits(name)) return std::atoi(name.c_str());
  static const struct {
    const char* name;
    int number;
  } kSignals[] = {{"HUP", SIGHUP},   {"INT", SIGINT},    {"QUIT", SIGQUIT}, {"ABRT", SIGABRT},
                  {"KILL", SIGKILL}, {"USR1", SIGUSR1},  {"USR2", SIGUSR2}, {"PIPE", SIGPIPE},
                  {"ALRM", SIGALRM}, {"TERM", SIGTERM},  {"CONT", SIGCONT}, {"STOP", SIGSTOP},
                  {"TSTP", SIGTSTP}, {"WINCH", SIGWINCH}};
  std::string n = name.rfind("SIG", 0) == 0 ? name.substr(3) : name;
  for (const auto& s : kSignals)
    if (n == s.name) return s.number;
  return 0;
}

}  // namespace distlaunch_rank
