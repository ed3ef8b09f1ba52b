# distlaunch copies its own distkit-agent (the host agent) to a host that
# has none, when the host runs the same OS and architecture: the bytes come
# on stdin, {{size}} of them. Into the host's cache, in a directory named
# for the version and the build, so later jobs find it in the preflight (the
# file keeps its name: a process name on Linux is the file's first 15
# characters); written beside it and moved in, so no job ever sees half a
# file. Copies of other builds left for 30 days are removed. POSIX sh
# (find's -mindepth and -maxdepth: GNU and BSD/macOS find both have them).
c="${XDG_CACHE_HOME:-$HOME/.cache}/distkit"
d="$c/{{build|raw}}"
t="$d/.distkit-agent.$(uname -n).$$"  # hosts may share a home (NFS)
mkdir -p "$d" && chmod 700 "$c" "$d" || exit 1
if cat >"$t" && [ "$(wc -c <"$t" | tr -d ' ')" = {{size}} ] && chmod 755 "$t" &&
  mv -f "$t" "$d/distkit-agent"; then
  # Each build has a directory of its own, and nothing else removes them:
  # the ones not written for 30 days go now (a job still running one keeps
  # its open file; a later job of that build copies it again).
  find "$c" -mindepth 1 -maxdepth 1 -type d -mtime +30 ! -name {{build}} \
    -exec rm -rf {} + 2>/dev/null
  exit 0
fi
rm -f "$t"
exit 1
