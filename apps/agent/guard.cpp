#include "guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "posix_util.hpp"

namespace distkit_agent {
namespace {

// Lines "+ PGID GRACE_S [DIR]" and "- PGID" on stdin. At EOF, for the
// groups still held: TERM, KILL after the longest grace to those still
// there, then their temp dirs (the secret file in each) removed. POSIX sh
// (macOS's bash 3.2 too): `kill -SIG -PGID` signals a group; `sleep 0.1`
// is macOS's and GNU's. PGID is digits (checked), so dir_PGID is a name.
constexpr const char* kScript = R"(trap '' HUP INT
live=' ' grace=1
while read -r op pg g d; do
  case $pg in '' | *[!0-9]*) continue ;; esac
  case $op$live in
  +*) live="$live$pg "; eval "dir_$pg=\$d"; [ "$g" -gt "$grace" ] && grace=$g ;;
  -*" $pg "*) live="${live%% $pg *} ${live#* $pg }" ;;
  esac
done
[ "$live" = ' ' ] && exit 0
held=$live ticks=$((grace * 10))
for pg in $live; do kill -TERM "-$pg"; done 2>/dev/null
while [ -n "$live" ] && [ "$ticks" -gt 0 ]; do
  sleep 0.1
  ticks=$((ticks - 1)) left=''
  for pg in $live; do kill -0 "-$pg" 2>/dev/null && left="$left $pg"; done
  live=$left
done
for pg in $live; do kill -KILL "-$pg"; done 2>/dev/null
for pg in $held; do eval "d=\$dir_$pg"; [ -z "$d" ] || rm -rf -- "$d"; done
)";

}  // namespace

void Guard::start() {
  if (fd_ >= 0 || failed_) return;
  namespace posix = distkit::posix;
  posix::Fd r, w, null(open("/dev/null", O_RDWR | O_CLOEXEC));
  int error = 0;
  // Its name in `ps` does not say "distkit-agent": a `pkill -9 -f
  // distkit-agent` leaves it to do its work.
  failed_ = !null.valid() || !posix::make_pipe(r, w) ||
            posix::spawn_in_new_group({"/bin/sh", "-c", kScript, "distkit-rank-guard"},
                                      {r.get(), null.get(), null.get()}, error) < 0;
  if (!failed_) fd_ = w.release();
}

void Guard::watch(pid_t group, double grace, const std::string& dir) {
  start();
  const long seconds = std::max(1L, static_cast<long>(std::ceil(grace)));
  // A dir with a newline would break the line: the next agent's sweep
  // removes it instead (temp_dir.hpp).
  const bool say_dir = !dir.empty() && dir.find('\n') == std::string::npos;
  tell("+ " + std::to_string(group) + " " + std::to_string(seconds) + (say_dir ? " " + dir : "") +
       "\n");
}

void Guard::forget(pid_t group) {
  tell("- " + std::to_string(group) + "\n");
}

// A blocking write, the one in the agent's loop: a line is a few bytes the
// guard reads at once, and one dropped would leave a rank unguarded or
// keep a gone group's pid (which may be reused) in its list.
void Guard::tell(const std::string& line) {
  if (fd_ < 0) return;
  if (!write_all(fd_, line)) {  // it is gone (EPIPE: SIGPIPE is ignored)
    close_fd(fd_);
    failed_ = true;
  }
}

}  // namespace distkit_agent
