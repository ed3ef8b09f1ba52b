# distlaunch's first command on a host (templates/launch_agent_start.sh):
# find the host's distkit-agent and make it this channel, where it says
# hello and answers the preflight's checks (distkit/launch/agent_protocol.hpp).
# POSIX sh, stock tools only. It checks nothing itself.
# The first candidate that exists is the agent; one that then refuses this
# protocol (another distkit version) ends the search with its exit status
# and message on stderr: the launcher reports it rather than pass it over.
# The last candidate is the copy distlaunch keeps in this host's cache.
# With none, it prints this host's system, for the launcher to decide
# whether its own agent can be copied here. Before any cd, so a relative
# --agent means what it means for the ranks.
protocol={{protocol}}
for distkit_h in {{candidates|raw}}; do
  case $distkit_h in
    /*) [ -x "$distkit_h" ] || continue ;;
    */*) [ -x "$distkit_h" ] || continue; distkit_h=$PWD/$distkit_h ;;
    *) distkit_h=$(command -v "$distkit_h" 2>/dev/null) || continue
       case $distkit_h in /*) ;; *) continue ;; esac ;;
  esac
  printf '@@distlaunch:agent %s\n' "$distkit_h"
  # The loop ends here on purpose: a candidate that exists is the answer,
  # and one that cannot run fails this exec with its reason on stderr.
  # shellcheck disable=SC2093
  exec "$distkit_h" "$protocol" --host-agent
done
printf '@@distlaunch:no-agent %s\n' "$(uname -sm 2>/dev/null)"
