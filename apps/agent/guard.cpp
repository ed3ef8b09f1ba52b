#include "guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "posix_util.hpp"

namespace distkit_agent {
namespace {

// Lines "+ PGID GRACE_S" and "- PGID" on stdin; at EOF, TERM to the groups
// held, then KILL after the longest grace to those still there. POSIX sh
// (macOS's bash 3.2 too): `kill -SIG -PGID` signals a group.
constexpr const char* kScript = R"(trap '' HUP INT
live=' ' grace=1
while read -r op pg g; do
  case $op$live in
  +*) live="$live$pg "; [ "$g" -gt "$grace" ] && grace=$g ;;
  -*" $pg "*) live="${live%% $pg *} ${live#* $pg }" ;;
  esac
done
[ "$live" = ' ' ] && exit 0
for pg in $live; do kill -TERM "-$pg"; done 2>/dev/null
while [ "$grace" -gt 0 ]; do
  sleep 1
  grace=$((grace - 1)) left=''
  for pg in $live; do kill -0 "-$pg" 2>/dev/null && left="$left $pg"; done
  [ -z "$left" ] && exit 0
  live=$left
done
for pg in $live; do kill -KILL "-$pg"; done 2>/dev/null
)";

}  // namespace

void Guard::watch(pid_t group, double grace) {
  if (fd_ < 0 && !failed_) {
    namespace posix = distkit::posix;
    posix::Fd r, w, null(open("/dev/null", O_RDWR | O_CLOEXEC));
    int error = 0;
    failed_ = !null.valid() || !posix::make_pipe(r, w) ||
              posix::spawn_in_new_group({"/bin/sh", "-c", kScript, "distkit-agent-guard"},
                                        {r.get(), null.get(), null.get()}, error) < 0;
    if (!failed_) fd_ = w.release();
  }
  const long seconds = std::max(1L, static_cast<long>(std::ceil(grace)));
  tell("+ " + std::to_string(group) + " " + std::to_string(seconds) + "\n");
}

void Guard::forget(pid_t group) {
  tell("- " + std::to_string(group) + "\n");
}

void Guard::tell(const std::string& line) {
  if (fd_ < 0) return;
  if (!write_all(fd_, line)) {  // it is gone (EPIPE: SIGPIPE is ignored)
    close_fd(fd_);
    failed_ = true;
  }
}

}  // namespace distkit_agent
