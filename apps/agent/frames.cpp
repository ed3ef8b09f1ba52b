#include "frames.hpp"

#include "distkit/launch/agent_frames.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace distkit_agent {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

std::optional<Frame> FrameReader::next() {
  namespace af = distkit::agent_frames;
  std::size_t nl = buf_.find('\n', pos_);
  if (nl == std::string::npos) {
    if (pos_ > 0 && pos_ == buf_.size()) buf_.clear(), pos_ = 0;
    return std::nullopt;
  }
  Frame f;
  f.line = buf_.substr(pos_, nl - pos_);
  std::size_t after = nl + 1;
  auto h = af::parse_header(af::Channel::to_wrapper, f.line);
  if (h && h->sized) {
    if (buf_.size() - after < h->size) return std::nullopt;  // wait for the bytes
    f.payload = buf_.substr(after, h->size);
    after += h->size;
  } else if (h) {
    f.payload = std::string(h->word);
  }
  f.kind = h ? h->kind : '?';
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

}  // namespace distkit_agent
